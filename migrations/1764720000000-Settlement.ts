import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settlement (R6.5, R6.6): payments recorded against a session (append-only, like
 * the ledger), and who played each game, so a statement counts every player's games
 * without reading game setups.
 */
export class Settlement1764720000000 implements MigrationInterface {
  name = 'Settlement1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payments (
        club_id       uuid        NOT NULL,
        id            uuid        NOT NULL,
        session_id    uuid        NOT NULL,
        from_party    text        NOT NULL,
        to_party      text        NOT NULL,
        amount_minor  bigint      NOT NULL,
        note          text        NULL,
        created_by    uuid        NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT payments_pk PRIMARY KEY (club_id, id),
        CONSTRAINT payments_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id),
        CONSTRAINT payments_amount_ck CHECK (amount_minor > 0),
        CONSTRAINT payments_parties_ck CHECK (from_party <> to_party)
      )`);
    await q.query(`CREATE INDEX payments_session_ix ON payments (club_id, session_id, id)`);
    // R6.6: a payment is a fact; a mistake is corrected by a payment the other way.
    await q.query(`
      CREATE FUNCTION payments_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'payments are append-only (R6.6)' USING ERRCODE = 'P0001';
      END $$`);
    await q.query(`
      CREATE TRIGGER payments_no_change BEFORE UPDATE OR DELETE ON payments
      FOR EACH ROW EXECUTE FUNCTION payments_append_only()`);

    await q.query(`ALTER TABLE games ADD COLUMN players uuid[] NOT NULL DEFAULT '{}'`);
    // Games recorded before this column: match and money tables seat the same players
    // for every game; a chouette game's seats are in its setup.
    await q.query(`
      UPDATE games g SET players = ARRAY(
        SELECT tp.player_id FROM table_players tp WHERE tp.club_id = g.club_id AND tp.table_id = g.table_id ORDER BY tp.player_id)
       WHERE g.setup->>'kind' IS DISTINCT FROM 'chouette'`);
    await q.query(`
      UPDATE games g SET players = ARRAY(
        SELECT DISTINCT p::uuid FROM (
          SELECT g.setup->'seatsAtStart'->>'box' AS p
          UNION ALL SELECT g.setup->'seatsAtStart'->>'partner'
          UNION ALL SELECT jsonb_array_elements_text(g.setup->'seatsAtStart'->'line')
        ) s WHERE p IS NOT NULL ORDER BY 1)
       WHERE g.setup->>'kind' = 'chouette'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE games DROP COLUMN players');
    await q.query('DROP TRIGGER payments_no_change ON payments');
    await q.query('DROP FUNCTION payments_append_only()');
    await q.query('DROP TABLE payments');
  }
}
