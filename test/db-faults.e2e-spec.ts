import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { migrate } from '../src/data-source';
import { procStat } from '../src/db/leftover-postgres';
import { ensureAppLogin, withCredentials } from '../src/db/roles';
import { bearer, cloneDatabase, RunningApp } from './support/app';
import { double, finish, take } from './support/club';
import { as, freePort, instance, pgClient, sleep, waitFor } from './support/concurrency';
import { OwnPostgres, ownPostgres } from './support/pg-server';
import { Relay } from './support/relay';

/** The promise made to clients: an answer within 5 s, whatever the database does (plus a margin for a loaded machine). */
const ANSWER_WITHIN_MS = 5000;
const MARGIN_MS = 1000;

/** The simple-protocol message that carries a command's COMMIT (`EXECUTE batch(…); COMMIT`), and the one that opens its transaction. */
const COMMIT_MESSAGE = /; COMMIT\0/;
const BEGIN_MESSAGE = /^Q[\s\S]{4}BEGIN\b/;

interface Answer {
  what: string;
  status: number;
  code?: string;
  ms: number;
  retryAfter?: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

async function timed(what: string, send: () => PromiseLike<request.Response>): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await send();
    return { what, status: res.status, code: res.body?.code, ms: Date.now() - started, retryAfter: res.headers['retry-after'], body: res.body ?? {}, headers: res.headers };
  } catch (e) {
    return { what: `${what} (${(e as Error).message})`, status: 0, ms: Date.now() - started, body: {}, headers: {} };
  }
}

/** The app on a database reached through a relay the test controls. */
async function appBehindRelay(env: Record<string, string> = {}) {
  const db = await cloneDatabase();
  const target = new URL(db.url);
  const relay = new Relay({ host: target.hostname, port: Number(target.port) });
  // The app serves as its own role (a member of bgclub_app), as everywhere.
  const viaRelay = new URL(db.appUrl);
  viaRelay.port = String(await relay.open());
  const token = `relay-operator-${randomBytes(8).toString('hex')}`;
  const app = await instance(viaRelay.toString(), token, env);
  const direct = await pgClient(db.url);
  const club = await request(app.url).post('/v1/clubs').set(bearer(token)).send({ name: 'Relay club' });
  if (club.status !== 201) throw new Error(`club: ${club.status} ${club.text}`);
  const api = as(app.url, club.body.apiKey.token);
  const A = (await api.post('/v1/players', { name: 'Anna' })).body.id as string;
  const B = (await api.post('/v1/players', { name: 'Ben' })).body.id as string;
  const session = (await api.post('/v1/sessions', { name: 'Night' })).body.id as string;
  const table = async () => (await api.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 100 })).body.id as string;
  const count = async (sql: string, params: unknown[]) => (await direct.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0].n;
  const close = async () => {
    await relay.cut();
    await direct.end().catch(() => undefined);
    if (app.proc.exitCode === null && app.proc.signalCode === null) await app.stop();
  };
  return { app, relay, direct, api, A, B, session, table, count, close };
}

