import { bearer, startApp, TestApp } from './support/app';
import { clubWith, finish } from './support/club';
import { SseClient } from './support/sse';

/**
 * Board links: a read-only token a club puts in its screen's URL. It reads its board and
 * its stream, nothing else; revoking it stops the page and the stream.
 */
describe('board links', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  const opened: SseClient[] = [];

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Анна', '李雷', 'Γιώργος']);
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    await t.close();
  });

  it('shows the session as the API does, reads nothing else, streams changes, and stops when revoked', async () => {
    const { Анна: a, 李雷: b } = c.ids;
    const session = await c.session({ currency: 'EUR' });
    const match = (await c.post('/v1/matches', { sessionId: session, sides: [[a], [b]], target: 5 })).body.id as string;
    expect((await c.post(`/v1/matches/${match}/games`, { actions: [finish(a, 'gammon')] })).status).toBe(201);
    expect((await c.post(`/v1/matches/${match}/games`)).status).toBe(201);

    const created = await c.post('/v1/boards', { name: 'Club room TV', sessionId: session });
    expect(created.status).toBe(201);
    const { id, token, path, url } = created.body;
    expect(path).toBe(`/board/${token}`);
    expect(url.endsWith(path)).toBe(true);
    // Listed (without its token) as a board link, not as an API key.
    expect((await c.get('/v1/boards')).body.items.map((l: { id: string; token?: string }) => [l.id, l.token])).toEqual([[id, undefined]]);
    expect((await c.get('/v1/api-keys')).body.items.map((k: { id: string }) => k.id)).not.toContain(id);
    expect((await c.post('/v1/boards', { name: 'x', sessionId: '01963f7a-0000-7000-8000-000000000001' })).status).toBe(404);

    // The board: the match's score after a gammon (2 points, R1.1), the game in progress with its cube in the middle.
    const board = await t.http().get('/v1/board').set(bearer(token));
    expect(board.status).toBe(200);
    expect(board.body).toMatchObject({ sessionName: 'Club night', currency: 'EUR', board: { id, name: 'Club room TV', sessionId: session } });
    expect(board.body.tables).toEqual([
      expect.objectContaining({
        kind: 'match',
        id: match,
        sides: [['Анна'], ['李雷']],
        score: [2, 0],
        target: 5,
        gameNo: 2,
        crawford: false,
        cubes: [{ value: 1, owner: null, member: null }],
      }),
    ]);
    expect(board.body.results).toEqual([expect.objectContaining({ kind: 'match', players: ['Анна', '李雷'], winner: 'Анна', points: 2 })]);
    expect(board.body.standings.map((s: { name: string; gamesWon: number }) => [s.name, s.gamesWon])).toEqual([
      ['Анна', 1],
      ['李雷', 0],
    ]);

    // Nothing else: every other route refuses the board's token.
    const reads = ['/v1/players', `/v1/matches/${match}`, '/v1/api-keys', '/v1/audit', '/v1/webhooks', '/v1/events', `/v1/sessions/${session}/settlement`, '/v1/boards'];
    for (const route of reads) expect([route, (await t.http().get(route).set(bearer(token))).status]).toEqual([route, 403]);
    for (const route of [`/v1/matches/${match}/games/2/actions`, '/v1/players', '/v1/clubs', '/v1/boards']) {
      expect([route, (await t.http().post(route).set(bearer(token)).send({})).status]).toEqual([route, 403]);
    }
    // And a viewer key does not read the board: it is a board link's route.
    const viewer = (await c.post('/v1/api-keys', { name: 'viewer', role: 'viewer' })).body.token as string;
    expect((await t.http().get('/v1/board').set(bearer(viewer))).status).toBe(403);
    // The token in a query string works only on the board's stream.
    expect((await t.http().get(`/v1/players?token=${token}`)).status).toBe(401);

    // The page: served for a working link, with a policy that runs only its own script.
    const page = await t.http().get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('/board-assets/board.js');
    expect((await t.http().get('/board/not-a-token')).status).toBe(404);

    // The stream, with the token in the query: an event says what changed, and nothing of its data.
    const s = await SseClient.open(t.url, `/v1/board/stream?token=${encodeURIComponent(token)}`, { accept: 'text/event-stream' });
    opened.push(s);
    expect(s.status).toBe(200);
    await s.until(() => s.frames.length > 0, 5000, 'the opening lines');
    expect((await c.post(`/v1/matches/${match}/games/2/actions`, { type: 'double', by: b })).status).toBe(200);
    await s.until(() => s.frames.some((f) => f.event === 'game.action'), 5000, 'the double');
    const frame = s.frames.find((f) => f.event === 'game.action')!;
    expect(Object.keys(JSON.parse(frame.data!)).sort()).toEqual(['id', 'subject', 'type']);
    // Read again from that event on: the cube is offered, still in the middle.
    const after = await t.http().get(`/v1/board?since=${frame.id}`).set(bearer(token));
    expect(after.body.tables[0].cubes).toEqual([{ value: 1, owner: null, member: null }]);
    expect(after.body.asOf > frame.id!).toBe(true);

    // Revoked: the stream ends within seconds, the page says the link is not valid, the board refuses.
    expect((await t.http().delete(`/v1/boards/${id}`).set(bearer(c.owner))).status).toBe(204);
    await s.until(() => s.ending !== null, 10000, 'the stream to end');
    expect((await t.http().get(path)).status).toBe(404);
    expect((await t.http().get('/v1/board').set(bearer(token))).status).toBe(401);
    expect((await c.get(`/v1/boards/${id}`)).body.revokedAt).not.toBeNull();
  });

  it("lists a chouette's games in the latest results: the box against the team as the game started (R5.7)", async () => {
    const { Анна: a, 李雷: b, Γιώργος: g } = c.ids;
    const session = await c.session({ currency: 'EUR' });
    const ch = (await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [a, b, g] } })).body.id as string;
    // The captain (Li) beats the box (Anna): Li takes the box, Anna goes to the end of the line.
    expect((await c.post(`/v1/chouettes/${ch}/games`, { actions: [finish(b)] })).status).toBe(201);
    // Then the box (Li) beats the team of Giorgos and Anna.
    expect((await c.post(`/v1/chouettes/${ch}/games`, { actions: [finish(b)] })).status).toBe(201);
    const token = (await c.post('/v1/boards', { name: 'Chouette corner', sessionId: session })).body.token as string;
    const board = await t.http().get('/v1/board').set(bearer(token));
    expect(board.status).toBe(200);
    expect(board.body.results.map((r: { kind: string; players: string[]; winner: string; points: number | null }) => [r.kind, r.players, r.winner, r.points])).toEqual([
      ['chouette', ['李雷', 'Γιώργος & Анна'], '李雷', null],
      ['chouette', ['Анна', '李雷 & Γιώργος'], '李雷 & Γιώργος', null],
    ]);
  });
});
