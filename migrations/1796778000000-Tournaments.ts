import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tournaments (R9). One row per tournament: what the director set at its creation
 * (`config`) and its flights with their entries, rounds, pairings and results (`state`).
 * The row is the lock of every change to the draw: a match that ends, a withdrawal, a
 * correction all take it FOR UPDATE. Its matches are ordinary match tables whose setup
 * names the tournament.
 *
 * Entry fees and prizes (R9.9) are ledger entries of no table: `table_id` becomes
 * optional and `tournament_id` says which tournament they belong to (exactly one of the
 * two is set).
 */
export class Tournaments1796778000000 implements MigrationInterface {
  name = 'Tournaments1796778000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tournaments (
        club_id     uuid        NOT NULL,
        id          uuid        NOT NULL,
        session_id  uuid        NULL,
        name        text        NOT NULL,
        format      text        NOT NULL,
        status      text        NOT NULL,
        config      jsonb       NOT NULL,
        state       jsonb       NOT NULL,
        version     integer     NOT NULL DEFAULT 1,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tournaments_pk PRIMARY KEY (club_id, id),
        CONSTRAINT tournaments_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id),
        CONSTRAINT tournaments_format_ck CHECK (format IN ('knockout', 'swiss')),
        CONSTRAINT tournaments_status_ck CHECK (status IN ('open', 'running', 'finished')),
        CONSTRAINT tournaments_version_ck CHECK (version >= 1)
      )`);
    await q.query(`CREATE INDEX tournaments_session_ix ON tournaments (club_id, session_id, id)`);
    await q.query(`CREATE INDEX tournaments_status_ix ON tournaments (club_id, status, id)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON tournaments TO bgclub_app`);

    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN table_id DROP NOT NULL, ADD COLUMN tournament_id uuid NULL`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_tournament_fk FOREIGN KEY (club_id, tournament_id) REFERENCES tournaments (club_id, id)`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_owner_ck CHECK ((table_id IS NULL) <> (tournament_id IS NULL))`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_ck`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_ck CHECK (kind IN ('game', 'void', 'match-stake', 'rake', 'entry-fee', 'prize'))`);
    await q.query(`CREATE INDEX ledger_entries_tournament_ix ON ledger_entries (club_id, tournament_id) WHERE tournament_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_entries_tournament_ix`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_ck`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_ck CHECK (kind IN ('game', 'void', 'match-stake', 'rake'))`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_owner_ck, DROP CONSTRAINT ledger_entries_tournament_fk, DROP COLUMN tournament_id`);
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN table_id SET NOT NULL`);
    await q.query(`DROP TABLE tournaments`);
  }
}
