import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bearer, startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { startReceiver, until, type Receiver } from './support/webhook-receiver';

/**
 * Conditional GETs on every JSON GET route of the OpenAPI document: the answer carries an
 * ETag, If-None-Match naming it is 304 with no body, and once something its body shows
 * has changed, the ETag has changed too (the old one is answered whole, the new one 304).
 */
describe('conditional GETs on every route', () => {
  let t: TestApp;
  let receiver: Receiver;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string;
  let session: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startApp({ WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_POLL_MS: '100', WEBHOOK_ALLOW_PRIVATE: 'true' });
    c = await clubWith(t, ['Anna', 'Li', 'Giorgos', 'Dana']);
    ({ Anna: A, Li: B, Giorgos: C, Dana: D } = c.ids);
    session = await c.session();
    ids.match = (await c.post('/v1/matches', { sessionId: session, sides: [[A], [B]], target: 5 })).body.id;
    expect((await c.post(`/v1/matches/${ids.match}/games`, { actions: [finish(A)] })).status).toBe(201);
    ids.money = (await c.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 100 })).body.id;
    expect((await c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(A)] })).status).toBe(201);
    ids.chouette = (await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [A, B, C] } })).body.id;
    expect((await c.post(`/v1/chouettes/${ids.chouette}/games`, { actions: [finish(A)] })).status).toBe(201);
    const board = (await c.post('/v1/boards', { name: 'Club room TV', sessionId: session })).body;
    ids.board = board.id;
    ids.boardToken = board.token;
    const teamEvent = await c.post('/v1/team-events', {
      name: 'North v South',
      sessionId: session,
      target: 3,
      teams: [
        { name: 'North', players: [A] },
        { name: 'South', players: [B] },
      ],
    });
    expect(teamEvent.status).toBe(201);
    ids.teamEvent = teamEvent.body.id;
    ids.teamMatch = teamEvent.body.boards[0].matchId;
    ids.tournament = (await c.post('/v1/tournaments', { name: 'Cup', format: 'knockout', targets: [3], sessionId: session })).body.id;
    const hook = await c.post('/v1/webhooks', { url: `${receiver.base}/hook`, types: ['player.created'] });
    expect(hook.status).toBe(201);
    receiver.expect('/hook', hook.body.secret);
    ids.webhook = hook.body.id;
    expect((await c.post(`/v1/sessions/${session}/payments`, { from: B, to: A, amountMinor: 100 })).status).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const get = (url: string, token?: string) =>
    t
      .http()
      .get(url)
      .set(bearer(token ?? c.owner));

  /** A game in progress at a table (a cube turned in it), to change with an action. */
  const gameInProgress = async (kind: string, id: string): Promise<number> => {
    const started = await c.post(`/v1/${kind}/${id}/games`, {});
    expect(started.status).toBe(201);
    return started.body.gameNo as number;
  };
  const act = (kind: string, id: string, gameNo: number, action: object) => ok(c.post(`/v1/${kind}/${id}/games/${gameNo}/actions`, action));
  /** A change the club makes: it must succeed. */
  const ok = async (res: PromiseLike<{ status: number; text: string }>) => {
    const { status, text } = await res;
    if (status >= 300) throw new Error(`the change was answered ${status}: ${text}`);
  };
  let newPlayers = 0;
  const newPlayer = async () => expect((await c.post('/v1/players', { name: `Newcomer ${++newPlayers}` })).status).toBe(201);

  /**
   * A new player, and then until its player.created is on the log's page: the log shows an
   * event once every transaction older than it has ended, in any database of the server,
   * so a test file running beside this one can hold it back a moment. At most 5 s.
   */
  const newPlayerEventShown = async () => {
    await newPlayer();
    const name = `Newcomer ${newPlayers}`;
    const shown = async () => ((await get('/v1/events')).body as { items: Array<{ data?: { name?: unknown } }> }).items.some((e) => e.data?.name === name);
    for (const until = Date.now() + 5000; !(await shown()) && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  /**
   * Each route (as the OpenAPI document names it): the URL to read, and a change of
   * something its answer shows. `token`: another key than the owner's (the board's).
   */
  const routes: Record<string, { url: () => string; change: () => Promise<void>; token?: () => string }> = {
    '/v1/api-keys': { url: () => '/v1/api-keys', change: () => ok(c.post('/v1/api-keys', { name: 'Tablet', role: 'scorer' })) },
    '/v1/audit': { url: () => '/v1/audit', change: newPlayer },
    '/v1/balances': { url: () => '/v1/balances', change: () => ok(c.post(`/v1/sessions/${session}/payments`, { from: A, to: B, amountMinor: 30 })) },
    '/v1/board': {
      url: () => '/v1/board',
      token: () => ids.boardToken,
      change: async () => {
        await ok(c.post(`/v1/matches/${ids.match}/games`, { actions: [finish(B)] }));
        // Boards share a read for a second (without `since`): the next one shows the game.
        await new Promise((resolve) => setTimeout(resolve, 1100));
      },
    },
    '/v1/boards': { url: () => '/v1/boards', change: () => ok(c.post('/v1/boards', { name: 'Second screen', sessionId: session })) },
    '/v1/chouettes': { url: () => '/v1/chouettes', change: () => ok(c.post('/v1/chouettes', { sessionId: session, stakeMinor: 50, seating: { order: [B, C, D] } })) },
    '/v1/chouettes/{id}': { url: () => `/v1/chouettes/${ids.chouette}`, change: () => ok(c.post(`/v1/chouettes/${ids.chouette}/games`, { actions: [finish(B)] })) },
    '/v1/chouettes/{id}/games': { url: () => `/v1/chouettes/${ids.chouette}/games`, change: () => ok(c.post(`/v1/chouettes/${ids.chouette}/games`, { actions: [finish(C)] })) },
    '/v1/chouettes/{id}/games/{gameNo}': {
      url: () => `/v1/chouettes/${ids.chouetteOfGame}/games/${ids.chouetteGame}`,
      change: () => act('chouettes', ids.chouetteOfGame, Number(ids.chouetteGame), double(ids.chouetteBox)),
    },
    '/v1/club': { url: () => '/v1/club', change: () => ok(t.http().patch('/v1/club').set(bearer(c.owner)).send({ name: 'Renamed club' })) },
    '/v1/events': { url: () => '/v1/events', change: newPlayerEventShown },
    '/v1/matches': { url: () => '/v1/matches', change: () => ok(c.post('/v1/matches', { sessionId: session, sides: [[C], [D]], target: 3 })) },
    '/v1/matches/{id}': { url: () => `/v1/matches/${ids.match}`, change: () => ok(c.post(`/v1/matches/${ids.match}/games`, { actions: [finish(A)] })) },
    '/v1/matches/{id}/games': { url: () => `/v1/matches/${ids.match}/games`, change: () => ok(c.post(`/v1/matches/${ids.match}/games`, { actions: [finish(B)] })) },
    '/v1/matches/{id}/games/{gameNo}': {
      url: () => `/v1/matches/${ids.matchOfGame}/games/${ids.matchGame}`,
      change: () => act('matches', ids.matchOfGame, Number(ids.matchGame), double(C)),
    },
    '/v1/money-games': { url: () => '/v1/money-games', change: () => ok(c.post('/v1/money-games', { sessionId: session, players: [C, D], stakeMinor: 100 })) },
    '/v1/money-games/{id}': { url: () => `/v1/money-games/${ids.money}`, change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(B)] })) },
    '/v1/money-games/{id}/games': { url: () => `/v1/money-games/${ids.money}/games`, change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(A)] })) },
    '/v1/money-games/{id}/games/{gameNo}': {
      url: () => `/v1/money-games/${ids.moneyOfGame}/games/${ids.moneyGame}`,
      change: () => act('money-games', ids.moneyOfGame, Number(ids.moneyGame), double(C)),
    },
    '/v1/players': { url: () => '/v1/players', change: newPlayer },
    // The player's page: his statistics and money change with a game, his fields without it.
    '/v1/players/{id}': { url: () => `/v1/players/${D}`, change: () => ok(c.post(`/v1/money-games/${ids.moneyCD}/games`, { actions: [finish(D, 'gammon')] })) },
    '/v1/players/{id}/statement': { url: () => `/v1/players/${A}/statement`, change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(B)] })) },
    '/v1/ratings': { url: () => '/v1/ratings', change: () => ok(c.post(`/v1/matches/${ids.ratedMatch}/games`, { actions: [finish(C)] })) },
    '/v1/sessions': { url: () => '/v1/sessions', change: () => ok(c.post('/v1/sessions', { name: 'Another night' })) },
    '/v1/sessions/{id}': { url: () => `/v1/sessions/${session}`, change: () => ok(t.http().patch(`/v1/sessions/${session}`).set(bearer(c.owner)).send({ name: 'Friday night' })) },
    '/v1/sessions/{id}/games': { url: () => `/v1/sessions/${session}/games`, change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(A)] })) },
    '/v1/sessions/{id}/ledger': { url: () => `/v1/sessions/${session}/ledger`, change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(B)] })) },
    '/v1/sessions/{id}/payments': {
      url: () => `/v1/sessions/${session}/payments`,
      change: () => ok(c.post(`/v1/sessions/${session}/payments`, { from: B, to: A, amountMinor: 20 })),
    },
    '/v1/sessions/{id}/settlement': {
      url: () => `/v1/sessions/${session}/settlement`,
      change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(A, 'gammon')] })),
    },
    '/v1/sessions/{id}/standings': {
      url: () => `/v1/sessions/${session}/standings`,
      change: () => ok(c.post(`/v1/money-games/${ids.money}/games`, { actions: [finish(B, 'gammon')] })),
    },
    '/v1/team-events': {
      url: () => '/v1/team-events',
      change: () =>
        ok(
          c.post('/v1/team-events', {
            sessionId: session,
            target: 3,
            teams: [
              { name: 'East', players: [C] },
              { name: 'West', players: [D] },
            ],
          }),
        ),
    },
    '/v1/team-events/{id}': { url: () => `/v1/team-events/${ids.teamEvent}`, change: () => ok(c.post(`/v1/matches/${ids.teamMatch}/games`, { actions: [finish(A)] })) },
    '/v1/tournaments': { url: () => '/v1/tournaments', change: () => ok(c.post('/v1/tournaments', { name: 'Plate', format: 'knockout', targets: [3], sessionId: session })) },
    '/v1/tournaments/{id}': { url: () => `/v1/tournaments/${ids.tournament}`, change: () => ok(c.post(`/v1/tournaments/${ids.tournament}/entries`, { playerId: C })) },
    '/v1/webhooks': { url: () => '/v1/webhooks', change: () => ok(c.post('/v1/webhooks', { url: `${receiver.base}/other` })) },
    '/v1/webhooks/{id}': {
      url: () => `/v1/webhooks/${ids.webhook}`,
      change: () => ok(t.http().patch(`/v1/webhooks/${ids.webhook}`).set(bearer(c.owner)).send({ description: 'Scoreboard' })),
    },
    '/v1/webhooks/{id}/deliveries': {
      url: () => `/v1/webhooks/${ids.webhook}/deliveries`,
      change: async () => {
        const before = receiver.at('/hook').length;
        await newPlayer();
        await until('the delivery', () => receiver.at('/hook').length > before);
        // The attempt is logged once it has been answered.
        await until('the logged attempt', async () => ((await get(`/v1/webhooks/${ids.webhook}/deliveries`)).body.items as unknown[]).length > before);
      },
    },
  };

  /** Answers nothing a client can change: read twice, the same ETag and a 304. */
  const unchanging: Record<string, { url: () => string; token?: () => string }> = {
    '/v1/boards/{id}': { url: () => `/v1/boards/${ids.board}` },
  };
  /** What changes with time or the process, not with the club's data. */
  const operational = ['/health', '/ready'];

  it('every JSON GET route of the OpenAPI document is checked here', () => {
    const doc = JSON.parse(readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8')) as {
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const jsonGets = Object.entries(doc.paths)
      .filter(([, item]) => item.get?.responses['200']?.content?.['application/json'])
      .map(([path]) => path)
      .sort();
    expect(jsonGets).toEqual([...Object.keys(routes), ...Object.keys(unchanging), ...operational].sort());
  });

  it.each(Object.keys(routes))('%s: 304 while unchanged, a new ETag once its body changed', async (route) => {
    await prepare(route);
    const { url, change, token } = routes[route];
    const first = await get(url(), token?.());
    expect(first.status).toBe(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);

    const same = await get(url(), token?.()).set('if-none-match', etag);
    expect(same.status).toBe(304);
    expect(same.text ?? '').toBe('');
    expect(same.headers.etag).toBe(etag);

    await change();
    const after = await get(url(), token?.());
    expect(after.status).toBe(200);
    expect(after.body).not.toEqual(first.body);
    expect(after.headers.etag).not.toBe(etag);
    const stale = await get(url(), token?.()).set('if-none-match', etag);
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(after.body);
    expect((await get(url(), token?.()).set('if-none-match', after.headers.etag)).status).toBe(304);
  });

  it.each(Object.keys(unchanging))('%s: the same ETag read after read, and 304 for it', async (route) => {
    const { url } = unchanging[route];
    const first = await get(url());
    expect(first.status).toBe(200);
    const again = await get(url()).set('if-none-match', first.headers.etag);
    expect(again.status).toBe(304);
  });

  it.each(operational)('%s answers 304 to its own ETag', async (url) => {
    const first = await t.http().get(url);
    expect(first.status).toBe(200);
    expect((await t.http().get(url).set('if-none-match', first.headers.etag)).status).toBe(304);
  });

  it("a player's page: his version counts every change it shows (a game, a payment, a rating), so its ETag is the version", async () => {
    const page = async () => {
      const res = await get(`/v1/players/${C}`);
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe(`"${res.body.version}"`);
      return res.body as { version: number; stats: { gamesPlayed: number }; rating: number };
    };
    const before = await page();
    const table = (await c.post('/v1/money-games', { sessionId: session, players: [C, D], stakeMinor: 100 })).body.id;
    expect((await c.post(`/v1/money-games/${table}/games`, { actions: [double(C), take(D), finish(C)] })).status).toBe(201);
    const played = await page();
    expect(played.stats.gamesPlayed).toBe(before.stats.gamesPlayed + 1);
    expect(played.version).toBeGreaterThan(before.version);
    // A PATCH with the page's ETag as If-Match is honoured (the ETag is the version).
    const renamed = await t.http().patch(`/v1/players/${C}`).set(bearer(c.owner)).set('if-match', `"${played.version}"`).send({ nickname: 'G' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.version).toBe(played.version + 1);
    // A match to 1 point: one game ends it, which rates it (R7.1) and counts a match played.
    const match = (await c.post('/v1/matches', { sessionId: session, sides: [[C], [D]], target: 1 })).body.id;
    expect((await c.post(`/v1/matches/${match}/games`, { actions: [finish(C)] })).status).toBe(201);
    const rated = await page();
    expect(rated.rating).toBeGreaterThan(played.rating);
    expect(rated.version).toBeGreaterThan(renamed.body.version);
  });

  /** Fixtures a route's check needs that would disturb the others if made up front. */
  async function prepare(route: string): Promise<void> {
    // A game in progress at a table of its own, as a game in progress holds back the next one.
    if (route === '/v1/chouettes/{id}/games/{gameNo}') {
      ids.chouetteOfGame = (await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [B, C, D] } })).body.id;
      ids.chouetteGame = String(await gameInProgress('chouettes', ids.chouetteOfGame));
      ids.chouetteBox = B;
    }
    if (route === '/v1/matches/{id}/games/{gameNo}') {
      ids.matchOfGame = (await c.post('/v1/matches', { sessionId: session, sides: [[C], [D]], target: 5 })).body.id;
      ids.matchGame = String(await gameInProgress('matches', ids.matchOfGame));
    }
    if (route === '/v1/money-games/{id}/games/{gameNo}') {
      ids.moneyOfGame = (await c.post('/v1/money-games', { sessionId: session, players: [C, D], stakeMinor: 100 })).body.id;
      ids.moneyGame = String(await gameInProgress('money-games', ids.moneyOfGame));
    }
    if (route === '/v1/players/{id}') ids.moneyCD = (await c.post('/v1/money-games', { sessionId: session, players: [C, D], stakeMinor: 100 })).body.id;
    if (route === '/v1/ratings') ids.ratedMatch = (await c.post('/v1/matches', { sessionId: session, sides: [[C], [D]], target: 1 })).body.id;
  }
});
