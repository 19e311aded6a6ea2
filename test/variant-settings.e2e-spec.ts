import { startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';

/**
 * R8.10 over HTTP: the settings and results a variant lacks are refused with the variant
 * named, and nothing is written; R3.1's `evenTarget` plays a 4-point match.
 */
describe('variant settings and even targets', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben']);
    ({ Anna: A, Ben: B } = c.ids);
  });
  afterAll(() => t.close());

  const count = async (table: string) => Number((await t.sql<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0].n);

  it('refuses what a variant does not have, naming it, and writes nothing (R8.10)', async () => {
    const session = await c.session();
    const before = { tables: await count('game_tables'), events: await count('events') };
    const refused: Array<[string, object, string]> = [
      ['/v1/matches', { variant: 'long-nardy', sides: [[A], [B]], target: 5, rules: { cube: true, backgammonMultiplier: 2 } }, 'long-nardy'],
      ['/v1/money-games', { sessionId: session, variant: 'long-nardy', players: [A, B], stakeMinor: 100, rules: { cube: true, backgammonMultiplier: 2 } }, 'long-nardy'],
      ['/v1/matches', { variant: 'portes', sides: [[A], [B]], target: 5, rules: { deadCube: 'allow' } }, 'portes'],
      ['/v1/money-games', { sessionId: session, variant: 'fevga', players: [A, B], stakeMinor: 100, rules: { cubeLimit: 8 } }, 'fevga'],
      ['/v1/matches', { variant: 'plakoto', sides: [[A], [B]], target: 5, rules: { cubeLimit: 16 } }, 'plakoto'],
      ['/v1/matches', { variant: 'tavli', sides: [[A], [B]], target: 4, rules: { evenTarget: true } }, 'tavli'],
    ];
    for (const [url, body, variant] of refused) {
      const res = await c.post(url, body);
      expect({ url, body, status: res.status, code: res.body.code, rule: res.body.rule }).toEqual({ url, body, status: 422, code: 'SETTING_NOT_IN_VARIANT', rule: 'R8.10' });
      expect(res.body.detail).toMatch(/Portes|Plakoto|Fevga|Tavli|long nardy/i);
      expect(res.body.variant ?? variant).toBe(variant);
    }
    expect({ tables: await count('game_tables'), events: await count('events') }).toEqual(before);

    // Switched off, a lacked setting is accepted and ignored.
    const off = await c.post('/v1/matches', { variant: 'portes', sides: [[A], [B]], target: 5, rules: { deadCube: null, cubeLimit: null, backgammonMultiplier: null, jacoby: false } });
    expect(off.status).toBe(201);

    // A Tavla 31 game ends by its checkers left alone: a result beside them is refused.
    const tavla = (await c.post('/v1/money-games', { sessionId: session, variant: 'tavla-31', players: [A, B], stakeMinor: 10 })).body.id as string;
    const events = await count('events');
    const bad = await c.post(`/v1/money-games/${tavla}/games`, { actions: [{ type: 'finish', winner: A, result: 'single', checkersLeft: 7 }] });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'RESULT_NOT_IN_VARIANT', rule: 'R8.10' });
    expect((await c.get(`/v1/money-games/${tavla}`)).body.games).toEqual([]);
    expect(await count('events')).toBe(events);
    const good = await c.post(`/v1/money-games/${tavla}/games`, { actions: [{ type: 'finish', winner: A, checkersLeft: 7 }] });
    expect(good.body).toMatchObject({ status: 'finished', points: 7 });
    expect(good.body.payouts).toEqual([{ from: B, to: A, amountMinor: 70, kind: 'game' }]);
  });

  it('scores a Plakoto mother at the table’s motherPoints, 3 here, in a money table and a Tavli match (R8.3)', async () => {
    const session = await c.session();
    const res = await c.post('/v1/money-games', { sessionId: session, variant: 'plakoto', players: [A, B], stakeMinor: 50, rules: { motherPoints: 3 } });
    expect(res.status).toBe(201);
    expect(res.body.rules).toMatchObject({ motherPoints: 3 });
    const g = await c.post(`/v1/money-games/${res.body.id}/games`, { actions: [{ type: 'finish', winner: B, result: 'mother' }] });
    expect(g.body).toMatchObject({ status: 'finished', points: 3, winnerSide: 1 });
    expect(g.body.payouts).toEqual([{ from: A, to: B, amountMinor: 150, kind: 'game' }]);
    // A Tavli match's second game is Plakoto (R8.5): its mother scores 3 too; unset, it is worth 2.
    const tavli = (await c.post('/v1/matches', { variant: 'tavli', sides: [[A], [B]], target: 7, rules: { motherPoints: 3 } })).body.id as string;
    await c.post(`/v1/matches/${tavli}/games`, { actions: [finish(A)] });
    const g2 = await c.post(`/v1/matches/${tavli}/games`, { actions: [{ type: 'finish', winner: A, result: 'mother' }] });
    expect(g2.body).toMatchObject({ variant: 'plakoto', points: 3 });
    expect((await c.get(`/v1/matches/${tavli}`)).body.score).toEqual([4, 0]);
    const plain = (await c.post('/v1/matches', { variant: 'plakoto', sides: [[A], [B]], target: 7 })).body;
    expect(plain.rules).toMatchObject({ motherPoints: 2 });
    const bad = await c.post('/v1/matches', { variant: 'plakoto', sides: [[A], [B]], target: 7, rules: { motherPoints: 4 } });
    expect(bad.body).toMatchObject({ code: 'INVALID_SETTING', rule: 'R8.3' });
  });

  it('plays a 4-point match with evenTarget: Crawford at 3, the real total kept (R3.1, R3.4)', async () => {
    const refused = await c.post('/v1/matches', { sides: [[A], [B]], target: 4 });
    expect(refused.body).toMatchObject({ code: 'TARGET_EVEN', rule: 'R3.1' });
    const res = await c.post('/v1/matches', { sides: [[A], [B]], target: 4, rules: { evenTarget: true } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ target: 4, rules: { evenTarget: true, crawford: true } });
    const id = res.body.id as string;
    // Anna: a gammon (2) and a single (1): 3-0, one short of 4, so game 3 is the Crawford game.
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A, 'gammon')] });
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] });
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [3, 0], crawfordGameNo: 3 });
    const g3 = await c.post(`/v1/matches/${id}/games`, { actions: [double(B)] });
    expect(g3.body).toMatchObject({ code: 'CRAWFORD_NO_DOUBLE', rule: 'R3.4' });
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(B)] }); // Crawford game: 3-1
    // Post-Crawford Ben doubles, Anna takes and wins: 2 points, 5-1, finished by points.
    await c.post(`/v1/matches/${id}/games`, { actions: [double(B), take(A), finish(A)] });
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [5, 1], status: 'finished', winnerSide: 0, endedBy: { kind: 'points' } });
  });
});
