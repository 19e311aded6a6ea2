import { startApp, TestApp } from './support/app';
import { beaver, clubWith, double, finish, pass, raccoon, take } from './support/club';
import { readModelDifferences } from './support/read-models';

describe('money play (R4) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string;
  let session: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben']);
    ({ Anna: A, Ben: B } = c.ids);
    session = await c.session();
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const table = async (rules: object = {}, stakeMinor = 100, sessionId = session) => {
    const res = await c.post('/v1/money-games', { sessionId, players: [A, B], stakeMinor, rules });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const play = (id: string, actions: object[], automaticDoubles?: number) => c.post(`/v1/money-games/${id}/games`, { actions, automaticDoubles });
  const netOf = async (id: string) => (await c.get(`/v1/money-games/${id}`)).body.netMinor;

  it('pays stake × points; Jacoby makes an undoubled gammon single (R1.5, R4.2)', async () => {
    const id = await table();
    // Centred cube, Jacoby on: Anna's gammon counts 1 → Ben pays 100.
    const g1 = await play(id, [finish(A, 'gammon')]);
    expect(g1.body).toMatchObject({ points: 1, payouts: [{ from: B, to: A, amountMinor: 100, kind: 'game' }] });
    // Doubled and taken: the cube has an owner, Jacoby no longer applies; Ben's backgammon: 2 × 3 = 6 → 600.
    const g2 = await play(id, [double(A), take(B), finish(B, 'backgammon')]);
    expect(g2.body).toMatchObject({ points: 6, payouts: [{ from: A, to: B, amountMinor: 600, kind: 'game' }] });
    // A resignation scores like a normal end at the accepted level (R1.4): doubled gammon = 4.
    const g3 = await play(id, [double(B), take(A), finish(A, 'gammon', true)]);
    expect(g3.body).toMatchObject({ points: 4, result: { winner: A, result: 'gammon', resigned: true } });
    expect(await netOf(id)).toEqual({ [A]: 100 - 600 + 400, [B]: -100 + 600 - 400 });
  });

  it('counts a backgammon as two when the table says so (R1.2)', async () => {
    const id = await table({ backgammonMultiplier: 2, jacoby: false });
    const g = await play(id, [double(B), take(A), finish(A, 'backgammon')]);
    expect(g.body).toMatchObject({ points: 4, payouts: [{ from: B, to: A, amountMinor: 400 }] });
  });

  it('beavers and raccoons (R2.4, R2.5)', async () => {
    const id = await table({ beavers: true, raccoons: true, jacoby: false });
    // Anna doubles, Ben beavers: the cube shows 2 owned by Ben, a take makes it 4.
    await c.post(`/v1/money-games/${id}/games`);
    await c.post(`/v1/money-games/${id}/games/1/actions`, double(A));
    const beavered = await c.post(`/v1/money-games/${id}/games/1/actions`, beaver(B));
    expect(beavered.body.cubes[0]).toMatchObject({ value: 2, owner: B, pending: { by: B, value: 4, kind: 'beaver' } });
    const taken = await c.post(`/v1/money-games/${id}/games/1/actions`, take(A));
    expect(taken.body.cubes[0]).toMatchObject({ value: 4, owner: B, pending: null });
    const won = await c.post(`/v1/money-games/${id}/games/1/actions`, finish(B));
    expect(won.body).toMatchObject({ points: 4, payouts: [{ from: A, to: B, amountMinor: 400 }] });
    // A pass of the beaver pays 2 × the pre-double value (1): 200.
    const passBeaver = await play(id, [double(A), beaver(B), pass(A)]);
    expect(passBeaver.body).toMatchObject({ points: 2, winnerSide: 1, payouts: [{ from: A, to: B, amountMinor: 200 }] });
    // Raccoon: the receiver's pass pays 4 × the pre-double value: 400 to Anna.
    const rac = await play(id, [double(A), beaver(B), raccoon(A)]);
    expect(rac.body.cubes[0]).toMatchObject({ pending: { by: A, value: 8, kind: 'raccoon' } });
    const g4 = await c.post(`/v1/money-games/${id}/games/3/actions`, pass(B));
    expect(g4.body).toMatchObject({ points: 4, winnerSide: 0, payouts: [{ from: B, to: A, amountMinor: 400 }] });

    const noBeaver = await table();
    const refused = await play(noBeaver, [double(A), beaver(B)]);
    expect(refused.body).toMatchObject({ code: 'BEAVERS_NOT_ALLOWED', rule: 'R2.4' });
  });

  it('automatic doubles leave the cube centred, so Jacoby still applies (R2.7, R1.5)', async () => {
    const id = await table({ automaticDoubles: 1 });
    const g = await play(id, [finish(A, 'gammon')], 1);
    // Cube 2 after one automatic double, still centred: the gammon counts single: 2 × 1 = 2.
    expect(g.body).toMatchObject({ automaticDoubles: 1, points: 2, cubes: [{ value: 2, owner: null }] });
    const tooMany = await play(id, [], 2);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({ code: 'TOO_MANY_AUTOMATIC_DOUBLES', rule: 'R2.7' });
  });

  it('refuses a double past the cube limit (R2.2)', async () => {
    const id = await table({ cubeLimit: 2 });
    const res = await play(id, [double(A), take(B), double(B)]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'CUBE_LIMIT_EXCEEDED', rule: 'R2.2' });
  });

  it("takes a rake of each winner's net to the house, rounded down (R6.4)", async () => {
    const raked = await c.session({ rakePercent: 5 });
    const id = await table({}, 133, raked);
    // Doubled single: 2 points × 133 = 266; rake floor(266 × 5 %) = floor(13.3) = 13.
    const g = await play(id, [double(A), take(B), finish(A)]);
    expect(g.body.payouts).toEqual([
      { from: B, to: A, amountMinor: 266, kind: 'game' },
      { from: A, to: 'house', amountMinor: 13, kind: 'rake' },
    ]);
    expect(await netOf(id)).toEqual({ [A]: 253, [B]: -266 });
  });

  it('voids the latest game with reversing entries; the ledger stays append-only (R6.3)', async () => {
    const id = await table();
    await play(id, [finish(A)]);
    await play(id, [double(B), take(A), finish(B, 'gammon')]); // 4 × 100 to Ben
    expect(await netOf(id)).toEqual({ [A]: -300, [B]: 300 });
    const v = await c.post(`/v1/money-games/${id}/games/2/void`, { reason: 'Wrong table' });
    expect(v.body.payouts).toEqual([
      { from: A, to: B, amountMinor: 400, kind: 'game' },
      { from: B, to: A, amountMinor: 400, kind: 'void' },
    ]);
    expect(await netOf(id)).toEqual({ [A]: 100, [B]: -100 });
    const again = await c.post(`/v1/money-games/${id}/games/2/void`, { reason: 'twice' });
    expect(again.body).toMatchObject({ code: 'GAME_NOT_FINISHED', rule: 'R6.3' });
    await expect(t.sql(`UPDATE ledger_entries SET amount_minor = 1 WHERE table_id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(t.sql(`DELETE FROM ledger_entries WHERE table_id = $1`, [id])).rejects.toThrow(/append-only/);
    const sums = await t.sql<{ game_no: number; n: string }>(`SELECT game_no, sum(amount_minor)::text AS n FROM ledger_entries WHERE table_id = $1 GROUP BY game_no ORDER BY game_no`, [id]);
    // every entry is a transfer between two parties: the table's parties always sum to zero
    expect(sums.map((s) => s.game_no)).toEqual([1, 2]);
  });

  it('refuses bad money values with 400 and writes nothing', async () => {
    const before = (await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM game_tables'))[0].n;
    for (const stakeMinor of [1.5, '100', -1, 9007199254740992, 1e300, null]) {
      const res = await c.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors[0].field).toBe('stakeMinor');
    }
    const raw = await t
      .http()
      .post('/v1/money-games')
      .set('authorization', `Bearer ${c.owner}`)
      .set('content-type', 'application/json')
      .send(`{"sessionId":"${session}","players":["${A}","${B}"],"stakeMinor":99999999999999999999}`);
    expect(raw.status).toBe(400);
    expect((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM game_tables'))[0].n).toBe(before);
  });

  it('lets exactly one of 20 racing scorers take the same double', async () => {
    const id = await table();
    await play(id, [double(A)]);
    const results = await Promise.all(Array.from({ length: 20 }, () => c.post(`/v1/money-games/${id}/games/1/actions`, take(B))));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect([409, 422]).toContain(r.status);
      if (r.status === 422) expect(r.body).toMatchObject({ code: 'NO_OFFER_PENDING' });
    }
    const game = (await c.get(`/v1/money-games/${id}/games/1`)).body;
    expect(game.actions.map((a: { type: string }) => a.type)).toEqual(['double', 'take']);
    expect(game.cubes[0]).toMatchObject({ value: 2, owner: B, pending: null });
  });

  it('starts exactly one game when 15 starts race on one table (R6.8)', async () => {
    const id = await table();
    const results = await Promise.all(Array.from({ length: 15 }, () => c.post(`/v1/money-games/${id}/games`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422).every((r) => r.body.code === 'GAME_IN_PROGRESS')).toBe(true);
    expect((await c.get(`/v1/money-games/${id}`)).body.games).toHaveLength(1);
  });

  it('refuses to close a session with a game in progress, then takes no more games (R6.7)', async () => {
    const s = await c.session();
    const id = await table({}, 100, s);
    await play(id, [double(A)]);
    const refused = await c.post(`/v1/sessions/${s}/close`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'GAMES_IN_PROGRESS', rule: 'R6.7' });
    expect((await c.post(`/v1/money-games/${id}/games/1/abandon`)).body.status).toBe('abandoned');
    expect((await c.post(`/v1/sessions/${s}/close`)).body.status).toBe('closed');
    const more = await play(id, []);
    expect(more.body).toMatchObject({ code: 'SESSION_CLOSED', rule: 'R6.7' });
    const newTable = await c.post('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: 1 });
    expect(newTable.body).toMatchObject({ code: 'SESSION_CLOSED', rule: 'R6.7' });
  });
});
