// The yardsticks of the app's speed: bare Fastify + pg servers, no auth, no validation, no
// idempotency, no rules beyond arithmetic. Run as its own process by bench/lib/figures.mjs.
//   DATABASE_URL=postgres://… PORT=0 [POOL_SIZE=10] node bench/baseline-server.mjs
//
// POST /clubs/:club/money-games/:id/games (header x-api-key-id): the same transaction as
//   the app's record_game, written carefully (named prepared statements; BEGIN, the lock,
//   every write in one statement, COMMIT: four round trips) into the app's own tables,
//   on tables the app created: the table row locked
//   with its session, the game row, its ledger entry, the session totals, the party
//   volumes and the player statistics upserted, the two events carrying the game as it is
//   answered, the audit record, the table's version bumped. Same rows, same columns, same
//   indexes, constraints and triggers, about the same bytes: the figure for how well the
//   app uses the database.
// POST /light/:id/games: the lighter transaction the figure was first measured against
//   (one game row, four ledger rows, one version bump in tables of its own), kept so
//   that earlier figures can be compared.

import Fastify from 'fastify';
import pg from 'pg';
import { randomBytes, randomUUID } from 'node:crypto';

// 10 connections (node-postgres' default) unless POOL_SIZE says otherwise (experiments only).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE || 10) });
await pool.query(`
  CREATE TABLE IF NOT EXISTS baseline_tables (id uuid PRIMARY KEY, version integer NOT NULL DEFAULT 1, next_game_no integer NOT NULL DEFAULT 1);
  CREATE TABLE IF NOT EXISTS baseline_games (table_id uuid NOT NULL, game_no integer NOT NULL, actions jsonb NOT NULL, points integer NOT NULL, PRIMARY KEY (table_id, game_no));
  CREATE TABLE IF NOT EXISTS baseline_ledger (id uuid PRIMARY KEY, table_id uuid NOT NULL, game_no integer NOT NULL, from_party text NOT NULL, to_party text NOT NULL, amount_minor bigint NOT NULL)`);

