import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Running totals per session and party (a player or the house): the ledger net and the
 * finished games played, kept in the same transaction as the ledger entries they sum,
 * so a statement reads a dozen rows instead of the whole session's ledger.
 * (No CHECK on games: PostgreSQL checks the row proposed for insertion before ON
 * CONFLICT turns it into an update, and a void proposes −1.)
 */
export class SessionTotals1764892800000 implements MigrationInterface {
  name = 'SessionTotals1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE session_totals (
        club_id     uuid        NOT NULL,
        session_id  uuid        NOT NULL,
        party       text        NOT NULL,
        net_minor   bigint      NOT NULL DEFAULT 0,
        games       integer     NOT NULL DEFAULT 0,
        last_at     timestamptz NOT NULL,
        CONSTRAINT session_totals_pk PRIMARY KEY (club_id, session_id, party),
        CONSTRAINT session_totals_session_fk FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id)
      )`);
    await q.query(`
      INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at)
      SELECT club_id, session_id, party, sum(net), sum(games), max(at) FROM (
        SELECT l.club_id, l.session_id, p.party, p.amount AS net, 0 AS games, l.created_at AS at
          FROM ledger_entries l
         CROSS JOIN LATERAL (VALUES (l.to_party, l.amount_minor), (l.from_party, -l.amount_minor)) AS p (party, amount)
        UNION ALL
        SELECT g.club_id, t.session_id, p::text, 0, 1, coalesce(g.ended_at, g.started_at)
          FROM games g JOIN game_tables t ON t.club_id = g.club_id AND t.id = g.table_id
         CROSS JOIN unnest(g.players) AS p
         WHERE g.status = 'finished' AND t.session_id IS NOT NULL
      ) x GROUP BY club_id, session_id, party`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE session_totals');
  }
}
