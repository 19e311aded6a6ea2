import { startApp, TestApp } from './support/app';
import { clubWith, double, finish } from './support/club';

/**
 * The answers of the refusals that services used to decide themselves: each one exact
 * (status, code, rule, detail), as a client sees it.
 */
describe('refusals by the rules, answered exactly', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Carl']);
    ({ Anna: A, Ben: B } = c.ids);
  });
  afterAll(() => t.close());

  const moneyGame = async (sessionId: string) => {
    const res = await c.post('/v1/money-games', { sessionId, players: [A, B], stakeMinor: 100 });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const refusal = (res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }) => ({
    status: res.status,
    type: res.headers['content-type'],
    code: res.body.code,
    rule: res.body.rule,
    detail: res.body.detail,
  });

  it('R6.7: a session with a game in progress is not closed; a closed one takes no games and keeps its rake', async () => {
    const s = await c.session({ name: 'Friday' });
    const id = await moneyGame(s);
    expect((await c.post(`/v1/money-games/${id}/games`, { actions: [double(A)] })).status).toBe(201);

    expect(refusal(await c.post(`/v1/sessions/${s}/close`))).toEqual({
      status: 422,
      type: expect.stringContaining('application/problem+json'),
      code: 'GAMES_IN_PROGRESS',
      rule: 'R6.7',
      detail: `Finish or abandon the games still in progress before closing (R6.7): money ${id} game 1`,
    });
    expect((await c.get(`/v1/sessions/${s}`)).body.status).toBe('open');

    expect((await c.post(`/v1/money-games/${id}/games/1/abandon`)).status).toBe(200);
    expect((await c.post(`/v1/sessions/${s}/close`)).body.status).toBe('closed');

    const rake = await t
      .http()
      .patch(`/v1/sessions/${s}`)
      .set({ authorization: `Bearer ${c.owner}` })
      .send({ rakePercent: 5 });
    expect(refusal(rake)).toEqual({
      status: 422,
      type: expect.stringContaining('application/problem+json'),
      code: 'SESSION_CLOSED',
      rule: 'R6.7',
      detail: 'The session is closed; its rake can no longer change.',
    });
    expect(refusal(await c.post(`/v1/money-games/${id}/games`, { actions: [] }))).toMatchObject({
      status: 422,
      code: 'SESSION_CLOSED',
      rule: 'R6.7',
      detail: 'Session "Friday" is closed: it takes no more tables or games (R6.7)',
    });
    expect((await c.get(`/v1/sessions/${s}`)).body).toMatchObject({ status: 'closed', rakePercent: 0 });
  });

  it('R6.8, R6.3 and undo: one game at a time, nothing after its end, nothing to take back', async () => {
    const s = await c.session();
    const id = await moneyGame(s);
    expect((await c.post(`/v1/money-games/${id}/games`, {})).status).toBe(201);
    expect(refusal(await c.post(`/v1/money-games/${id}/games/1/undo`))).toMatchObject({
      status: 422,
      code: 'NOTHING_TO_UNDO',
      rule: undefined,
      detail: 'Game 1 has no action to take back',
    });
    expect(refusal(await c.post(`/v1/money-games/${id}/games`, {}))).toMatchObject({
      status: 422,
      code: 'GAME_IN_PROGRESS',
      rule: 'R6.8',
      detail: 'Game 1 is still in progress: finish, abandon or void it before the next game starts (R6.8)',
    });
    expect((await c.post(`/v1/money-games/${id}/games/1/abandon`)).status).toBe(200);
    expect(refusal(await c.post(`/v1/money-games/${id}/games/1/actions`, finish(A)))).toMatchObject({
      status: 422,
      code: 'GAME_NOT_IN_PROGRESS',
      rule: 'R6.3',
      detail: 'Game 1 was abandoned: nothing more can happen in it',
    });
    expect(refusal(await c.post(`/v1/money-games/${id}/games/1/void`, { reason: 'x' }))).toMatchObject({
      status: 422,
      code: 'GAME_NOT_FINISHED',
      rule: 'R6.3',
      detail: 'Game 1 is abandoned: only a finished game can be voided (R6.3)',
    });
    expect((await c.post(`/v1/money-games/${id}/games`, { actions: [finish(B)] })).body.status).toBe('finished');
    expect(refusal(await c.post(`/v1/money-games/${id}/games/2/actions`, double(A)))).toMatchObject({
      status: 422,
      code: 'GAME_FINISHED',
      rule: 'R6.3',
      detail: 'Game 2 is finished: nothing more can happen in it; void it to correct it (R6.3)',
    });
  });

  it('R6.6: a payment from a party to itself', async () => {
    const s = await c.session();
    expect(refusal(await c.post(`/v1/sessions/${s}/payments`, { from: A, to: A, amountMinor: 100 }))).toMatchObject({
      status: 422,
      code: 'SAME_PARTY',
      rule: 'R6.6',
      detail: 'A payment goes from one party to another: from and to are the same',
    });
  });
});
