import { MigrationInterface, QueryRunner } from 'typeorm';

const APP_GROUP_ROLE = 'bgclub_app';

/**
 * The sessions each party is on, with the session's date: a player's statement
 * (GET /v1/players/{id}/statement) lists the sessions where he has a running total, paid
 * or was paid, or sat at a table, by date (`startsAt`, else creation), then id. Walking
 * the club's sessions in that order and checking each cost a rare player the club's
 * sessions between his; `party_sessions_dated_ix` (club, party, date, session) holds his
 * alone, in page order, so a page reads its own rows.
 *
 * Kept by triggers, in the transaction of the write they follow, whichever command makes
 * it: a first total of a party in a session, a payment (both its parties), a seat (the
 * table's session, if any), a seat taken back (the row goes when nothing else puts the
 * player on the session), and a session's new `startsAt` (its rows' date). A new row
 * takes its date with the session row locked FOR SHARE (as the table commands lock it),
 * so it cannot miss a concurrent change of `startsAt`. Filled here from the totals,
 * payments and seats as they stand; `npm run rebuild-read-models` checks and rebuilds it.
 */
export class PartySessions1797040800000 implements MigrationInterface {
  name = 'PartySessions1797040800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE party_sessions (
        club_id    uuid        NOT NULL,
        session_id uuid        NOT NULL,
        party      text        NOT NULL,
        dated      timestamptz NOT NULL,
        CONSTRAINT party_sessions_pk PRIMARY KEY (club_id, session_id, party),
        CONSTRAINT party_sessions_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id)
      )`);
    await q.query(`CREATE INDEX party_sessions_dated_ix ON party_sessions (club_id, party, dated, session_id)`);

    // The party is on the session: its row, dated as the session is (locked against a concurrent change of its date).
    await q.query(`
      CREATE FUNCTION bg_party_session_add(club uuid, session uuid, parties text[]) RETURNS void
      LANGUAGE plpgsql AS $$
      DECLARE
        d timestamptz;
      BEGIN
        SELECT coalesce(s.starts_at, s.created_at) INTO d FROM sessions s WHERE s.club_id = club AND s.id = session FOR SHARE;
        INSERT INTO party_sessions (club_id, session_id, party, dated)
        SELECT club, session, p, d FROM unnest(parties) p
        ON CONFLICT (club_id, session_id, party) DO NOTHING;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION bg_party_sessions_of_total() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM bg_party_session_add(NEW.club_id, NEW.session_id, ARRAY[NEW.party]);
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION bg_party_sessions_of_payment() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM bg_party_session_add(NEW.club_id, NEW.session_id, ARRAY[NEW.from_party, NEW.to_party]);
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION bg_party_sessions_of_seat() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        session uuid;
      BEGIN
        SELECT t.session_id INTO session FROM game_tables t WHERE t.club_id = NEW.club_id AND t.id = NEW.table_id;
        IF session IS NOT NULL THEN
          PERFORM bg_party_session_add(NEW.club_id, session, ARRAY[NEW.player_id::text]);
        END IF;
        RETURN NULL;
      END
      $$`);
    // A seat taken back (a tournament's unplayed match, R9.10): the row stays while a total, a payment or another seat keeps the player on the session.
    await q.query(`
      CREATE FUNCTION bg_party_sessions_of_unseat() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        session uuid;
      BEGIN
        SELECT t.session_id INTO session FROM game_tables t WHERE t.club_id = OLD.club_id AND t.id = OLD.table_id;
        IF session IS NULL THEN
          RETURN NULL;
        END IF;
        DELETE FROM party_sessions ps
         WHERE ps.club_id = OLD.club_id AND ps.session_id = session AND ps.party = OLD.player_id::text
           AND NOT EXISTS (SELECT 1 FROM session_totals st WHERE st.club_id = ps.club_id AND st.session_id = ps.session_id AND st.party = ps.party)
           AND NOT EXISTS (SELECT 1 FROM payments y WHERE y.club_id = ps.club_id AND y.session_id = ps.session_id AND (y.from_party = ps.party OR y.to_party = ps.party))
           AND NOT EXISTS (SELECT 1 FROM game_tables t JOIN table_players tp ON tp.club_id = t.club_id AND tp.table_id = t.id
                            WHERE t.club_id = ps.club_id AND t.session_id = ps.session_id AND tp.player_id = OLD.player_id);
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION bg_party_sessions_redate() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE party_sessions SET dated = coalesce(NEW.starts_at, NEW.created_at) WHERE club_id = NEW.club_id AND session_id = NEW.id;
        RETURN NULL;
      END
      $$`);
    await q.query(`CREATE TRIGGER session_totals_party_sessions AFTER INSERT ON session_totals FOR EACH ROW EXECUTE FUNCTION bg_party_sessions_of_total()`);
    await q.query(`CREATE TRIGGER payments_party_sessions AFTER INSERT ON payments FOR EACH ROW EXECUTE FUNCTION bg_party_sessions_of_payment()`);
    await q.query(`CREATE TRIGGER table_players_party_sessions AFTER INSERT ON table_players FOR EACH ROW EXECUTE FUNCTION bg_party_sessions_of_seat()`);
    await q.query(`CREATE TRIGGER table_players_party_sessions_gone AFTER DELETE ON table_players FOR EACH ROW EXECUTE FUNCTION bg_party_sessions_of_unseat()`);
    await q.query(`
      CREATE TRIGGER sessions_party_sessions AFTER UPDATE OF starts_at ON sessions
      FOR EACH ROW WHEN (OLD.starts_at IS DISTINCT FROM NEW.starts_at) EXECUTE FUNCTION bg_party_sessions_redate()`);

    await q.query(`
      INSERT INTO party_sessions (club_id, session_id, party, dated)
      SELECT x.club_id, x.session_id, x.party, coalesce(s.starts_at, s.created_at)
        FROM (SELECT club_id, session_id, party FROM session_totals
              UNION SELECT club_id, session_id, from_party FROM payments
              UNION SELECT club_id, session_id, to_party FROM payments
              UNION SELECT t.club_id, t.session_id, tp.player_id::text FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
                     WHERE t.session_id IS NOT NULL) x
        JOIN sessions s ON s.club_id = x.club_id AND s.id = x.session_id`);

    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON party_sessions TO ${APP_GROUP_ROLE}`);
    for (const f of [
      'bg_party_session_add(uuid, uuid, text[])',
      'bg_party_sessions_of_total()',
      'bg_party_sessions_of_payment()',
      'bg_party_sessions_of_seat()',
      'bg_party_sessions_of_unseat()',
      'bg_party_sessions_redate()',
    ]) {
      await q.query(`GRANT EXECUTE ON FUNCTION ${f} TO ${APP_GROUP_ROLE}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER sessions_party_sessions ON sessions');
    await q.query('DROP TRIGGER table_players_party_sessions_gone ON table_players');
    await q.query('DROP TRIGGER table_players_party_sessions ON table_players');
    await q.query('DROP TRIGGER payments_party_sessions ON payments');
    await q.query('DROP TRIGGER session_totals_party_sessions ON session_totals');
    await q.query('DROP FUNCTION bg_party_sessions_redate()');
    await q.query('DROP FUNCTION bg_party_sessions_of_unseat()');
    await q.query('DROP FUNCTION bg_party_sessions_of_seat()');
    await q.query('DROP FUNCTION bg_party_sessions_of_payment()');
    await q.query('DROP FUNCTION bg_party_sessions_of_total()');
    await q.query('DROP FUNCTION bg_party_session_add(uuid, uuid, text[])');
    await q.query('DROP TABLE party_sessions');
  }
}
