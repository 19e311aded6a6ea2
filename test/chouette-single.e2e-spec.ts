import { startApp, TestApp } from './support/app';
import { clubWith, double, finish, pass, take } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * A chouette with the classic single team cube (R5.3 `single`) and a player with a
 * lower stake of his own (R5.11). Every seat and amount is worked out by hand.
 */
describe('chouette with a single team cube and per-player stakes (R5.3, R5.11)', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo']);
    ({ Anna: A, Ben: B, Cleo: C } = c.ids);
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('plays two games: a team double taken by the box, then a box double taken by one member and passed by another', async () => {
    const session = await c.session();
    const created = await c.post('/v1/chouettes', {
      sessionId: session,
      stakeMinor: 100,
      stakes: [{ playerId: C, stakeMinor: 50 }],
      seating: { order: [A, B, C] },
      rules: { cubes: 'single', jacoby: false },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toMatchObject({ box: A, captain: B, team: [B, C], partner: null });

    // Game 1. Only the captain doubles the team cube (R5.3): Cleo may not.
    await c.post(`/v1/chouettes/${id}/games`);
    const notCaptain = await c.post(`/v1/chouettes/${id}/games/1/actions`, double(C));
    expect(notCaptain.status).toBe(422);
    expect(notCaptain.body.rule).toBe('R5.3');
    // Ben doubles for the team; the box answers once: take. Both member cubes are 2.
    await c.post(`/v1/chouettes/${id}/games/1/actions`, double(B));
    const taken = await c.post(`/v1/chouettes/${id}/games/1/actions`, take(A));
    expect(taken.status).toBe(200);
    expect(taken.body.cubes.map((x: { member: string; value: number }) => [x.member, x.value])).toEqual([
      [B, 2],
      [C, 2],
    ]);
    // The team wins a single: Ben 100 × 2 = 200; Cleo plays at the lower stake, 50 × 2 = 100.
    const g1 = await c.post(`/v1/chouettes/${id}/games/1/actions`, finish(C));
    expect(g1.body).toMatchObject({ status: 'finished', winnerSide: 1, points: null });
    const g1Nets: Record<string, number> = {};
    for (const p of g1.body.payouts) {
      g1Nets[p.to] = (g1Nets[p.to] ?? 0) + p.amountMinor;
      g1Nets[p.from] = (g1Nets[p.from] ?? 0) - p.amountMinor;
    }
    expect(g1Nets).toEqual({ [A]: -300, [B]: 200, [C]: 100 });
    // The captain beat the box (R5.7): Ben is box, Anna goes to the end, Cleo is captain.
    let s = (await c.get(`/v1/chouettes/${id}`)).body;
    expect(s).toMatchObject({ box: B, captain: C, team: [C, A] });

    // Game 2. The box (Ben) doubles every member; each answers for himself:
    // Cleo takes (her cube 2), Anna passes and pays the box 1 × 100.
    const g2 = await c.post(`/v1/chouettes/${id}/games`, { actions: [double(B), take(C), pass(A), finish(B, 'gammon')] });
    expect(g2.status).toBe(201);
    // Then the box wins a gammon against Cleo: 50 × 2 × 2 = 200.
    const g2Nets: Record<string, number> = {};
    for (const p of g2.body.payouts) {
      g2Nets[p.to] = (g2Nets[p.to] ?? 0) + p.amountMinor;
      g2Nets[p.from] = (g2Nets[p.from] ?? 0) - p.amountMinor;
    }
    expect(g2Nets).toEqual({ [A]: -100, [B]: 300, [C]: -200 });
    // The box beat the captain: Ben stays, Cleo goes to the end, Anna is captain.
    s = (await c.get(`/v1/chouettes/${id}`)).body;
    expect(s).toMatchObject({ box: B, captain: A, team: [A, C] });
    const netOf = Object.fromEntries(s.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]));
    expect(netOf).toEqual({ [A]: -400, [B]: 500, [C]: -100 });
  });
});

describe('chouette seats: the box leaving, joins and leaves between games (R5.8)', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve']);
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('moves the captain into the box when the box leaves, and joins at the end of the line', async () => {
    const { Anna: A, Ben: B, Cleo: C, Dan: D, Eve: E } = c.ids;
    const session = await c.session();
    const id = (await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [A, B, C, D] } })).body.id;
    const del = (p: string) => t.http().delete(`/v1/chouettes/${id}/players/${p}`).set('authorization', `Bearer ${c.owner}`);

    // The box leaves: the captain becomes box, the next in line captain.
    const boxLeft = await del(A);
    expect(boxLeft.status).toBe(200);
    expect(boxLeft.body).toMatchObject({ box: B, captain: C, team: [C, D], partner: null });
    // A newcomer joins at the end of the line.
    const joined = await c.post(`/v1/chouettes/${id}/players`, { playerId: E });
    expect(joined.body).toMatchObject({ box: B, captain: C, team: [C, D, E] });
    // The captain leaves: the next in line captains.
    expect((await del(C)).body).toMatchObject({ box: B, captain: D, team: [D, E] });
    // Not between games: refused.
    await c.post(`/v1/chouettes/${id}/games`);
    const during = await c.post(`/v1/chouettes/${id}/players`, { playerId: A });
    expect(during.status).toBe(422);
    expect(during.body.rule).toBe('R5.8');
    const stranger = await del('01a00000-0000-7000-8000-000000000000');
    expect(stranger.status).toBe(422);
  });
});