describe('a frozen database: every request hears back within 5 s', () => {
  let env: Awaited<ReturnType<typeof appBehindRelay>>;
  afterAll(() => env?.close());

  it('answers 503 to the requests in flight and to those that arrive during the freeze, commits nothing it called unavailable, then recovers', async () => {
    // The default DB_TIMEOUT_MS: nothing set.
    env = await appBehindRelay();
    const { api, relay, A, B } = env;
    const tables = await Promise.all([1, 2, 3, 4, 5, 6].map(() => env.table()));
    const batch = { actions: [double(A), take(B), finish(A, 'single')] };
    const tag = randomBytes(4).toString('hex');

    const wave = (n: number) => [
      ...tables.map((id, i) => timed(`game ${n}.${i}`, () => api.post(`/v1/money-games/${id}/games`, batch, { 'idempotency-key': `freeze-${tag}-${n}-${i}` }).timeout({ deadline: 20000 }))),
      ...[0, 1, 2, 3].map((i) => timed(`player ${n}.${i}`, () => api.post('/v1/players', { name: `Frozen-${tag}-${n}-${i}` }).timeout({ deadline: 20000 }))),
      timed(`list ${n}`, () => api.get('/v1/players?limit=5').timeout({ deadline: 20000 })),
      timed(`settlement ${n}`, () => api.get(`/v1/sessions/${env.session}/settlement`).timeout({ deadline: 20000 })),
    ];
    // The first wave is on its way when the database freezes; the second arrives during the freeze.
    const first = wave(1);
    await sleep(15);
    relay.freeze();
    const frozenAt = Date.now();
    await sleep(300);
    const second = wave(2);
    const answers = await Promise.all([...first, ...second]);
    const health = await timed('health', () => request(env.app.url).get('/health').timeout({ deadline: 20000 }));
    relay.thaw();

    const late = answers.filter((a) => a.ms >= ANSWER_WITHIN_MS + MARGIN_MS || a.status === 0).map((a) => `${a.what}: ${a.status} in ${a.ms} ms`);
    expect(late).toEqual([]);
    const secondWave = answers.slice(first.length);
    expect(secondWave.map((a) => [a.what, a.status])).toEqual(secondWave.map((a) => [a.what, 503]));
    for (const a of answers.filter((x) => x.status !== 200 && x.status !== 201)) {
      expect({ what: a.what, status: a.status, code: a.code, retryAfter: a.retryAfter }).toEqual({
        what: a.what,
        status: 503,
        code: a.what.startsWith('game') || a.what.startsWith('player') ? expect.stringMatching(/^(DATABASE_UNAVAILABLE|COMMIT_OUTCOME_UNKNOWN)$/) : 'DATABASE_UNAVAILABLE',
        retryAfter: expect.stringMatching(/^\d+$/),
      });
      expect(a.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(secondWave.length);
    expect(health.status).toBe(503);
    expect(Date.now() - frozenAt).toBeLessThan(ANSWER_WITHIN_MS + 300 + MARGIN_MS + 2000);

    // Thawed: the app recovers by itself (the connections it gave up on are gone, not reused).
    await waitFor('the app to answer again', async () => (await api.get('/v1/players?limit=1')).status === 200, 10000, 100);
    await waitFor('health to be up', async () => (await request(env.app.url).get('/health')).status === 200, 10000, 100);

    // What was called unavailable was not recorded; what was acknowledged was, once.
    await sleep(500);
    for (const a of answers.filter((x) => x.what.startsWith('player'))) {
      const [, n, i] = /player (\d)\.(\d)/.exec(a.what)!;
      const rows = await env.count('players WHERE name = $1', [`Frozen-${tag}-${n}-${i}`]);
      if (a.status === 201) expect({ what: a.what, rows }).toEqual({ what: a.what, rows: 1 });
      if (a.code === 'DATABASE_UNAVAILABLE') expect({ what: a.what, rows }).toEqual({ what: a.what, rows: 0 });
    }
    for (const [i, id] of tables.entries()) {
      const mine = answers.filter((a) => a.what.startsWith(`game 1.${i}`) || a.what.startsWith(`game 2.${i}`));
      const games = await env.count('games WHERE table_id = $1', [id]);
      const acked = mine.filter((a) => a.status === 201).length;
      const unknown = mine.filter((a) => a.code === 'COMMIT_OUTCOME_UNKNOWN').length;
      expect({ table: i, games: games >= acked && games <= acked + unknown }).toEqual({ table: i, games: true });
      // Each retried with its own key: replayed when it had committed, recorded once when it had not.
      for (const a of mine.filter((x) => x.status === 503)) {
        const [, n] = /game (\d)\./.exec(a.what)!;
        // (409 while the server still finishes what it was sent before the freeze.)
        let again = await api.post(`/v1/money-games/${id}/games`, batch, { 'idempotency-key': `freeze-${tag}-${n}-${i}` });
        for (let k = 0; k < 30 && again.status === 409; k++) {
          await sleep(100);
          again = await api.post(`/v1/money-games/${id}/games`, batch, { 'idempotency-key': `freeze-${tag}-${n}-${i}` });
        }
        expect(again.status).toBe(201);
      }
      const after = await env.count('games WHERE table_id = $1', [id]);
      expect({ table: i, after }).toEqual({ table: i, after: mine.length });
      expect(await env.count('ledger_entries WHERE table_id = $1', [id])).toBe(mine.length);
    }
  }, 90000);
});

/** The postmaster of the server whose data is in `dataDir`, and its children (the backends and helpers). */
function serverPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.ppid === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

/**
 * Stops the server whose data is in `dataDir`: the postmaster first, then every process it started. A kill() only queues
 * SIGSTOP; the postmaster may still fork a backend for a connection it was accepting before it actually stops, so this
 * waits for each process to show as stopped (state T) and scans the children again until a scan finds no new one.
 * Every stopped pid goes into `frozen` at once, for SIGCONT even if this fails half way.
 */
async function freeze(dataDir: string, frozen: number[]): Promise<void> {
  const stop = async (pid: number) => {
    try {
      process.kill(pid, 'SIGSTOP');
    } catch {
      return; // gone meanwhile
    }
    frozen.push(pid);
    for (let i = 0; i < 200; i++) {
      const stat = procStat(pid);
      if (!stat || stat.state === 'T' || stat.state === 't') return;
      await sleep(5);
    }
    throw new Error(`process ${pid} did not stop`);
  };
  const [postmaster] = serverPids(dataDir);
  await stop(postmaster);
  for (let quiet = 0; quiet < 2;) {
    const fresh = serverPids(dataDir)
      .slice(1)
      .filter((pid) => !frozen.includes(pid));
    for (const pid of fresh) await stop(pid);
    quiet = fresh.length === 0 ? quiet + 1 : 0;
    await sleep(20);
  }
}

describe('a stopped (SIGSTOP) PostgreSQL: every request hears back within 5 s', () => {
  let dir: string;
  let server: OwnPostgres | null = null;
  let app: RunningApp | null = null;
  const frozen: number[] = [];
  const resume = () => {
    for (const pid of frozen.splice(0)) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone
      }
    }
  };
  afterAll(async () => {
    resume();
    if (app && app.proc.exitCode === null && app.proc.signalCode === null) await app.stop();
    await server?.close().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 to requests in flight and arriving while every PostgreSQL process is stopped, and recovers when they continue', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bgclub-freeze-'));
    server = await ownPostgres(join(dir, 'pg'), await freePort());
    const admin = await pgClient(server.url('postgres'));
    await admin.query('CREATE DATABASE bgfreeze');
    await admin.end();
    await migrate(server.url('bgfreeze'));
    await ensureAppLogin(server.url('bgfreeze'), 'bgtest_freeze_app', 'freeze-app-password');
    const token = 'sigstop-operator-token';
    app = await instance(withCredentials(server.url('bgfreeze'), 'bgtest_freeze_app', 'freeze-app-password'), token);
    const club = await request(app.url).post('/v1/clubs').set(bearer(token)).send({ name: 'Frozen club' });
    const api = as(app.url, club.body.apiKey.token);
    const A = (await api.post('/v1/players', { name: 'Anna' })).body.id;
    const B = (await api.post('/v1/players', { name: 'Ben' })).body.id;
    const session = (await api.post('/v1/sessions', { name: 'Night' })).body.id;
    const tables: string[] = [];
    for (let i = 0; i < 4; i++) tables.push((await api.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 100 })).body.id);
    const batch = { actions: [double(A), take(B), finish(A, 'single')] };
    const wave = (n: number) => [
      ...tables.map((id, i) => timed(`game ${n}.${i}`, () => api.post(`/v1/money-games/${id}/games`, batch).timeout({ deadline: 20000 }))),
      timed(`player ${n}`, () => api.post('/v1/players', { name: `Stopped ${n}` }).timeout({ deadline: 20000 })),
      timed(`list ${n}`, () => api.get('/v1/players?limit=5').timeout({ deadline: 20000 })),
    ];

    const first = wave(1);
    await sleep(15);
    const dataDir = join(dir, 'pg');
    // The postmaster first (it forks no more once it has stopped), then everything it started.
    await freeze(dataDir, frozen);
    await sleep(300);
    const second = wave(2);
    const answers = await Promise.all([...first, ...second]);
    resume();

    expect(answers.filter((a) => a.ms >= ANSWER_WITHIN_MS + MARGIN_MS || a.status === 0).map((a) => `${a.what}: ${a.status} in ${a.ms} ms`)).toEqual([]);
    const secondWave = answers.slice(first.length);
    expect(secondWave.map((a) => [a.what, a.status])).toEqual(secondWave.map((a) => [a.what, 503]));
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.code).toMatch(a.what.startsWith('list') ? /^DATABASE_UNAVAILABLE$/ : /^(DATABASE_UNAVAILABLE|COMMIT_OUTCOME_UNKNOWN)$/);
      expect(a.retryAfter).toMatch(/^\d+$/);
    }
    await waitFor('the app to answer again', async () => (await api.get('/v1/players?limit=1')).status === 200, 10000, 100);
    const again = await api.post(`/v1/money-games/${tables[0]}/games`, batch);
    expect(again.status).toBe(201);
  }, 120000);
});

