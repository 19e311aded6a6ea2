import { bearer, startApp, TestApp } from './support/app';
import { clubWith, double, finish, nets, pass, take } from './support/club';

/**
 * An evening at a chouette (R5) over HTTP. Stake 100 per point, no rake, default
 * rules (per-member cubes, Jacoby on). Every seat and amount below is worked out
 * by hand from docs/rules.md.
 */
describe('chouette (R5) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string, E: string;
  let session: string;
  let id: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve']);
    ({ Anna: A, Ben: B, Cleo: C, Dan: D, Eve: E } = c.ids);
    session = await c.session();
  });
  afterAll(() => t.close());

  const del = (url: string) => t.http().delete(url).set(bearer(c.owner));
  const game = (actions: object[]) => c.post(`/v1/chouettes/${id}/games`, { actions });
  const seats = async () => {
    const s = (await c.get(`/v1/chouettes/${id}`)).body;
    return { box: s.box, partner: s.partner, captain: s.captain, team: s.team };
  };
  const sumOf = (n: Record<string, number>) => Object.values(n).reduce((a, b) => a + b, 0);

  it('refuses a tie in the roll-off, then seats by the rolls (R5.1)', async () => {
    const tie = await c.post('/v1/chouettes', {
      sessionId: session,
      stakeMinor: 100,
      seating: {
        rolls: [
          { playerId: A, roll: 6 },
          { playerId: B, roll: 6 },
          { playerId: C, roll: 3 },
          { playerId: D, roll: 2 },
        ],
      },
    });
    expect(tie.status).toBe(422);
    expect(tie.body).toMatchObject({ code: 'ROLL_OFF_TIE', rule: 'R5.1' });

    const two = await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [A, B, C], shuffle: [A, B, C] } });
    expect(two.status).toBe(422);
    expect(two.body).toMatchObject({ code: 'INVALID_SEATING' });

    const res = await c.post('/v1/chouettes', {
      sessionId: session,
      stakeMinor: 100,
      seating: {
        rolls: [
          { playerId: C, roll: 3 },
          { playerId: A, roll: 6 },
          { playerId: D, roll: 2 },
          { playerId: B, roll: 5 },
        ],
      },
    });
    expect(res.status).toBe(201);
    id = res.body.id;
    // Highest first: Anna (6) box, Ben (5) captain, then Cleo (3), Dan (2).
    expect(res.body).toMatchObject({
      box: A,
      partner: null,
      captain: B,
      team: [B, C, D],
      stakeMinor: 100,
      currency: 'USD',
      status: 'in-progress',
      currentGameNo: null,
      rules: { cubes: 'per-member', jacoby: true, beavers: false, partnerFrom: null, partnerShare: 50 },
    });
    expect((await c.get(`/v1/chouettes?sessionId=${session}`)).body.items.map((x: { id: string }) => x.id)).toEqual([id]);
  });

  it('game 1: the box doubles two members, one takes and one passes; the captain beats the box (R5.3–R5.5, R5.7)', async () => {
    // Box Anna doubles Cleo and Dan only. Cleo takes (her cube 2, hers); Dan passes:
    // he pays the pre-double value, 1 × 100. The team wins a single:
    //   Ben (captain, centred cube 1): Anna pays 100; Cleo (cube 2): Anna pays 200.
    const g = await game([double(A, { cubes: [C, D] }), take(C), pass(D), finish(B)]);
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ gameNo: 1, status: 'finished', crawford: false, points: null, winnerSide: 1 });
    expect(g.body.cubes).toMatchObject([
      { member: B, value: 1, owner: null, status: 'finished' },
      { member: C, value: 2, owner: C, status: 'finished' },
      { member: D, value: 1, status: 'passed' },
    ]);
    expect(g.body.payouts).toEqual([
      { from: A, to: B, amountMinor: 100, kind: 'game' },
      { from: A, to: C, amountMinor: 200, kind: 'game' },
      { from: D, to: A, amountMinor: 100, kind: 'game' },
    ]);
    expect(sumOf(nets(g.body.payouts))).toBe(0);
    // Captain beats box: Ben is box, Anna goes to the end of the line, Cleo captains.
    expect(await seats()).toEqual({ box: B, partner: null, captain: C, team: [C, D, A] });
  });

  it('game 2: a member doubles, the box takes and wins a gammon; Jacoby per cube (R5.6); box beats captain', async () => {
    // Dan doubles box Ben, who takes: Dan's cube 2, owned by Ben. Ben wins a gammon:
    //   Cleo (centred, Jacoby → single) pays 1 × 100; Dan pays 2 × 2 × 100 = 400;
    //   Anna (centred) pays 100.
    const g = await game([double(D), take(B), finish(B, 'gammon')]);
    expect(g.body).toMatchObject({ gameNo: 2, winnerSide: 0, points: null, result: { winner: B, result: 'gammon' } });
    expect(g.body.payouts).toEqual([
      { from: C, to: B, amountMinor: 100, kind: 'game' },
      { from: D, to: B, amountMinor: 400, kind: 'game' },
      { from: A, to: B, amountMinor: 100, kind: 'game' },
    ]);
    expect(sumOf(nets(g.body.payouts))).toBe(0);
    // Box beats captain: Ben stays, Cleo goes to the end.
    expect(await seats()).toEqual({ box: B, partner: null, captain: D, team: [D, A, C] });
  });

  it('joins only between games; an abandoned game moves no seat (R5.8, R6.3)', async () => {
    const g3 = await c.post(`/v1/chouettes/${id}/games`, {});
    expect(g3.body).toMatchObject({ gameNo: 3, status: 'in-progress' });
    const early = await c.post(`/v1/chouettes/${id}/players`, { playerId: E });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R5.8' });
    const leaveEarly = await del(`/v1/chouettes/${id}/players/${A}`);
    expect(leaveEarly.status).toBe(422);
    expect(leaveEarly.body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R5.8' });
    expect((await c.post(`/v1/chouettes/${id}/games/3/abandon`)).body.status).toBe('abandoned');
    expect(await seats()).toEqual({ box: B, partner: null, captain: D, team: [D, A, C] });

    const joined = await c.post(`/v1/chouettes/${id}/players`, { playerId: E });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ box: B, captain: D, team: [D, A, C, E] });
    const again = await c.post(`/v1/chouettes/${id}/players`, { playerId: E });
    expect(again.body).toMatchObject({ code: 'ALREADY_SEATED', rule: 'R5.8' });
  });

  it('game 4: the captain passes, the acting captain plays on; the box keeps its seat (R5.4, R5.7)', async () => {
    // Box Ben doubles captain Dan, who passes: Dan pays 100 and is out; Anna is acting captain.
    // Anna doubles Ben, who passes: Ben pays Anna 100 (pre-double 1).
    // The team wins a single: Cleo (1) and Eve (1) get 100 each from Ben.
    const g = await game([double(B, { cubes: [D] }), pass(D), double(A), pass(B), finish(C)]);
    expect(g.body).toMatchObject({ gameNo: 4, winnerSide: 1, points: null });
    expect(g.body.payouts).toEqual([
      { from: D, to: B, amountMinor: 100, kind: 'game' },
      { from: B, to: A, amountMinor: 100, kind: 'game' },
      { from: B, to: C, amountMinor: 100, kind: 'game' },
      { from: B, to: E, amountMinor: 100, kind: 'game' },
    ]);
    expect(sumOf(nets(g.body.payouts))).toBe(0);
    // The captain of record lost to the box: Ben stays, Dan to the end.
    expect(await seats()).toEqual({ box: B, partner: null, captain: A, team: [A, C, E, D] });
  });

  it('a leave between games, then voiding game 4 restores its seats without the leaver (R5.8, R6.3)', async () => {
    const left = await del(`/v1/chouettes/${id}/players/${C}`);
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ box: B, captain: A, team: [A, E, D] });

    const v = await c.post(`/v1/chouettes/${id}/games/4/void`, { reason: 'Wrong cube' });
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('voided');
    const reversing = v.body.payouts.filter((p: { kind: string }) => p.kind === 'void');
    expect(reversing).toHaveLength(4);
    expect(sumOf(nets(v.body.payouts))).toBe(0);
    expect(Object.values(nets(v.body.payouts)).every((n) => n === 0)).toBe(true);
    // Before game 4: box Ben, line [Dan, Anna, Cleo, Eve]; Cleo has left since.
    expect(await seats()).toEqual({ box: B, partner: null, captain: D, team: [D, A, E] });
  });

  it('game 5 is played from the restored seats; the table nets add up (R5.5, R6.3)', async () => {
    // Ben wins a single against three centred cubes: Dan, Anna, Eve pay 100 each.
    const g = await game([finish(B)]);
    expect(g.body).toMatchObject({ gameNo: 5, winnerSide: 0 });
    expect(g.body.payouts).toEqual([
      { from: D, to: B, amountMinor: 100, kind: 'game' },
      { from: A, to: B, amountMinor: 100, kind: 'game' },
      { from: E, to: B, amountMinor: 100, kind: 'game' },
    ]);
    expect(await seats()).toEqual({ box: B, partner: null, captain: A, team: [A, E, D] });

    const s = (await c.get(`/v1/chouettes/${id}`)).body;
    // Anna: −200 (g1) −100 (g2) −100 (g5) = −400.   Ben: +100 +600 +300 = +1000.
    // Cleo: +200 −100 = +100.   Dan: −100 −400 −100 = −600.   Eve: −100. Game 4 voided: 0.
    const net = Object.fromEntries(s.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]));
    expect(net).toEqual({ [A]: -400, [B]: 1000, [C]: 100, [D]: -600, [E]: -100 });
    expect(sumOf(net)).toBe(0);
    // Seated first (box, then the line), then who has left.
    expect(s.players.map((p: { playerId: string }) => p.playerId)).toEqual([B, A, E, D, C]);
    expect(s.games.map((x: { gameNo: number; status: string; winnerSide: number | null }) => [x.gameNo, x.status, x.winnerSide])).toEqual([
      [1, 'finished', 1],
      [2, 'finished', 0],
      [3, 'abandoned', null],
      [4, 'voided', 1],
      [5, 'finished', 0],
    ]);
    const listed = (await c.get(`/v1/chouettes/${id}/games`)).body.items;
    expect(listed).toHaveLength(5);
    expect(listed[3]).toMatchObject({ gameNo: 4, status: 'voided', points: null, crawford: false });
  });
  it("a box partner takes his share; rake on each winner's net goes to the house (R5.9, R6.4)", async () => {
    const raked = await c.session({ rakePercent: 5 });
    const res = await c.post('/v1/chouettes', { sessionId: raked, stakeMinor: 100, seating: { order: [A, B, C] }, rules: { partnerFrom: 3 } });
    expect(res.body).toMatchObject({ box: A, partner: null, team: [B, C] });
    const cid = res.body.id as string;
    // 3 seated ≥ partnerFrom: Cleo (after the captain) partners the box; Ben alone is the team.
    // Ben loses a single: pays Anna 100. Box net +100, Cleo's 50 % share: Anna pays her 50.
    // Rake 5 % of each winner's net: Anna 50 → 2 (2.5 rounded down), Cleo 50 → 2.
    const g = await c.post(`/v1/chouettes/${cid}/games`, { actions: [finish(C)] });
    expect(g.body.cubes.map((x: { member: string }) => x.member)).toEqual([B]);
    expect(g.body.payouts).toEqual([
      { from: B, to: A, amountMinor: 100, kind: 'game' },
      { from: A, to: C, amountMinor: 50, kind: 'game' },
      { from: A, to: 'house', amountMinor: 2, kind: 'rake' },
      { from: C, to: 'house', amountMinor: 2, kind: 'rake' },
    ]);
    expect(sumOf(nets(g.body.payouts))).toBe(0);
    // Box kept its seat, so the partner keeps his.
    const after = (await c.get(`/v1/chouettes/${cid}`)).body;
    expect(after).toMatchObject({ box: A, partner: C, captain: B, team: [B] });
  });

  it('voiding a game after everyone who played it has left keeps the newcomer as the box (R6.3, R5.8)', async () => {
    const res = await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [A, B, C] } });
    expect(res.body).toMatchObject({ box: A, team: [B, C] });
    const cid = res.body.id as string;
    // Anna (box) wins a single: Ben and Cleo pay her 100 each; she keeps the box, Ben goes to the back (R5.7).
    const g = await c.post(`/v1/chouettes/${cid}/games`, { actions: [finish(A)] });
    expect(g.body.payouts).toEqual([
      { from: B, to: A, amountMinor: 100, kind: 'game' },
      { from: C, to: A, amountMinor: 100, kind: 'game' },
    ]);
    expect((await c.post(`/v1/chouettes/${cid}/players`, { playerId: E })).body).toMatchObject({ box: A, team: [C, B, E] });
    expect((await del(`/v1/chouettes/${cid}/players/${A}`)).body).toMatchObject({ box: C, team: [B, E] });
    expect((await del(`/v1/chouettes/${cid}/players/${B}`)).body).toMatchObject({ box: C, team: [E] });
    expect((await del(`/v1/chouettes/${cid}/players/${C}`)).body).toMatchObject({ box: E, team: [] });

    const v = await c.post(`/v1/chouettes/${cid}/games/1/void`, { reason: 'Recorded at the wrong table' });
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('voided');
    expect(v.body.payouts.filter((p: { kind: string }) => p.kind === 'void')).toEqual([
      { from: A, to: B, amountMinor: 100, kind: 'void' },
      { from: A, to: C, amountMinor: 100, kind: 'void' },
    ]);
    // Before the game: box Anna, team Ben and Cleo; all three have left since, Eve joined: she stays, alone, as the box.
    expect((await c.get(`/v1/chouettes/${cid}`)).body).toMatchObject({ box: E, partner: null, team: [] });
  });
});
