import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { migrate } from '../src/data-source';
import { ensureAppLogin, withCredentials } from '../src/db/roles';
import { bearer, cloneDatabase, RunningApp } from './support/app';
import { double, finish, take } from './support/club';
import { as, freePort, instance, pgClient, settle, sleep, tagged, waitFor } from './support/concurrency';
import { OwnPostgres, ownPostgres } from './support/pg-server';

/** One answer (or its absence) as the load saw it. */
interface Rec {
  kind: 'game' | 'player' | 'health';
  loop: number;
  started: number;
  ended: number;
  status: number; // 0: no answer (timeout, reset)
  contentType: string;
  body: Record<string, unknown>;
  text: string;
  error?: string;
  /** What was sent: the table and result for a game, the name for a player. */
  tableId?: string;
  name?: string;
  winner?: string;
}

const LOOPS = 8;
const STAKE = 100;
const DEADLINE_MS = 8000;
const FAST_MS = 5000;
const DOWN_MS = 3000;
const RECOVERY_MS = 10000;
const DB_NAME = 'bgfaults';
const ADMIN_TOKEN = 'faults-test-operator-token';

async function timed(kind: Rec['kind'], loop: number, send: () => PromiseLike<request.Response>, extra: Partial<Rec> = {}): Promise<Rec> {
  const started = Date.now();
  try {
    const res = await send();
    return { kind, loop, started, ended: Date.now(), status: res.status, contentType: String(res.headers['content-type'] ?? ''), body: res.body ?? {}, text: res.text, ...extra };
  } catch (e) {
    return { kind, loop, started, ended: Date.now(), status: 0, contentType: '', body: {}, text: '', error: String((e as Error).message ?? e), ...extra };
  }
}

const is2xx = (r: Rec) => r.status >= 200 && r.status < 300;

