/**
 * A player's statement page in PostgreSQL, for a player who plays rarely and for one who
 * plays every session: a club of 10,000 sessions (one an hour), A and B at a money table
 * in every one, R in 20 of them (every 500th, with A), and R paying A in one of his.
 * Seeded by SQL into a new database migrated by the build (`npm run build` first), then
 * each page query as SettlementRepository.statementSessions writes it, under
 * EXPLAIN (ANALYZE, BUFFERS), best of 5; the database is dropped at the end.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/statement-rare-player.mjs
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';

const require = createRequire(import.meta.url);
const { migrate } = require('../dist/src/data-source.js');
const { SettlementRepository } = require('../dist/src/settlement/settlement.repository.js');

const SESSIONS = 10_000;
const EVERY = 500;
const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `bench_statement_${randomBytes(4).toString('hex')}`;
const url = new URL(admin);
url.pathname = `/${name}`;

const adminClient = new pg.Client({ connectionString: admin });
await adminClient.connect();
await adminClient.query(`CREATE DATABASE "${name}"`);
const db = new pg.Client({ connectionString: url.toString() });
try {
  await migrate(url.toString());
  await db.connect();
  const club = randomUUID();
  const [A, B, R] = [randomUUID(), randomUUID(), randomUUID()];
  await db.query(`INSERT INTO clubs (club_id, name, currency, timezone) VALUES ($1, 'Bench', 'USD', 'UTC')`, [club]);
  await db.query(`INSERT INTO players (club_id, id, name) VALUES ($1, $2, 'A'), ($1, $3, 'B'), ($1, $4, 'R')`, [club, A, B, R]);
  // Sessions, one an hour; a money table in each with A and B seated (R with A in every 500th), their totals.
  await db.query(
    `INSERT INTO sessions (club_id, id, name, currency, starts_at)
     SELECT $1, gen_random_uuid(), 'S' || i, 'USD', timestamptz '2020-01-01 00:00Z' + make_interval(hours => i) FROM generate_series(1, $2) i`,
    [club, SESSIONS],
  );
  await db.query(
    `INSERT INTO game_tables (club_id, id, kind, session_id, status, setup, state)
     SELECT club_id, gen_random_uuid(), 'money', id, 'in-progress', '{}'::jsonb, '{}'::jsonb FROM sessions WHERE club_id = $1`,
    [club],
  );
  await db.query(
    `WITH s AS (SELECT t.id AS table_id, row_number() OVER (ORDER BY s.starts_at) AS n
                  FROM game_tables t JOIN sessions s ON s.club_id = t.club_id AND s.id = t.session_id WHERE t.club_id = $1)
     INSERT INTO table_players (club_id, table_id, player_id, kind, status)
     SELECT $1, s.table_id, p.id, 'money', 'in-progress' FROM s CROSS JOIN LATERAL (VALUES ($2::uuid), (CASE WHEN s.n % $5 = $5 / 2 THEN $4::uuid ELSE $3::uuid END)) p (id)`,
    [club, A, B, R, EVERY],
  );
  await db.query(
    `INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at)
     SELECT t.club_id, t.session_id, tp.player_id::text, CASE WHEN tp.player_id = $2 THEN 100 ELSE -100 END, 1, now()
       FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id WHERE tp.club_id = $1`,
    [club, A],
  );
  const mine = await db.query(`SELECT session_id FROM session_totals WHERE club_id = $1 AND party = $2`, [club, R]);
  await db.query(`INSERT INTO payments (club_id, id, session_id, from_party, to_party, amount_minor) VALUES ($1, gen_random_uuid(), $2, $3, $4, 100)`, [club, mine.rows[0].session_id, R, A]);
  await db.query('VACUUM ANALYZE');

  /** The page query as the repository writes it. */
  const pageQuery = (party, after, limit) => {
    let q;
    const tx = { rows: (text, values) => ((q = { text, values }), Promise.resolve([])) };
    new SettlementRepository().statementSessions(tx, club, party, { from: null, toEnd: null }, after, limit);
    return q;
  };
  const keyOf = async (party, n) =>
    (
      await db.query(
        `SELECT to_char(coalesce(s.starts_at, s.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS k, s.id
           FROM sessions s JOIN session_totals st ON st.club_id = s.club_id AND st.session_id = s.id AND st.party = $2
          WHERE s.club_id = $1 ORDER BY coalesce(s.starts_at, s.created_at), s.id OFFSET $3 LIMIT 1`,
        [club, party, n - 1],
      )
    ).rows.map((r) => [r.k, r.id])[0];
  const cases = [
    ['R, his one page of 20 (limit 20: 21 rows asked)', R, null, 21],
    ['R, from his 10th session on', R, await keyOf(R, 10), 21],
    ['A, first page of 50', A, null, 51],
    ['A, a page of 50 from his 5,000th session', A, await keyOf(A, 5000), 51],
  ];
  for (const [what, party, after, limit] of cases) {
    const q = pageQuery(party, after, limit);
    let best = null;
    for (let i = 0; i < 5; i++) {
      const plan = (await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.text}`, q.values)).rows[0]['QUERY PLAN'][0];
      if (!best || plan['Execution Time'] < best['Execution Time']) best = plan;
    }
    const top = best.Plan;
    console.log(`${what}: ${top['Actual Rows']} rows, ${best['Execution Time'].toFixed(2)} ms, buffers hit ${top['Shared Hit Blocks']} read ${top['Shared Read Blocks']}`);
    if (process.env.PLANS) {
      const text = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
      console.log(text);
    }
  }
} finally {
  await db.end().catch(() => undefined);
  await adminClient.query(`DROP DATABASE "${name}"`);
  await adminClient.end();
}
