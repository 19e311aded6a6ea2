import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables (matches, money games, chouettes), their games with the action log, and the
 * append-only ledger. Every key includes club_id.
 */
export class Tables1764633600000 implements MigrationInterface {
  name = 'Tables1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE game_tables (
        club_id          uuid        NOT NULL,
        id               uuid        NOT NULL,
        kind             text        NOT NULL,
        session_id       uuid        NULL,
        status           text        NOT NULL DEFAULT 'in-progress',
        setup            jsonb       NOT NULL,
        state            jsonb       NOT NULL,
        stake_minor      bigint      NULL,
        next_game_no     integer     NOT NULL DEFAULT 1,
        current_game_no  integer     NULL,
        version          integer     NOT NULL DEFAULT 1,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT game_tables_pk PRIMARY KEY (club_id, id),
        CONSTRAINT game_tables_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id),
        CONSTRAINT game_tables_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id),
        CONSTRAINT game_tables_kind_ck CHECK (kind IN ('match', 'money', 'chouette')),
        CONSTRAINT game_tables_status_ck CHECK (status IN ('in-progress', 'finished')),
        CONSTRAINT game_tables_stake_ck CHECK (stake_minor IS NULL OR stake_minor >= 0)
      )`);
    await q.query(`CREATE INDEX game_tables_kind_ix ON game_tables (club_id, kind, id)`);
    await q.query(`CREATE INDEX game_tables_session_ix ON game_tables (club_id, session_id, id)`);
    await q.query(`
      CREATE TABLE table_players (
        club_id    uuid NOT NULL,
        table_id   uuid NOT NULL,
        player_id  uuid NOT NULL,
        CONSTRAINT table_players_pk PRIMARY KEY (club_id, table_id, player_id),
        CONSTRAINT table_players_table_fk FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, id),
        CONSTRAINT table_players_player_fk FOREIGN KEY (club_id, player_id) REFERENCES players (club_id, id)
      )`);
    await q.query(`CREATE INDEX table_players_player_ix ON table_players (club_id, player_id, table_id)`);
    await q.query(`
      CREATE TABLE games (
        club_id            uuid        NOT NULL,
        table_id           uuid        NOT NULL,
        game_no            integer     NOT NULL,
        status             text        NOT NULL DEFAULT 'in-progress',
        automatic_doubles  integer     NOT NULL DEFAULT 0,
        setup              jsonb       NOT NULL,
        actions            jsonb       NOT NULL DEFAULT '[]',
        result             jsonb       NULL,
        points             integer     NULL,
        winner_side        smallint    NULL,
        started_at         timestamptz NOT NULL DEFAULT now(),
        ended_at           timestamptz NULL,
        voided_at          timestamptz NULL,
        void_reason        text        NULL,
        voided_by          uuid        NULL,
        version            integer     NOT NULL DEFAULT 1,
        CONSTRAINT games_pk PRIMARY KEY (club_id, table_id, game_no),
        CONSTRAINT games_table_fk FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, id),
        CONSTRAINT games_status_ck CHECK (status IN ('in-progress', 'finished', 'voided', 'abandoned'))
      )`);
    await q.query(`
      CREATE TABLE ledger_entries (
        club_id       uuid        NOT NULL,
        id            uuid        NOT NULL,
        session_id    uuid        NOT NULL,
        table_id      uuid        NOT NULL,
        game_no       integer     NULL,
        from_party    text        NOT NULL,
        to_party      text        NOT NULL,
        amount_minor  bigint      NOT NULL,
        kind          text        NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_entries_pk PRIMARY KEY (club_id, id),
        CONSTRAINT ledger_entries_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id),
        CONSTRAINT ledger_entries_table_fk FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, id),
        CONSTRAINT ledger_entries_kind_ck CHECK (kind IN ('game', 'void', 'match-stake', 'rake')),
        CONSTRAINT ledger_entries_amount_ck CHECK (amount_minor > 0),
        CONSTRAINT ledger_entries_parties_ck CHECK (from_party <> to_party)
      )`);
    await q.query(`CREATE INDEX ledger_entries_session_ix ON ledger_entries (club_id, session_id, id)`);
    await q.query(`CREATE INDEX ledger_entries_table_ix ON ledger_entries (club_id, table_id, game_no)`);
    // R6.3: the ledger is append-only. Corrections are reversing entries, never edits.
    await q.query(`
      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger entries are append-only (R6.3)' USING ERRCODE = 'P0001';
      END $$`);
    await q.query(`
      CREATE TRIGGER ledger_entries_no_change BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER ledger_entries_no_change ON ledger_entries');
    await q.query('DROP FUNCTION ledger_entries_append_only()');
    await q.query('DROP TABLE ledger_entries');
    await q.query('DROP TABLE games');
    await q.query('DROP TABLE table_players');
    await q.query('DROP TABLE game_tables');
  }
}