describe('the connection lost after COMMIT was sent: the outcome is unknown', () => {
  let env: Awaited<ReturnType<typeof appBehindRelay>>;
  beforeAll(async () => {
    // A shorter bound, so the blackholed connection gives up sooner.
    env = await appBehindRelay({ DB_TIMEOUT_MS: '2000' });
  }, 60000);
  afterAll(() => env?.close());

  it('answers 503 COMMIT_OUTCOME_UNKNOWN when the answer to COMMIT never comes; the game did commit and the retry with the same key replays it', async () => {
    const { api, relay, A, B } = env;
    const id = await env.table();
    const key = { 'idempotency-key': `unknown-game-${id}` };
    const batch = { actions: [double(A), take(B), finish(B, 'gammon')] };
    const fired = relay.trapOnce(COMMIT_MESSAGE, 'blackhole');
    const res = await timed('game', () => api.post(`/v1/money-games/${id}/games`, batch, key).timeout({ deadline: 20000 }));
    expect(await Promise.race([fired.then(() => 'trap fired'), sleep(200).then(() => 'trap never fired')])).toBe('trap fired');
    expect({ status: res.status, code: res.code, retryAfter: res.retryAfter }).toEqual({ status: 503, code: 'COMMIT_OUTCOME_UNKNOWN', retryAfter: expect.stringMatching(/^\d+$/) });
    expect(res.body.detail).toMatch(/Idempotency-Key/);
    expect(res.ms).toBeLessThan(ANSWER_WITHIN_MS + MARGIN_MS);
    // It did commit: one game, its ledger entry (2 × 2 points × 100 from Anna to Ben).
    expect(await env.count('games WHERE table_id = $1', [id])).toBe(1);
    const entries = (await env.direct.query('SELECT from_party, to_party, amount_minor::int AS amount FROM ledger_entries WHERE table_id = $1', [id])).rows;
    expect(entries).toEqual([{ from_party: A, to_party: B, amount: 400 }]);

    const again = await api.post(`/v1/money-games/${id}/games`, batch, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toMatchObject({ gameNo: 1, status: 'finished', points: 4 });
    expect(await env.count('games WHERE table_id = $1', [id])).toBe(1);
    expect(await env.count('ledger_entries WHERE table_id = $1', [id])).toBe(1);
  });

  it('answers 503 COMMIT_OUTCOME_UNKNOWN when the connection is reset right after COMMIT went out; the payment did commit, once', async () => {
    const { api, relay, A, B, session } = env;
    const note = `reset-${randomBytes(4).toString('hex')}`;
    const key = { 'idempotency-key': `unknown-payment-${note}` };
    const payment = { from: A, to: B, amountMinor: 250, note };
    const fired = relay.trapOnce(COMMIT_MESSAGE, 'reset');
    const res = await timed('payment', () => api.post(`/v1/sessions/${session}/payments`, payment, key).timeout({ deadline: 20000 }));
    expect(await Promise.race([fired.then(() => 'trap fired'), sleep(200).then(() => 'trap never fired')])).toBe('trap fired');
    expect({ status: res.status, code: res.code }).toEqual({ status: 503, code: 'COMMIT_OUTCOME_UNKNOWN' });
    expect(res.retryAfter).toMatch(/^\d+$/);
    // PostgreSQL got the COMMIT before the end of the stream: it commits, a moment after the app answered.
    await waitFor('the payment to commit', async () => (await env.count('payments WHERE note = $1', [note])) === 1, 5000, 20);

    const again = await api.post(`/v1/sessions/${session}/payments`, payment, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toMatchObject({ from: A, to: B, amountMinor: 250, note });
    expect(await env.count('payments WHERE note = $1', [note])).toBe(1);
  });

  it('answers 503 DATABASE_UNAVAILABLE when the connection goes silent before COMMIT; nothing is written and the retry records the game once', async () => {
    const { api, relay, A, B } = env;
    const id = await env.table();
    const key = { 'idempotency-key': `before-commit-${id}` };
    const batch = { actions: [double(A), take(B), finish(A, 'single')] };
    const fired = relay.trapOnce(BEGIN_MESSAGE, 'blackhole');
    const res = await timed('game', () => api.post(`/v1/money-games/${id}/games`, batch, key).timeout({ deadline: 20000 }));
    expect(await Promise.race([fired.then(() => 'trap fired'), sleep(200).then(() => 'trap never fired')])).toBe('trap fired');
    expect({ status: res.status, code: res.code, retryAfter: res.retryAfter }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: expect.stringMatching(/^\d+$/) });
    expect(res.ms).toBeLessThan(ANSWER_WITHIN_MS + MARGIN_MS);
    expect(await env.count('games WHERE table_id = $1', [id])).toBe(0);

    const again = await api.post(`/v1/money-games/${id}/games`, batch, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toMatchObject({ gameNo: 1, points: 2 });
    expect(await env.count('games WHERE table_id = $1', [id])).toBe(1);
    expect(await env.count('ledger_entries WHERE table_id = $1', [id])).toBe(1);
  });
});

describe('a database error logs which statement failed, never the values', () => {
  let app: RunningApp;
  let direct: Client;
  afterAll(async () => {
    await direct?.end().catch(() => undefined);
    if (app && app.proc.exitCode === null && app.proc.signalCode === null) await app.stop();
  });

  it('writes the request id and the SQLSTATE at trace level, and not the name, the note or the idempotency key', async () => {
    const db = await cloneDatabase();
    const token = `log-operator-${randomBytes(8).toString('hex')}`;
    app = await instance(db.appUrl, token, { LOG_LEVEL: 'trace' });
    direct = await pgClient(db.url);
    const club = await request(app.url).post('/v1/clubs').set(bearer(token)).send({ name: 'Log club' });
    const api = as(app.url, club.body.apiKey.token);
    const A = (await api.post('/v1/players', { name: 'Anna' })).body.id;
    const B = (await api.post('/v1/players', { name: 'Ben' })).body.id;
    const session = (await api.post('/v1/sessions', { name: 'Night' })).body.id;
    // The database breaks under the app: every new player and payment fails inside PostgreSQL.
    await direct.query(`CREATE FUNCTION broken() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'storage failure' USING ERRCODE = 'XX001'; END $$`);
    await direct.query('CREATE TRIGGER broken BEFORE INSERT ON players FOR EACH ROW EXECUTE FUNCTION broken()');
    await direct.query('CREATE TRIGGER broken BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION broken()');

    const secret = `Zebedee${randomBytes(6).toString('hex')}`;
    const idemKey = `idem${randomBytes(6).toString('hex')}`;
    const player = await api.post('/v1/players', { name: secret, nickname: `${secret}nick` }, { 'idempotency-key': idemKey });
    const pay = await api.post(`/v1/sessions/${session}/payments`, { from: A, to: B, amountMinor: 123456789, note: `${secret}note` });
    expect([player.status, pay.status]).toEqual([500, 500]);
    await sleep(300);
    const out = app.output();
    for (const res of [player, pay]) {
      const id = res.body.requestId as string;
      const lines = out.split('\n').filter((l) => l.includes(id));
      const failure = lines.find((l) => /XX001/.test(l));
      expect({ id, failure: failure !== undefined }).toEqual({ id, failure: true });
      expect(JSON.parse(failure!)).toMatchObject({ requestId: id, err: { sqlState: 'XX001', statement: expect.stringMatching(/INSERT/) } });
    }
    expect(out).not.toContain(secret);
    expect(out).not.toContain(idemKey);
    expect(out).not.toContain('123456789');
    expect(out).not.toMatch(/EXECUTE |VALUES \(/);
  });
});

describe('a connection that stopped answering is discarded, never reused', () => {
  let env: Awaited<ReturnType<typeof appBehindRelay>>;
  beforeAll(async () => {
    // One connection, and every request reads its API key from the database: a stuck
    // connection handed back to the pool would stall the very next request.
    env = await appBehindRelay({ DB_TIMEOUT_MS: '1000', DB_POOL_SIZE: '1', API_KEY_CACHE_SECONDS: '0' });
  }, 60000);
  afterAll(() => env?.close());

  it('answers 503 when a lookup outside any transaction goes unanswered, and the next request gets a fresh connection', async () => {
    const fired = env.relay.trapOnce(/FROM api_keys/, 'blackhole');
    const stuck = await timed('list', () => env.api.get('/v1/players?limit=1').timeout({ deadline: 20000 }));
    expect(await Promise.race([fired.then(() => 'trap fired'), sleep(200).then(() => 'trap never fired')])).toBe('trap fired');
    expect({ status: stuck.status, code: stuck.code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    expect(stuck.ms).toBeLessThan(ANSWER_WITHIN_MS);
    const next = await timed('list', () => env.api.get('/v1/players?limit=1').timeout({ deadline: 20000 }));
    expect({ status: next.status, fast: next.ms < 900 }).toEqual({ status: 200, fast: true });
  });

  it('answers 503 when a command goes unanswered inside its transaction, and the next command runs on a fresh connection', async () => {
    const { api, relay, A, B } = env;
    const id = await env.table();
    const batch = { actions: [double(A), take(B), finish(A, 'single')] };
    const fired = relay.trapOnce(BEGIN_MESSAGE, 'blackhole');
    const stuck = await timed('game', () => api.post(`/v1/money-games/${id}/games`, batch).timeout({ deadline: 20000 }));
    expect(await Promise.race([fired.then(() => 'trap fired'), sleep(200).then(() => 'trap never fired')])).toBe('trap fired');
    expect({ status: stuck.status, code: stuck.code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    const next = await timed('game', () => api.post(`/v1/money-games/${id}/games`, batch).timeout({ deadline: 20000 }));
    expect({ status: next.status, gameNo: next.body.gameNo, fast: next.ms < 900 }).toEqual({ status: 201, gameNo: 1, fast: true });
    expect(await env.count('games WHERE table_id = $1', [id])).toBe(1);
  });
});
