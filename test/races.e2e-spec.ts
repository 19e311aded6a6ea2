import { Client } from 'pg';
import request from 'supertest';
import { RunningApp, startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { as, instance, pgClient, settle, tagged, waitFor } from './support/concurrency';

type Res = request.Response;
type Api = ReturnType<typeof as>;

/** What a game looks like to a client, without the clock. */
function shape(g: Record<string, unknown>) {
  const { startedAt: _s, endedAt: _e, actions, ...rest } = g as { startedAt: unknown; endedAt: unknown; actions: Array<Record<string, unknown>> };
  return { ...rest, actions: actions.map(({ at: _at, ...a }) => a) };
}

/** A session's ledger as (game, from, to, amount, kind), in order. */
async function ledgerOf(api: Api, sessionId: string) {
  const res = await api.get(`/v1/sessions/${sessionId}/ledger?limit=200`);
  expect(res.status).toBe(200);
  expect(res.body.nextCursor).toBeNull();
  return (res.body.items as Array<{ gameRef: { tableId: string; gameNo: number }; from: string; to: string; amountMinor: number; kind: string }>).map((e) => ({
    tableId: e.gameRef.tableId,
    gameNo: e.gameRef.gameNo,
    from: e.from,
    to: e.to,
    amountMinor: e.amountMinor,
    kind: e.kind,
  }));
}

const statuses = (rs: Res[]) => rs.map((r) => r.status).sort();
const codes = (rs: Res[]) => [...new Set(rs.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.body.code}`))].sort();

describe('races: one winner, the state of a single scorer', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string;
  let main: Api;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben']);
    ({ Anna: A, Ben: B } = c.ids);
    main = as(t.url, c.owner);
  });
  afterAll(() => t.close());

  /** A fresh session (rake on, so a game posts more than one entry) and one money table in it. */
  const freshTable = async (api: Api = main) => {
    const session = await c.session({ rakePercent: 2.5 });
    const res = await api.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 100, rules: { jacoby: false } });
    expect(res.status).toBe(201);
    return { session, id: res.body.id as string };
  };

  /** The same game played by one scorer, one request at a time: the reference every race must reach. */
  const reference = async (steps: object[][]) => {
    const { session, id } = await freshTable();
    const out: Array<Record<string, unknown>> = [];
    for (const [i, step] of steps.entries()) {
      const res = i === 0 ? await main.post(`/v1/money-games/${id}/games`, { actions: step }) : await main.post(`/v1/money-games/${id}/games/1/actions`, step[0]);
      expect(res.status).toBe(i === 0 ? 201 : 200);
      out.push(shape(res.body));
    }
    return { session, id, states: out, table: (await main.get(`/v1/money-games/${id}`)).body };
  };

  it('20 scorers send the same double at once: one 200, the others refused (R2.6), one double recorded', async () => {
    const scorers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const key = await c.post('/v1/api-keys', { name: `Tablet ${i}`, role: 'scorer' });
      expect(key.status).toBe(201);
      scorers.push(key.body.token);
    }
    const ref = await reference([[], [double(A)]]);
    const { id } = await freshTable();
    expect((await main.post(`/v1/money-games/${id}/games`)).status).toBe(201);

    const results = await Promise.all(scorers.map((token) => as(t.url, token).post(`/v1/money-games/${id}/games/1/actions`, double(A))));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const lost = results.filter((r) => r.status !== 200);
    expect(lost.every((r) => r.status === 409 || (r.status === 422 && r.body.code === 'OFFER_PENDING' && r.body.rule === 'R2.6'))).toBe(true);
    expect(lost.every((r) => /^application\/problem\+json/.test(r.headers['content-type']))).toBe(true);

    const game = await main.get(`/v1/money-games/${id}/games/1`);
    expect(game.body.actions).toHaveLength(1);
    expect(game.body.actions[0]).toMatchObject({ seq: 1, type: 'double', by: A });
    expect(game.body.cubes).toEqual([{ member: null, value: 1, owner: null, status: 'in-play', pending: { by: A, value: 2, kind: 'double' } }]);
    expect(shape(won[0].body)).toEqual(ref.states[1]);
    expect(shape(game.body)).toEqual(ref.states[1]);
    const dbActions = await t.sql<{ n: number }>(`SELECT jsonb_array_length(actions) AS n FROM games WHERE table_id = $1`, [id]);
    expect(dbActions).toEqual([{ n: 1 }]);
  });

  it('15 starts race on one table: one 201, the others 422 GAME_IN_PROGRESS (R6.8) or 409', async () => {
    const { id } = await freshTable();
    const results = await Promise.all(Array.from({ length: 15 }, () => main.post(`/v1/money-games/${id}/games`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const lost = results.filter((r) => r.status !== 201);
    expect(lost.every((r) => r.status === 409 || (r.status === 422 && r.body.code === 'GAME_IN_PROGRESS' && r.body.rule === 'R6.8'))).toBe(true);
    const table = await main.get(`/v1/money-games/${id}`);
    expect(table.body.games).toHaveLength(1);
    const rows = await t.sql<{ next_game_no: number; current_game_no: number }>('SELECT next_game_no, current_game_no FROM game_tables WHERE id = $1', [id]);
    expect(rows).toEqual([{ next_game_no: 2, current_game_no: 1 }]);
  });

  describe('two app instances on one database', () => {
    let second: RunningApp;
    let other: Api;

    beforeAll(async () => {
      second = await instance(t.appDbUrl, t.adminToken);
      other = as(second.url, c.owner);
    });
    afterAll(() => second?.stop());

    /** Ten copies of one command, alternating between the two instances, all at once. */
    const race = (send: (api: Api) => PromiseLike<Res>) => Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 === 0 ? main : other)));

    it('start, double, take and finish each raced 10 times across both: one winner each, one game of money', async () => {
      const steps = [[], [double(A)], [take(B)], [finish(A, 'gammon')]];
      const ref = await reference(steps);
      const { session, id } = await freshTable();

      const starts = await race((api) => api.post(`/v1/money-games/${id}/games`));
      expect(statuses(starts).filter((s) => s === 201)).toHaveLength(1);
      expect(codes(starts).every((k) => k === '422 GAME_IN_PROGRESS' || k.startsWith('409 '))).toBe(true);

      const doubles = await race((api) => api.post(`/v1/money-games/${id}/games/1/actions`, double(A)));
      expect(statuses(doubles).filter((s) => s === 200)).toHaveLength(1);
      expect(codes(doubles).every((k) => k === '422 OFFER_PENDING' || k.startsWith('409 '))).toBe(true);

      const takes = await race((api) => api.post(`/v1/money-games/${id}/games/1/actions`, take(B)));
      expect(statuses(takes).filter((s) => s === 200)).toHaveLength(1);
      expect(codes(takes).every((k) => k === '422 NO_OFFER_PENDING' || k.startsWith('409 '))).toBe(true);

      const finishes = await race((api) => api.post(`/v1/money-games/${id}/games/1/actions`, finish(A, 'gammon')));
      expect(statuses(finishes).filter((s) => s === 200)).toHaveLength(1);
      expect(codes(finishes).every((k) => k === '422 GAME_FINISHED' || k.startsWith('409 '))).toBe(true);

      // Each winner answered what the single scorer saw at that step.
      const winners = [starts, doubles, takes, finishes].map((rs) => shape(rs.find((r) => r.status < 300)!.body));
      expect(winners).toEqual(ref.states);

      // One game's entries, exactly those of the single scorer's game: 4 points × 100, 2.5 % rake.
      const ledger = await ledgerOf(main, session);
      const refLedger = await ledgerOf(main, ref.session);
      expect(ledger.map(({ tableId: _t, ...e }) => e)).toEqual(refLedger.map(({ tableId: _t, ...e }) => e));
      expect(ledger).toEqual([
        { tableId: id, gameNo: 1, from: B, to: A, amountMinor: 400, kind: 'game' },
        { tableId: id, gameNo: 1, from: A, to: 'house', amountMinor: 10, kind: 'rake' },
      ]);
      expect(await ledgerOf(other, session)).toEqual(ledger);

      // Both instances show the same table and game, and it is the single scorer's.
      const [fromMain, fromOther] = await Promise.all([main.get(`/v1/money-games/${id}`), other.get(`/v1/money-games/${id}`)]);
      expect(fromMain.status).toBe(200);
      expect(fromOther.text).toBe(fromMain.text);
      expect(fromMain.body.netMinor).toEqual(ref.table.netMinor);
      expect(fromMain.body.games).toHaveLength(1);
      const [g1, g2] = await Promise.all([main.get(`/v1/money-games/${id}/games/1`), other.get(`/v1/money-games/${id}/games/1`)]);
      expect(g2.text).toBe(g1.text);
      expect(shape(g1.body)).toEqual(ref.states[3]);
    });

    it('whole-game batches raced across both instances: one game, the next start waits for nothing', async () => {
      const { session, id } = await freshTable();
      const batch = { actions: [double(B), take(A), finish(B, 'single')] };
      const results = await race((api) => api.post(`/v1/money-games/${id}/games`, batch));
      // A finished batch leaves no game in progress, so every one of them may win, one after another.
      expect(statuses(results).every((s) => s === 201)).toBe(true);
      expect(results.map((r) => r.body.gameNo).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const ledger = await ledgerOf(other, session);
      expect(ledger).toHaveLength(20);
      for (let n = 1; n <= 10; n++) {
        expect(ledger.filter((e) => e.gameNo === n).map(({ from, to, amountMinor, kind }) => ({ from, to, amountMinor, kind }))).toEqual([
          { from: A, to: B, amountMinor: 200, kind: 'game' },
          { from: B, to: 'house', amountMinor: 5, kind: 'rake' },
        ]);
      }
      expect((await main.get(`/v1/money-games/${id}`)).text).toBe((await other.get(`/v1/money-games/${id}`)).text);
    });
  });

  describe('Idempotency-Key under concurrency', () => {
    const batch = () => ({ actions: [double(A), take(B), finish(A, 'single')] });

    it('the same key sent 10 times at once for a whole game records one game', async () => {
      const { session, id } = await freshTable();
      const key = { 'idempotency-key': `burst-${id}` };
      const results = await Promise.all(Array.from({ length: 10 }, () => main.post(`/v1/money-games/${id}/games`, batch(), key)));
      expect(results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'IDEMPOTENCY_KEY_IN_FLIGHT'))).toBe(true);
      const created = results.filter((r) => r.status === 201);
      const fresh = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(fresh).toHaveLength(1);
      expect(created.filter((r) => r !== fresh[0]).every((r) => r.headers['idempotent-replayed'] === 'true')).toBe(true);
      expect(new Set(created.map((r) => r.text)).size).toBe(1);
      expect(fresh[0].body).toMatchObject({ gameNo: 1, status: 'finished', points: 2 });

      expect((await main.get(`/v1/money-games/${id}`)).body.games).toHaveLength(1);
      expect(await ledgerOf(main, session)).toEqual([
        { tableId: id, gameNo: 1, from: B, to: A, amountMinor: 200, kind: 'game' },
        { tableId: id, gameNo: 1, from: A, to: 'house', amountMinor: 5, kind: 'rake' },
      ]);

      const again = await main.post(`/v1/money-games/${id}/games`, batch(), key);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(fresh[0].text);
      expect((await main.get(`/v1/money-games/${id}`)).body.games).toHaveLength(1);
    });

    it('a crash between claim and commit leaves nothing: the retry runs once, then replays', async () => {
      const { session, id } = await freshTable();
      const key = { 'idempotency-key': `crash-${id}` };
      const name = `crash-${process.pid}-${Date.now()}`;
      const doomed = await instance(tagged(t.appDbUrl, name), t.adminToken);
      const holder: Client = await pgClient(t.dbUrl);
      let sent: Promise<{ res?: Res; error?: Error }> | undefined;
      try {
        // Hold the row every game command locks, so the app stalls after claiming the key.
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM game_tables WHERE id = $1 FOR UPDATE', [id]);
        sent = settle(as(doomed.url, c.owner).post(`/v1/money-games/${id}/games`, batch(), key));

        const waiting = await waitFor('the app to wait on the table lock', async () => {
          const rows = await t.sql<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND application_name = $1`, [name]);
          return rows.length === 1 ? rows[0].pid : null;
        });
        // It has claimed the key: it holds the advisory lock while it waits.
        const advisory = await t.sql(`SELECT 1 FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND granted`, [waiting]);
        expect(advisory).toHaveLength(1);
        // A second instance sees the key in flight.
        const inFlight = await main.post(`/v1/money-games/${id}/games`, batch(), key);
        expect(inFlight.status).toBe(409);
        expect(inFlight.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');

        await doomed.stop('SIGKILL');
        expect(doomed.proc.signalCode).toBe('SIGKILL');
        await holder.query('COMMIT');
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
        // (RunningApp.stop would wait forever for a process that has already died of a signal.)
        if (doomed.proc.exitCode === null && doomed.proc.signalCode === null) await doomed.stop('SIGKILL');
      }
      const lost = await sent;
      expect(lost.res).toBeUndefined();
      expect(lost.error).toBeDefined();

      // PostgreSQL notices the dead client and rolls its transaction back.
      await waitFor("the killed app's backends to end", async () => {
        const rows = await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [name]);
        return rows[0].n === 0;
      });
      expect(await t.sql(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key['idempotency-key']])).toEqual([]);
      expect(await t.sql(`SELECT 1 FROM games WHERE table_id = $1`, [id])).toEqual([]);
      expect(await t.sql(`SELECT 1 FROM ledger_entries WHERE table_id = $1`, [id])).toEqual([]);

      const revived = await instance(t.appDbUrl, t.adminToken);
      try {
        const api = as(revived.url, c.owner);
        const retry = await api.post(`/v1/money-games/${id}/games`, batch(), key);
        expect(retry.status).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
        expect(retry.body).toMatchObject({ gameNo: 1, status: 'finished', points: 2 });

        const replay = await api.post(`/v1/money-games/${id}/games`, batch(), key);
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.text).toBe(retry.text);

        expect((await api.get(`/v1/money-games/${id}`)).body.games).toHaveLength(1);
        expect(await ledgerOf(api, session)).toEqual([
          { tableId: id, gameNo: 1, from: B, to: A, amountMinor: 200, kind: 'game' },
          { tableId: id, gameNo: 1, from: A, to: 'house', amountMinor: 5, kind: 'rake' },
        ]);
      } finally {
        await revived.stop();
      }
    });
  });
});
