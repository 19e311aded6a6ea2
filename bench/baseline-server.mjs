// The yardstick of the app's speed: a bare Fastify + pg server doing the same transaction as
// record_game (one game row, its ledger entries, one version bump), nothing else: no
// auth, no validation, no idempotency, no audit. Run as its own process by run.mjs.
//   DATABASE_URL=postgres://… PORT=0 [POOL_SIZE=10] node bench/baseline-server.mjs

import Fastify from 'fastify';
import pg from 'pg';
import { randomUUID } from 'node:crypto';

// 10 connections (node-postgres' default) unless POOL_SIZE says otherwise (experiments only).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE || 10) });
await pool.query(`
  CREATE TABLE IF NOT EXISTS baseline_tables (id uuid PRIMARY KEY, version integer NOT NULL DEFAULT 1, next_game_no integer NOT NULL DEFAULT 1);
  CREATE TABLE IF NOT EXISTS baseline_games (table_id uuid NOT NULL, game_no integer NOT NULL, actions jsonb NOT NULL, points integer NOT NULL, PRIMARY KEY (table_id, game_no));
  CREATE TABLE IF NOT EXISTS baseline_ledger (id uuid PRIMARY KEY, table_id uuid NOT NULL, game_no integer NOT NULL, from_party text NOT NULL, to_party text NOT NULL, amount_minor bigint NOT NULL)`);

const app = Fastify({ logger: false });

app.post('/tables', async () => {
  const id = randomUUID();
  await pool.query('INSERT INTO baseline_tables (id) VALUES ($1)', [id]);
  return { id };
});

app.post('/tables/:id/games', async (req, reply) => {
  const { id } = req.params;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const t = await client.query('UPDATE baseline_tables SET version = version + 1, next_game_no = next_game_no + 1 WHERE id = $1 RETURNING next_game_no - 1 AS game_no, version', [id]);
    const gameNo = t.rows[0].game_no;
    await client.query('INSERT INTO baseline_games (table_id, game_no, actions, points) VALUES ($1, $2, $3, 2)', [id, gameNo, JSON.stringify(req.body?.actions ?? [])]);
    await client.query(
      `INSERT INTO baseline_ledger (id, table_id, game_no, from_party, to_party, amount_minor) VALUES
         ($1, $5, $6, 'b', 'a', 200), ($2, $5, $6, 'a', 'house', 5), ($3, $5, $6, 'c', 'd', 1), ($4, $5, $6, 'd', 'c', 1)`,
      [randomUUID(), randomUUID(), randomUUID(), randomUUID(), id, gameNo],
    );
    await client.query('COMMIT');
    reply.code(201);
    return { gameNo, version: t.rows[0].version };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
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