describe('the database stopped and restarted under load', () => {
  let dir: string;
  let server: OwnPostgres | null = null;
  let app: RunningApp | null = null;
  let dbUrl: string;
  let api: ReturnType<typeof as>;
  let A: string, B: string;
  let session: string;
  const tables: string[] = [];
  const recs: Rec[] = [];
  // When the server was asked to stop, had stopped, was asked to start, had started; when the app had recovered.
  let stopAsked = 0,
    down = 0,
    upAsked = 0,
    up = 0;
  let recovered: number | null = null;

  /** A few answers, each with what the app logged under its request id. */
  const explain = (rs: Rec[]) =>
    rs.slice(0, 3).map((r) => {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a problem body's requestId, a string
      const id = r.body.requestId ? String(r.body.requestId) : null;
      const log = id
        ? app!
            .output()
            .split('\n')
            .filter((l) => l.includes(id))
            .map((l) => l.slice(0, 1500))
        : [];
      const when = `${r.started - stopAsked} ms after the stop was asked`;
      return [`${r.kind} ${r.status} ${r.error ?? r.text.slice(0, 400)} in ${r.ended - r.started} ms, sent ${when}`, ...log];
    });

  beforeAll(async () => {
    // Its own embedded server (startEmbeddedPostgres, in a child process), whatever
    // DATABASE_URL says: this suite stops it.
    dir = mkdtempSync(join(tmpdir(), 'bgclub-faults-'));
    server = await ownPostgres(join(dir, 'pg'), await freePort());
    const admin = await pgClient(server.url('postgres'));
    await admin.query(`CREATE DATABASE "${DB_NAME}"`);
    await admin.end();
    dbUrl = server.url(DB_NAME);
    await migrate(dbUrl);
    // The app serves as a member of bgclub_app, as everywhere.
    await ensureAppLogin(dbUrl, 'bgtest_faults_app', 'faults-app-password');
    app = await instance(withCredentials(dbUrl, 'bgtest_faults_app', 'faults-app-password'), ADMIN_TOKEN);
    const url = app.url;

    const club = await request(url).post('/v1/clubs').set(bearer(ADMIN_TOKEN)).send({ name: 'Faults club' });
    if (club.status !== 201) throw new Error(`club: ${club.status} ${club.text}`);
    api = as(url, club.body.apiKey.token);
    A = (await api.post('/v1/players', { name: 'Anna' })).body.id;
    B = (await api.post('/v1/players', { name: 'Ben' })).body.id;
    session = (await api.post('/v1/sessions', { name: 'Stormy night' })).body.id;
    for (let i = 0; i < LOOPS; i++) {
      const t = await api.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: STAKE, rules: { jacoby: false } });
      if (t.status !== 201) throw new Error(`table: ${t.status} ${t.text}`);
      tables.push(t.body.id);
    }

    // The load: whole games on each loop's own table, new players, and /health.
    let running = true;
    const loop = async (i: number) => {
      for (let n = 1; running; n++) {
        const [winner, loser] = n % 2 ? [A, B] : [B, A];
        const actions = [double(loser), take(winner), finish(winner, n % 3 ? 'single' : 'gammon')];
        const game = await timed('game', i, () => api.post(`/v1/money-games/${tables[i]}/games`, { actions }).timeout({ deadline: DEADLINE_MS }), {
          tableId: tables[i],
          winner,
        });
        const name = `L${i}-${n}`;
        const added = await timed('player', i, () => api.post('/v1/players', { name }).timeout({ deadline: DEADLINE_MS }), { name });
        recs.push(game, added);
        // A client backs off a little after a failure.
        if (!is2xx(game) || !is2xx(added)) await sleep(25);
      }
    };
    const health = async () => {
      while (running) {
        recs.push(await timed('health', -1, () => request(url).get('/health').timeout({ deadline: DEADLINE_MS })));
        await sleep(100);
      }
    };
    const load = Promise.all([...tables.map((_, i) => loop(i)), health()]);
    try {
      await sleep(1500);
      stopAsked = Date.now();
      await server.stop();
      down = Date.now();
      await sleep(DOWN_MS);
      upAsked = Date.now();
      await server.start();
      up = Date.now();
      // Recovered by itself: games, players and /health succeed again, with no restart of the app.
      recovered = await waitFor(
        'the app to recover',
        () => {
          const after = recs.filter((r) => r.started >= up);
          const back = after.some((r) => r.kind === 'game' && is2xx(r)) && after.some((r) => r.kind === 'player' && is2xx(r)) && after.some((r) => r.kind === 'health' && r.status === 200);
          return Promise.resolve(back ? Date.now() : null);
        },
        RECOVERY_MS,
        25,
      ).catch(() => null);
      await sleep(1000);
    } finally {
      running = false;
      await load;
    }
    const took = (a: number, b: number) => `${b - a} ms`;
    console.log(
      `[faults] stop ${took(stopAsked, down)}, start ${took(upAsked, up)}, recovered ${recovered ? took(up, recovered) : 'never'} after start; ` +
        `${recs.length} requests: ${recs.filter(is2xx).length} 2xx, ${recs.filter((r) => r.status === 503).length} 503, ` +
        `${recs.filter((r) => r.status === 500).length} 500, ${recs.filter((r) => r.status === 0).length} unanswered; ` +
        `slowest ${Math.max(...recs.map((r) => r.ended - r.started))} ms`,
    );
  }, 60000);

  afterAll(async () => {
    if (app && app.proc.exitCode === null && app.proc.signalCode === null) await app.stop().catch(() => undefined);
    await server?.close().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every request with a 2xx or a 503, never a 500, never nothing', () => {
    expect(recs.filter((r) => r.kind === 'game' && is2xx(r) && r.ended < stopAsked).length).toBeGreaterThan(LOOPS);
    expect(explain(recs.filter((r) => !(is2xx(r) || r.status === 503)))).toEqual([]);
  });

  it(`answers every request within ${FAST_MS / 1000} s, even while the database is gone`, () => {
    expect(explain(recs.filter((r) => r.ended - r.started >= FAST_MS))).toEqual([]);
  });

  it('answers 503 DATABASE_UNAVAILABLE (or DATABASE_BUSY, or COMMIT_OUTCOME_UNKNOWN when the server went away after COMMIT was sent) as problem+json while the server is down', () => {
    const whileDown = recs.filter((r) => r.started >= down && r.ended <= upAsked);
    expect(whileDown.filter((r) => r.kind === 'game').length).toBeGreaterThan(LOOPS);
    expect(whileDown.filter((r) => r.kind === 'player').length).toBeGreaterThan(LOOPS);
    expect(explain(whileDown.filter((r) => r.kind !== 'health' && r.status !== 503))).toEqual([]);
    const bad = recs.filter(
      (r) =>
        r.status === 503 &&
        r.kind !== 'health' &&
        (!/^application\/problem\+json/.test(r.contentType) ||
          !['DATABASE_UNAVAILABLE', 'DATABASE_BUSY', 'COMMIT_OUTCOME_UNKNOWN'].includes(r.body.code as string) ||
          r.body.status !== 503 ||
          /SELECT|INSERT|ECONNREFUSED|at .*\.js/.test(r.text)),
    );
    expect(explain(bad)).toEqual([]);
  });

  it('/health reports the database down, then up again', () => {
    const whileDown = recs.filter((r) => r.kind === 'health' && r.started >= down && r.ended <= upAsked);
    expect(whileDown.length).toBeGreaterThan(5);
    for (const h of whileDown) {
      expect(h.status).toBe(503);
      expect(h.body).toEqual({ status: 'unavailable', database: 'down' });
    }
    const before = recs.filter((r) => r.kind === 'health' && r.ended < stopAsked);
    expect(before.length).toBeGreaterThan(0);
    for (const h of before) expect(h.body).toEqual({ status: 'ok', database: 'up' });
    const after = recs.filter((r) => r.kind === 'health' && recovered !== null && r.started >= recovered);
    expect(after.length).toBeGreaterThan(0);
    for (const h of after) {
      expect(h.status).toBe(200);
      expect(h.body).toEqual({ status: 'ok', database: 'up' });
    }
  });

  it(`recovers by itself within ${RECOVERY_MS / 1000} s of the restart, and stays up`, () => {
    expect(recovered).not.toBeNull();
    expect(recovered! - up).toBeLessThan(RECOVERY_MS);
    expect(app!.proc.exitCode).toBeNull();
    expect(explain(recs.filter((r) => r.started >= recovered! && !is2xx(r)))).toEqual([]);
  });

  describe('afterwards', () => {
    let db: Client;
    beforeAll(async () => {
      db = await pgClient(dbUrl);
    });
    afterAll(() => db?.end());

    it('keeps every acknowledged game, numbered without gaps, none twice', async () => {
      for (const tableId of tables) {
        const mine = recs.filter((r) => r.kind === 'game' && r.tableId === tableId);
        const acked = mine.filter(is2xx);
        const ackedNos = acked.map((r) => r.body.gameNo as number);
        expect(new Set(ackedNos).size).toBe(ackedNos.length);

        const games = (await db.query<{ game_no: number; status: string }>('SELECT game_no, status FROM games WHERE table_id = $1 ORDER BY game_no', [tableId])).rows;
        // 1..N without gaps, every acknowledged game among them, at most one per request sent.
        expect(games.map((g) => g.game_no)).toEqual(games.map((_, k) => k + 1));
        expect(Math.max(0, ...ackedNos)).toBeLessThanOrEqual(games.length);
        expect(games.length).toBeGreaterThanOrEqual(acked.length);
        expect(games.length).toBeLessThanOrEqual(mine.length);
        expect(games.filter((g) => g.status !== 'finished')).toEqual([]);
        const [row] = (await db.query('SELECT next_game_no, current_game_no FROM game_tables WHERE id = $1', [tableId])).rows;
        expect(row).toEqual({ next_game_no: games.length + 1, current_game_no: null });

        // The API shows what was acknowledged.
        const listed: Array<Record<string, unknown>> = [];
        for (let cursor: string | null = ''; cursor !== null;) {
          const page = await api.get(`/v1/money-games/${tableId}/games?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          expect(page.status).toBe(200);
          listed.push(...page.body.items);
          cursor = page.body.nextCursor;
        }
        expect(listed.map((g) => g.gameNo)).toEqual(games.map((g) => g.game_no));
        for (const r of acked) {
          const g = listed[(r.body.gameNo as number) - 1];
          expect(g).toMatchObject({ gameNo: r.body.gameNo, status: 'finished', points: r.body.points, payouts: r.body.payouts, result: r.body.result });
          expect((g.result as { winner: string }).winner).toBe(r.winner);
        }
      }
      // The games acknowledged around the outage, one by one (JSON equal: jsonb keeps its own key order).
      const near = recs.filter((r) => r.kind === 'game' && is2xx(r) && r.ended >= stopAsked - 500 && r.started <= up + 500);
      for (const r of near) {
        const g = await api.get(`/v1/money-games/${r.tableId}/games/${r.body.gameNo as number}`);
        expect(g.status).toBe(200);
        expect(g.body).toEqual(r.body);
      }
    });

    it('recorded nothing it answered DATABASE_UNAVAILABLE or DATABASE_BUSY to: only an unknown outcome may have committed', async () => {
      const refused = (r: Rec) => r.status === 503 && r.body.code !== 'COMMIT_OUTCOME_UNKNOWN';
      const unknown = (r: Rec) => r.status === 503 && r.body.code === 'COMMIT_OUTCOME_UNKNOWN';
      const refusedNames = recs.filter((r) => r.kind === 'player' && refused(r)).map((r) => r.name as string);
      expect(refusedNames.length).toBeGreaterThan(0);
      const found = (await db.query<{ name: string }>('SELECT name FROM players WHERE name = ANY($1)', [refusedNames])).rows;
      expect(found).toEqual([]);
      for (const tableId of tables) {
        const mine = recs.filter((r) => r.kind === 'game' && r.tableId === tableId);
        const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM games WHERE table_id = $1', [tableId])).rows;
        expect(n).toBeLessThanOrEqual(mine.filter(is2xx).length + mine.filter(unknown).length);
      }
    });

    it('has no half-written game: every finished game has its entry, every entry its game, and they sum to zero', async () => {
      const entries = (
        await db.query<{ table_id: string; game_no: number; from_party: string; to_party: string; amount_minor: string; kind: string }>(
          'SELECT table_id, game_no, from_party, to_party, amount_minor, kind FROM ledger_entries WHERE session_id = $1',
          [session],
        )
      ).rows;
      const games = (
        await db.query<{ table_id: string; game_no: number; points: number; actions: Array<{ type: string; winner?: string }> }>(
          `SELECT table_id, game_no, points, actions FROM games WHERE table_id = ANY($1::uuid[]) AND status = 'finished'`,
          [tables],
        )
      ).rows;
      const byGame = new Map<string, typeof entries>();
      for (const e of entries) byGame.set(`${e.table_id}/${e.game_no}`, [...(byGame.get(`${e.table_id}/${e.game_no}`) ?? []), e]);
      expect(byGame.size).toBe(games.length);
      for (const g of games) {
        const winner = g.actions.find((a) => a.type === 'finish')!.winner!;
        const loser = winner === A ? B : A;
        const mine = byGame.get(`${g.table_id}/${g.game_no}`) ?? [];
        expect(mine.map((e) => ({ from: e.from_party, to: e.to_party, amount: Number(e.amount_minor), kind: e.kind }))).toEqual([
          { from: loser, to: winner, amount: STAKE * g.points, kind: 'game' },
        ]);
      }
      const net: Record<string, number> = {};
      for (const e of entries) {
        net[e.to_party] = (net[e.to_party] ?? 0) + Number(e.amount_minor);
        net[e.from_party] = (net[e.from_party] ?? 0) - Number(e.amount_minor);
      }
      expect(Object.values(net).reduce((a, b) => a + b, 0)).toBe(0);
      const settlement = await api.get(`/v1/sessions/${session}/settlement`);
      expect(settlement.status).toBe(200);
      expect(settlement.body.totalMinor).toBe(0);
      const nets = Object.fromEntries(settlement.body.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]));
      expect(nets).toEqual({ [A]: net[A] ?? 0, [B]: net[B] ?? 0 });
    });

    it('keeps every acknowledged player, none twice, none that was not asked for', async () => {
      const players = (await db.query<{ id: string; name: string }>(`SELECT id, name FROM players WHERE name LIKE 'L%-%'`)).rows;
      const byName = new Map<string, string[]>();
      for (const p of players) byName.set(p.name, [...(byName.get(p.name) ?? []), p.id]);
      expect([...byName.entries()].filter(([, ids]) => ids.length > 1)).toEqual([]);
      const asked = new Set(recs.filter((r) => r.kind === 'player').map((r) => r.name));
      expect(players.filter((p) => !asked.has(p.name))).toEqual([]);
      const acked = recs.filter((r) => r.kind === 'player' && is2xx(r));
      expect(acked.length).toBeGreaterThan(LOOPS);
      for (const r of acked) expect(byName.get(r.name!)).toEqual([r.body.id]);
      for (const r of acked.filter((x) => x.ended >= stopAsked - 500 && x.started <= up + 500)) {
        const p = await api.get(`/v1/players/${r.body.id as string}`);
        expect(p.status).toBe(200);
        expect(p.body).toMatchObject({ id: r.body.id, name: r.name });
      }
    });
  });
});

describe('a connection lost between two queries of one command', () => {
  it('answers 503 DATABASE_UNAVAILABLE, writes nothing, and the next request succeeds', async () => {
    // The app's backend is killed while its transaction sits idle between two queries:
    // the app is paused (SIGSTOP) while its lock wait ends, the backend is terminated,
    // then the app resumes and reads the query's answer and the termination together.
    const db = await cloneDatabase();
    const name = `between-${process.pid}-${Date.now()}`;
    const token = 'between-queries-operator-token';
    const app = await instance(tagged(db.appUrl, name), token);
    const holder = await pgClient(db.url);
    // Polls from outside the holder's transaction (pg_stat_activity is read once per transaction).
    const watch = await pgClient(db.url);
    try {
      const club = await request(app.url).post('/v1/clubs').set(bearer(token)).send({ name: 'Between club' });
      const api = as(app.url, club.body.apiKey.token);
      const A = (await api.post('/v1/players', { name: 'Anna' })).body.id;
      const B = (await api.post('/v1/players', { name: 'Ben' })).body.id;
      const session = (await api.post('/v1/sessions', { name: 'Night' })).body.id;
      const id = (await api.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 100 })).body.id;
      const batch = { actions: [double(A), take(B), finish(A, 'single')] };

      await holder.query('BEGIN');
      await holder.query('SELECT id FROM game_tables WHERE id = $1 FOR UPDATE', [id]);
      const sent = settle(api.post(`/v1/money-games/${id}/games`, batch).timeout({ deadline: 20000 }));
      const pid = await waitFor('the app to wait on the table lock', async () => {
        const rows = (await watch.query(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = $1`, [name])).rows;
        return rows.length === 1 ? (rows[0].pid as number) : null;
      });
      app.proc.kill('SIGSTOP');
      try {
        await holder.query('COMMIT');
        await waitFor('the backend to hold the lock, idle in its transaction', async () => {
          const rows = (await watch.query('SELECT state FROM pg_stat_activity WHERE pid = $1', [pid])).rows;
          return rows[0]?.state === 'idle in transaction';
        });
        await watch.query('SELECT pg_terminate_backend($1)', [pid]);
        await waitFor('the backend to end', async () => (await watch.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 0);
      } finally {
        app.proc.kill('SIGCONT');
      }
      const { res, error } = await sent;
      expect(error).toBeUndefined();
      // Nothing was written, and the app goes on.
      expect((await watch.query('SELECT count(*)::int AS n FROM games WHERE table_id = $1', [id])).rows[0].n).toBe(0);
      expect((await watch.query('SELECT count(*)::int AS n FROM ledger_entries WHERE table_id = $1', [id])).rows[0].n).toBe(0);
      const again = await api.post(`/v1/money-games/${id}/games`, batch);
      expect(again.status).toBe(201);
      expect(again.body.gameNo).toBe(1);

      const log = app
        .output()
        .split('\n')
        .filter((l) => res!.body.requestId && l.includes(res!.body.requestId))
        .map((l) => l.slice(0, 600));
      expect({ status: res!.status, code: res!.body.code, log: res!.status === 503 ? [] : log }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE', log: [] });
      expect(res!.headers['content-type']).toMatch(/^application\/problem\+json/);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await watch.end();
      if (app.proc.exitCode === null && app.proc.signalCode === null) await app.stop();
    }
  });
});
