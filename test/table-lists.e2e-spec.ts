import { Client } from 'pg';
import request from 'supertest';
import { cloneDatabase, startProcess, TestApp } from './support/app';
import { clubWith, finish } from './support/club';
import { Relay } from './support/relay';
import { StatementLog } from './support/statement-log';

/**
 * The table lists (GET /v1/matches, /v1/money-games, /v1/chouettes) and their single GETs:
 * each page is one statement, whatever its size and filter, and the filters (status,
 * playerId, sessionId, in any combination) answer exactly the tables they name, in id
 * order, page after page, as tables finish, reopen and gain players.
 */
describe('table lists', () => {
  let t: TestApp;
  let relay: Relay;
  let log: StatementLog;
  let c: Awaited<ReturnType<typeof clubWith>>;

  beforeAll(async () => {
    // The app talks to PostgreSQL through a relay that reads the statements it sends.
    const db = await cloneDatabase();
    const target = new URL(db.appUrl);
    relay = new Relay({ host: target.hostname, port: Number(target.port) });
    const viaRelay = new URL(db.appUrl);
    viaRelay.port = String(await relay.open());
    log = new StatementLog(relay);
    const adminToken = 'table-lists-operator-token';
    const app = await startProcess({
      DATABASE_URL: viaRelay.toString(),
      ADMIN_TOKEN: adminToken,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT: '0',
      OPERATOR_RATE_LIMIT: '0',
    });
    const client = new Client({ connectionString: db.url });
    await client.connect();
    t = {
      url: app.url,
      adminToken,
      dbUrl: db.url,
      appDbUrl: db.appUrl,
      http: () => request(app.url),
      sql: async (text, params) => (await client.query(text, params as unknown[])).rows,
      app,
      close: async () => {
        await client.end().catch(() => undefined);
        await app.stop();
        await relay.cut();
      },
    };
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan']);
  });
  afterAll(() => t.close());

  const ok = async (res: Promise<request.Response>, status = 201) => {
    const r = await res;
    expect({ status: r.status, body: r.body }).toMatchObject({ status });
    return r.body;
  };

  /** Every page of a list, following its cursors: the ids of each page. */
  const pages = async (path: string): Promise<string[][]> => {
    const out: string[][] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await c.get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
      expect(res.status).toBe(200);
      out.push(res.body.items.map((x: { id: string }) => x.id));
      cursor = res.body.nextCursor;
    } while (cursor && out.length < 20);
    return out;
  };
  const ids = async (path: string) => (await pages(path)).flat();

  let S1: string;
  let S2: string;
  const m: Record<string, string> = {};
  const money: Record<string, string> = {};
  let chouette: string;

  it('builds tables that finish, reopen and gain players', async () => {
    const { Anna: A, Ben: B, Cleo: C, Dan: D } = c.ids;
    S1 = await c.session();
    S2 = await c.session({ name: 'Second night' });
    const match = async (sides: string[][], target: number, sessionId?: string) => (await ok(c.post('/v1/matches', { sides, target, ...(sessionId ? { sessionId } : {}) }))).id as string;
    m.m1 = await match([[A], [B]], 1, S1);
    m.m2 = await match([[A], [C]], 3, S2);
    m.m3 = await match([[B], [C]], 1);
    m.m4 = await match([[A], [D]], 1);
    m.m5 = await match([[C], [D]], 1, S1);
    // m1, m4 and m5 finish with their first game; voiding m4's reopens it.
    for (const id of [m.m1, m.m4, m.m5]) expect((await ok(c.post(`/v1/matches/${id}/games`, { actions: [finish(id === m.m5 ? C : A)] }))).status).toBe('finished');
    expect((await c.get(`/v1/matches/${m.m1}`)).body.status).toBe('finished');
    await ok(c.post(`/v1/matches/${m.m4}/games/1/void`, { reason: 'Wrong players' }), 200);
    expect((await c.get(`/v1/matches/${m.m4}`)).body.status).toBe('in-progress');

    // A money table stopped at its lead (R4.4), and one still running.
    money.stopped = (await ok(c.post('/v1/money-games', { sessionId: S1, players: [A, B], stakeMinor: 100, rules: { stopAtLead: 1 } }))).id;
    money.running = (await ok(c.post('/v1/money-games', { sessionId: S2, players: [B, C], stakeMinor: 100 }))).id;
    await ok(c.post(`/v1/money-games/${money.stopped}/games`, { actions: [finish(A)] }));
    expect((await c.get(`/v1/money-games/${money.stopped}`)).body.status).toBe('finished');

    // A chouette Dan joins between games.
    chouette = (await ok(c.post('/v1/chouettes', { sessionId: S2, stakeMinor: 100, seating: { order: [A, B, C] } }))).id;
    await ok(c.post(`/v1/chouettes/${chouette}/players`, { playerId: D }));

    // Every table's players carry its kind and status as they now are.
    const drift = await t.sql(
      `SELECT tp.table_id, tp.kind, tp.status, t.kind AS table_kind, t.status AS table_status
         FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
        WHERE tp.kind <> t.kind OR tp.status <> t.status`,
    );
    expect(drift).toEqual([]);
  });

  it('filters matches by status, player and session, in any combination, with exact ids in order', async () => {
    const { Anna: A, Ben: B, Cleo: C, Dan: D } = c.ids;
    expect(await ids('/v1/matches')).toStrictEqual([m.m1, m.m2, m.m3, m.m4, m.m5]);
    expect(await ids('/v1/matches?status=finished')).toStrictEqual([m.m1, m.m5]);
    expect(await ids('/v1/matches?status=in-progress')).toStrictEqual([m.m2, m.m3, m.m4]);
    expect(await ids(`/v1/matches?playerId=${A}`)).toStrictEqual([m.m1, m.m2, m.m4]);
    expect(await ids(`/v1/matches?playerId=${A}&status=finished`)).toStrictEqual([m.m1]);
    expect(await ids(`/v1/matches?playerId=${A}&status=in-progress`)).toStrictEqual([m.m2, m.m4]);
    expect(await ids(`/v1/matches?playerId=${D}&status=finished`)).toStrictEqual([m.m5]);
    expect(await ids(`/v1/matches?playerId=${B}`)).toStrictEqual([m.m1, m.m3]);
    expect(await ids(`/v1/matches?sessionId=${S1}`)).toStrictEqual([m.m1, m.m5]);
    expect(await ids(`/v1/matches?sessionId=${S1}&status=in-progress`)).toStrictEqual([]);
    expect(await ids(`/v1/matches?sessionId=${S1}&playerId=${C}`)).toStrictEqual([m.m5]);
    expect(await ids(`/v1/matches?sessionId=${S2}&playerId=${A}&status=in-progress`)).toStrictEqual([m.m2]);
    expect(await ids(`/v1/matches?sessionId=${S2}&playerId=${B}`)).toStrictEqual([]);
  });

  it('pages a filter in id order, each status merged, the last page without a cursor', async () => {
    const A = c.ids.Anna;
    expect(await pages(`/v1/matches?playerId=${A}&limit=1`)).toStrictEqual([[m.m1], [m.m2], [m.m4]]);
    expect(await pages(`/v1/matches?playerId=${A}&limit=2`)).toStrictEqual([[m.m1, m.m2], [m.m4]]);
    expect(await pages(`/v1/matches?playerId=${A}&limit=3`)).toStrictEqual([[m.m1, m.m2, m.m4]]);
    expect(await pages(`/v1/matches?status=in-progress&limit=2`)).toStrictEqual([[m.m2, m.m3], [m.m4]]);
    expect(await pages(`/v1/matches?sessionId=${S1}&limit=1`)).toStrictEqual([[m.m1], [m.m5]]);
  });

  it('keeps each kind to its own list', async () => {
    const { Anna: A, Ben: B, Dan: D } = c.ids;
    expect(await ids(`/v1/money-games?playerId=${A}`)).toStrictEqual([money.stopped]);
    expect(await ids(`/v1/money-games?playerId=${B}`)).toStrictEqual([money.stopped, money.running]);
    expect(await ids(`/v1/money-games?playerId=${B}&status=finished`)).toStrictEqual([money.stopped]);
    expect(await ids(`/v1/money-games?status=in-progress`)).toStrictEqual([money.running]);
    expect(await ids(`/v1/money-games?sessionId=${S2}&playerId=${B}`)).toStrictEqual([money.running]);
    expect(await ids(`/v1/chouettes?playerId=${D}`)).toStrictEqual([chouette]);
    expect(await ids(`/v1/chouettes?playerId=${D}&status=in-progress`)).toStrictEqual([chouette]);
    expect(await ids(`/v1/chouettes?status=finished`)).toStrictEqual([]);
  });

  it('answers a page, and a table, with one statement, each the same as its GET', async () => {
    const tableSql = /\b(game_tables|games|ledger_entries|table_players|sessions)\b/;
    const one = async (path: string) => {
      const { result, statements } = await log.during(() => c.get(path));
      expect(result.status).toBe(200);
      expect({ path, statements: statements.filter((s) => tableSql.test(s)).length }).toEqual({ path, statements: 1 });
      return result.body;
    };
    for (const [list, route] of [
      ['/v1/matches', '/v1/matches'],
      [`/v1/matches?playerId=${c.ids.Anna}`, '/v1/matches'],
      [`/v1/matches?status=finished&sessionId=${S1}`, '/v1/matches'],
      ['/v1/money-games', '/v1/money-games'],
      [`/v1/money-games?playerId=${c.ids.Ben}&status=in-progress`, '/v1/money-games'],
      ['/v1/chouettes', '/v1/chouettes'],
    ]) {
      const page = await one(list);
      expect(page.items.length).toBeGreaterThan(0);
      for (const item of page.items) expect(await one(`${route}/${item.id}`)).toEqual(item);
    }
  });
});