/** A time-ordered id, as the app makes its ids (48-bit milliseconds, version 7, random bits). */
function uuid7() {
  const b = randomBytes(16);
  const ms = Date.now();
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Runs `work` in a transaction on a pooled connection. */
async function transaction(work) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

const LEVELS = { single: 1, gammon: 2, backgammon: 3 };
const COUNTERS = ['games_played', 'games_won', 'games_lost', 'points_won', 'points_lost', 'doubles', 'takes'];
const S = COUNTERS.map((_, i) => `$${i + 23}::bigint[]`);
const V = COUNTERS.map((_, i) => `v${i}`);

// Prepared once per connection (named statements), as a careful hand-written server would.
const LOCK = `SELECT t.session_id, t.setup, t.next_game_no, s.currency
  FROM game_tables t JOIN sessions s ON s.club_id = t.club_id AND s.id = t.session_id
 WHERE t.club_id = $1 AND t.id = $2 FOR UPDATE OF t FOR SHARE OF s`;
// Every write of the game in one statement (one round trip); parameters:
// $1 club, $2 table, $3 game no, $4–$10 the game, $11 ledger id, $12 session, $13 loser,
// $14 winner, $15 amount, $16–$19 the parties' nets in their order, $20 currency,
// $21 variant, $22 players, $23–$29 their counters, $30 subject, $31 event data,
// $32 audit id, $33 key, $34 path, $35 request id, $36 body.
const RECORD = `WITH
  g AS (INSERT INTO games (club_id, table_id, game_no, status, automatic_doubles, setup, actions, result, points, winner_side, started_at, ended_at, version, players)
        VALUES ($1, $2, $3, 'finished', 0, $4, $5, $6, $7, $8, $9, $9, 1, $10)),
  l AS (INSERT INTO ledger_entries (club_id, id, session_id, table_id, game_no, from_party, to_party, amount_minor, kind, created_at)
        VALUES ($1, $11, $12, $2, $3, $13, $14, $15, 'game', $9)),
  st AS (INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at) VALUES ($1, $12, $16, $17, 1, $9), ($1, $12, $18, $19, 1, $9)
        ON CONFLICT (club_id, session_id, party) DO UPDATE SET net_minor = session_totals.net_minor + excluded.net_minor,
          games = session_totals.games + excluded.games, last_at = greatest(session_totals.last_at, excluded.last_at)),
  tn AS (INSERT INTO table_nets (club_id, table_id, party, net_minor) VALUES ($1, $2, $16, $17), ($1, $2, $18, $19)
        ON CONFLICT (club_id, table_id, party) DO UPDATE SET net_minor = table_nets.net_minor + excluded.net_minor),
  pv AS (INSERT INTO party_volumes (club_id, party, currency, gross_minor, net_minor, paid_minor, received_minor, has_totals)
        VALUES ($1, $16, $20, $15, $17, 0, 0, true), ($1, $18, $20, $15, $19, 0, 0, true)
        ON CONFLICT (club_id, party, currency) DO UPDATE SET gross_minor = party_volumes.gross_minor + excluded.gross_minor,
          net_minor = party_volumes.net_minor + excluded.net_minor, has_totals = true),
  ps AS (INSERT INTO player_stats (club_id, player_id, variant, ${COUNTERS.join(', ')})
        SELECT $1, p, $21, ${V.join(', ')} FROM unnest($22::uuid[], ${S.join(', ')}) AS x (p, ${V.join(', ')})
        ON CONFLICT (club_id, player_id, variant) DO UPDATE SET ${COUNTERS.map((k) => `${k} = player_stats.${k} + excluded.${k}`).join(', ')}),
  ev AS (INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data)
        VALUES ($1, 'game.started', $12, 'game', $30, $31), ($1, 'game.finished', $12, 'game', $30, $31)),
  au AS (INSERT INTO audit_log (club_id, id, actor, api_key_id, method, route, path, status, request_id, client_request_id, body)
        VALUES ($1, $32, 'key', $33, 'POST', '/v1/money-games/:id/games', $34, 201, $35, NULL, $36))
UPDATE game_tables SET status = 'in-progress', state = '{}', next_game_no = $3 + 1, current_game_no = NULL, version = version + 1, updated_at = $9
 WHERE club_id = $1 AND id = $2`;

const app = Fastify({ logger: false });

app.post('/clubs/:club/money-games/:id/games', async (req, reply) => {
  const { club, id } = req.params;
  const keyId = req.headers['x-api-key-id'];
  const body = req.body;
  const at = new Date().toISOString();
  const answer = await transaction(async (c) => {
    const t = (await c.query({ name: 'lock', text: LOCK, values: [club, id] })).rows[0];
    const gameNo = t.next_game_no;
    const { sides, rules, variant, stakeMinor } = t.setup;
    const a = sides[0][0];
    const b = sides[1][0];
    // Arithmetic only: each take doubles the cube, the finish's level multiplies it.
    let cube = 1;
    const actions = body.actions.map((x, i) => {
      if (x.type === 'take') cube *= 2;
      return { seq: i + 1, type: x.type, at, ...x };
    });
    const end = actions[actions.length - 1];
    const result = { winner: end.winner, result: end.result, resigned: end.resigned };
    const points = cube * LEVELS[end.result];
    const winnerSide = end.winner === a ? 0 : 1;
    const [winner, loser] = winnerSide === 0 ? [a, b] : [b, a];
    const amount = points * stakeMinor;
    const game = {
      gameNo,
      variant,
      status: 'finished',
      crawford: false,
      automaticDoubles: 0,
      cubes: [{ member: null, value: cube, owner: cube > 1 ? actions.findLast((x) => x.type === 'take').by : null, status: 'finished', pending: null }],
      actions: actions.map((x) => ({ ...x, cube: null })),
      result,
      points,
      winnerSide,
      payouts: [{ from: loser, to: winner, amountMinor: amount, kind: 'game' }],
      startedAt: at,
      endedAt: at,
      voided: null,
      version: 1,
    };
    const setup = { table: 'money', sides, rules, doubling: 'allowed', match: null, variant };
    // In the parties' order, as the app writes them (two commands never wait on each other crosswise).
    const [first, second] = [
      [winner, amount],
      [loser, -amount],
    ].sort(([p], [q]) => (p < q ? -1 : 1));
    const won = { games_played: 1, games_won: 1, games_lost: 0, points_won: points, points_lost: 0 };
    const lost = { games_played: 1, games_won: 0, games_lost: 1, points_won: 0, points_lost: points };
    const cubeActions = (p) => ({ doubles: actions.filter((x) => x.type === 'double' && x.by === p).length, takes: actions.filter((x) => x.type === 'take' && x.by === p).length });
    const stats = [
      { player: winner, ...won, ...cubeActions(winner) },
      { player: loser, ...lost, ...cubeActions(loser) },
    ];
    const data = JSON.stringify({ ...game, tableId: id, tableKind: 'money-game' });
    await c.query({
      name: 'record',
      text: RECORD,
      values: [
        club,
        id,
        gameNo,
        JSON.stringify(setup),
        JSON.stringify(actions),
        JSON.stringify(result),
        points,
        winnerSide,
        at,
        [a, b],
        uuid7(),
        t.session_id,
        loser,
        winner,
        amount,
        first[0],
        first[1],
        second[0],
        second[1],
        t.currency,
        variant,
        stats.map((x) => x.player),
        ...COUNTERS.map((k) => stats.map((x) => x[k])),
        `${id}/games/${gameNo}`,
        data,
        uuid7(),
        keyId,
        `/v1/money-games/${id}/games`,
        randomUUID(),
        JSON.stringify(body),
      ],
    });
    return game;
  });
  reply.code(201);
  return answer;
});

app.post('/light/tables', async () => {
  const id = randomUUID();
  await pool.query('INSERT INTO baseline_tables (id) VALUES ($1)', [id]);
  return { id };
});

app.post('/light/:id/games', async (req, reply) => {
  const { id } = req.params;
  const answer = await transaction(async (client) => {
    const t = await client.query('UPDATE baseline_tables SET version = version + 1, next_game_no = next_game_no + 1 WHERE id = $1 RETURNING next_game_no - 1 AS game_no, version', [id]);
    const gameNo = t.rows[0].game_no;
    await client.query('INSERT INTO baseline_games (table_id, game_no, actions, points) VALUES ($1, $2, $3, 2)', [id, gameNo, JSON.stringify(req.body?.actions ?? [])]);
    await client.query(
      `INSERT INTO baseline_ledger (id, table_id, game_no, from_party, to_party, amount_minor) VALUES
         ($1, $5, $6, 'b', 'a', 200), ($2, $5, $6, 'a', 'house', 5), ($3, $5, $6, 'c', 'd', 1), ($4, $5, $6, 'd', 'c', 1)`,
      [randomUUID(), randomUUID(), randomUUID(), randomUUID(), id, gameNo],
    );
    return { gameNo, version: t.rows[0].version };
  });
  reply.code(201);
  return answer;
});

app.get('/health', async () => ({ status: 'ok' }));

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`baseline listening on ${address}`);
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
