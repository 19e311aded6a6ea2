import { applyChouetteAction, chouetteGameSetup, ChouetteGameSetup, ChouetteGameState, memberCube, newChouetteGame, replayChouetteGame, undoChouetteAction } from './chouette-game';
import { ChouetteRulesInput, resolveChouetteRules } from './chouette-rules';
import { chouetteGamePayouts, resolveChouetteStakes } from './chouette-money';
import { rotateAfterGame, seatInOrder, seatsAtGameStart } from './chouette-seats';
import { GameAction } from './game';
import { expectRefusal } from './test-helpers';

// Box A, captain B, then C and D.
const A = 'A';
const B = 'B';
const C = 'C';
const D = 'D';
const P = 'P'; // the box's partner where there is one

function setup(rules?: ChouetteRulesInput, partner: string | null = null): ChouetteGameSetup {
  return { rules: resolveChouetteRules(rules), box: A, partner, team: [B, C, D] };
}

const dbl = (by: string, cubes?: string[]): GameAction => ({ type: 'double', by, ...(cubes ? { cubes } : {}) });
const ans = (type: 'take' | 'pass' | 'beaver' | 'raccoon', by: string, cube?: string): GameAction => ({
  type,
  by,
  ...(cube ? { cube } : {}),
});
const take = (by: string, cube?: string) => ans('take', by, cube);
const pass = (by: string, cube?: string) => ans('pass', by, cube);
const beaver = (by: string, cube?: string) => ans('beaver', by, cube);
const raccoon = (by: string, cube?: string) => ans('raccoon', by, cube);
const finish = (winner: string, result: 'single' | 'gammon' | 'backgammon'): GameAction => ({ type: 'finish', winner, result });

function play(s: ChouetteGameSetup, actions: GameAction[], autos = 0): ChouetteGameState {
  return replayChouetteGame(s, actions, autos);
}

/** value/owner/status of each member cube, for compact expectations. */
function cubes(g: ChouetteGameState) {
  return g.cubes.map((c) => ({ m: c.member, v: c.value, o: c.owner, s: c.status, p: c.pending ? c.pending.value : null }));
}

describe('R5.3 a new chouette game', () => {
  it('R5.3/R2.1 one centred cube at 1 per member, team order, captain acting', () => {
    const g = newChouetteGame(setup());
    expect(cubes(g)).toEqual([
      { m: B, v: 1, o: null, s: 'in-play', p: null },
      { m: C, v: 1, o: null, s: 'in-play', p: null },
      { m: D, v: 1, o: null, s: 'in-play', p: null },
    ]);
    expect(g).toMatchObject({ status: 'in-progress', actingCaptain: B, captainOutcome: null, settlement: [] });
  });

  it('R5.10/R2.7 automatic doubles apply to every cube: 2 automatic doubles → every cube 4, centred', () => {
    const g = newChouetteGame(setup({ automaticDoubles: 2 }), 2);
    expect(g.cubes.map((c) => [c.value, c.owner])).toEqual([
      [4, null],
      [4, null],
      [4, null],
    ]);
    expectRefusal(() => newChouetteGame(setup({ automaticDoubles: 1 }), 2), 'TOO_MANY_AUTOMATIC_DOUBLES', 'R2.7');
  });

  it('R5.10/R1.5 after automatic doubles Jacoby still applies per cube: a box gammon at 4 centred is 4 points per cube', () => {
    const g = play(setup({ automaticDoubles: 1 }), [finish(A, 'gammon')], 1);
    // Each cube: 2 (one automatic double) × 1 (centred, Jacoby) = 2.
    expect(g.settlement.map((r) => r.points)).toEqual([2, 2, 2]);
  });

  it('R5.8 a game needs at least one team member', () => {
    expectRefusal(() => newChouetteGame({ ...setup(), team: [] }), 'TOO_FEW_PLAYERS', 'R5.8');
  });

  it('chouetteGameSetup takes the seats after game start (with the partner chosen)', () => {
    const rules = resolveChouetteRules({ partnerFrom: 4 });
    const seats = seatsAtGameStart(seatInOrder([A, B, P, C]), rules);
    expect(chouetteGameSetup(seats, rules)).toEqual({ rules, box: A, partner: P, team: [B, C] });
  });
});

describe('R5.3 per-member cubes', () => {
  it('R5.3 the box doubles a subset; mixed take and pass; finish (worked by hand)', () => {
    // A doubles B and C. B takes (B's cube 2, owned by B), C passes (pays 1, out). D's cube stays 1, centred.
    // A wins a gammon: B's cube owned → 2 × 2 = 4; D's cube centred, Jacoby (R5.6) → 1 × 1 = 1; C passed: 1.
    const g = play(setup(), [dbl(A, [B, C]), take(B), pass(C), finish(A, 'gammon')]);
    expect(g.settlement).toEqual([
      { member: B, winner: 'box', points: 4, endedBy: 'finish' },
      { member: C, winner: 'box', points: 1, endedBy: 'pass' },
      { member: D, winner: 'box', points: 1, endedBy: 'finish' },
    ]);
    expect(g).toMatchObject({ status: 'finished', endedBy: 'finish', winnerSide: 'box', captainOutcome: 'box' });
    expect(g.result).toEqual({ winner: A, result: 'gammon', resigned: false });
  });

  it('R5.3 the box doubling without "cubes" doubles every cube it may double (R2.2), recorded explicitly', () => {
    // A doubles B, B takes: B owns his cube. A then doubles "all": only C and D (centred) may be doubled.
    const g = play(setup(), [dbl(A, [B]), take(B), dbl(A)]);
    expect(cubes(g).map((c) => c.p)).toEqual([null, 2, 2]);
    expect(g.actions[2]).toEqual({ type: 'double', by: A, cubes: [C, D] });
  });

  it('R2.2 the box may not double a cube its member owns; nothing to double at all is refused', () => {
    const g = play(setup(), [dbl(A), take(B), take(C), take(D)]);
    expectRefusal(() => applyChouetteAction(setup(), g, dbl(A, [B])), 'NOT_CUBE_OWNER', 'R2.2');
    const err = expectRefusal(() => applyChouetteAction(setup(), g, dbl(A)), 'NO_CUBE_TO_DOUBLE', 'R2.2');
    expect(err.details).toEqual({ reasons: { B: 'NOT_CUBE_OWNER', C: 'NOT_CUBE_OWNER', D: 'NOT_CUBE_OWNER' } });
  });

  it('R2.2 the cube limit is judged per cube', () => {
    // Limit 2: A doubles B to 2, B takes; B may not redouble to 4.
    const g = play(setup({ cubeLimit: 2 }), [dbl(A, [B]), take(B)]);
    expectRefusal(() => applyChouetteAction(setup({ cubeLimit: 2 }), g, dbl(B)), 'CUBE_LIMIT_EXCEEDED', 'R2.2');
    // C's cube is still at 1: C may double it.
    expect(memberCube(applyChouetteAction(setup({ cubeLimit: 2 }), g, dbl(C)), C)?.pending?.value).toBe(2);
  });

  it('R5.3 a member doubles only his own cube', () => {
    const g = play(setup(), [dbl(C)]);
    expect(cubes(g).map((c) => c.p)).toEqual([null, 2, null]);
    expect(g.actions[0]).toEqual({ type: 'double', by: C, cubes: [C] });
    expect(play(setup(), [dbl(C, [C])]).cubes).toEqual(g.cubes);
    expectRefusal(() => play(setup(), [dbl(C, [B])]), 'NOT_OWN_CUBE', 'R5.3');
    expectRefusal(() => play(setup(), [dbl(C, [C, D])]), 'NOT_OWN_CUBE', 'R5.3');
  });

  it('R5.3 named cubes must be members, each once, at least one', () => {
    expectRefusal(() => play(setup(), [dbl(A, ['Z'])]), 'UNKNOWN_CUBE', 'R5.3');
    expectRefusal(() => play(setup(), [dbl(A, [B, B])]), 'DUPLICATE_CUBE', 'R5.3');
    expectRefusal(() => play(setup(), [dbl(A, [])]), 'NO_CUBES_NAMED', 'R5.3');
  });

  it('R5.3 every addressed member answers for himself, only for his own cube', () => {
    const g = play(setup(), [dbl(A, [B, C])]);
    expectRefusal(() => applyChouetteAction(setup(), g, take(B, C)), 'NOT_OWN_CUBE', 'R5.3');
    expectRefusal(() => applyChouetteAction(setup(), g, take(D)), 'NO_OFFER_PENDING', 'R2.3');
    expectRefusal(() => applyChouetteAction(setup(), g, take(A, B)), 'NOT_DOUBLED_PARTY', 'R2.6');
  });

  it('R5.3 the box answers each double separately; "cube" may be omitted only while one offer to the box is pending', () => {
    const g = play(setup(), [dbl(B), dbl(C)]);
    const err = expectRefusal(() => applyChouetteAction(setup(), g, take(A)), 'CUBE_NOT_NAMED', 'R5.3');
    expect(err.details).toEqual({ pending: [B, C] });
    const g2 = play(setup(), [dbl(B), dbl(C), take(A, C), pass(A)]);
    // The last pass went to B's cube: the only offer left pending.
    expect(g2.actions[3]).toEqual({ type: 'pass', by: A, cube: B });
    expect(cubes(g2)).toEqual([
      { m: B, v: 1, o: null, s: 'passed', p: null },
      { m: C, v: 2, o: A, s: 'in-play', p: null },
      { m: D, v: 1, o: null, s: 'in-play', p: null },
    ]);
    expectRefusal(() => applyChouetteAction(setup(), newChouetteGame(setup()), take(A)), 'NO_OFFER_PENDING', 'R2.3');
  });

  it("R5.4 the box passing a member's double pays him the pre-double value; the game goes on; captain beats box", () => {
    // B (captain) doubles 1 → 2, A passes: B wins 1. The game goes on for C and D; A wins a single: 1 each.
    const g1 = play(setup(), [dbl(B), pass(A)]);
    expect(g1).toMatchObject({ status: 'in-progress', captainOutcome: 'captain', actingCaptain: C });
    const g = applyChouetteAction(setup(), g1, finish(A, 'single'));
    expect(g.settlement).toEqual([
      { member: B, winner: 'member', points: 1, endedBy: 'pass' },
      { member: C, winner: 'box', points: 1, endedBy: 'finish' },
      { member: D, winner: 'box', points: 1, endedBy: 'finish' },
    ]);
    // R5.7: decided by the captain's cube, whatever happened to the other cubes.
    expect(g.captainOutcome).toBe('captain');
    expect(rotateAfterGame(seatInOrder([A, B, C, D]), g.captainOutcome!, { partnerFrom: null })).toEqual(seatInOrder([B, C, D, A]));
  });

  it("R5.4 the captain passes: the next member still in becomes acting captain; rotation still follows the captain's cube", () => {
    // A doubles everyone; B (captain) passes → box beats captain; C acts. C and D take; C wins a gammon for the team.
    const g1 = play(setup(), [dbl(A), pass(B)]);
    expect(g1).toMatchObject({ actingCaptain: C, captainOutcome: 'box' });
    const g = play(setup(), [dbl(A), pass(B), take(C), take(D), finish(C, 'gammon')]);
    // B pays 1; C and D own their cubes at 2: 2 × 2 = 4 each from the box.
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'box', 1],
      [C, 'member', 4],
      [D, 'member', 4],
    ]);
    expect(g.captainOutcome).toBe('box');
    // R5.7 box beats captain: A stays; B to the end; C captain.
    expect(rotateAfterGame(seatInOrder([A, B, C, D]), g.captainOutcome!, { partnerFrom: null })).toEqual(seatInOrder([A, C, D, B]));
  });

  it('R5.4 a member who passed is out: he can neither double nor answer', () => {
    const g = play(setup(), [dbl(A), pass(C)]);
    expectRefusal(() => applyChouetteAction(setup(), g, dbl(C)), 'MEMBER_OUT', 'R5.4');
    expectRefusal(() => applyChouetteAction(setup(), g, take(C)), 'MEMBER_OUT', 'R5.4');
    expectRefusal(() => applyChouetteAction(setup(), g, dbl(A, [C])), 'MEMBER_OUT', 'R5.4');
  });

  it('R5.4 when no cube is left in play the game is over', () => {
    const g = play(setup(), [dbl(A), pass(B), pass(C), pass(D)]);
    expect(g).toMatchObject({ status: 'finished', endedBy: 'passes', result: null, actingCaptain: null, captainOutcome: 'box' });
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'box', 1],
      [C, 'box', 1],
      [D, 'box', 1],
    ]);
    expectRefusal(() => applyChouetteAction(setup(), g, finish(A, 'single')), 'GAME_FINISHED', 'R5.4');
    expectRefusal(() => applyChouetteAction(setup(), g, dbl(A)), 'GAME_FINISHED', 'R2.2');
  });

  it('R2.6 no double the other way while a double waits for its answer; no finish while one waits', () => {
    const g = play(setup(), [dbl(B)]);
    expectRefusal(() => applyChouetteAction(setup(), g, dbl(A, [C])), 'OFFER_PENDING', 'R2.6');
    // Another member may still double the box (same turn).
    expect(applyChouetteAction(setup(), g, dbl(C)).cubes[1].pending?.value).toBe(2);
    const g2 = play(setup(), [dbl(A, [B])]);
    expectRefusal(() => applyChouetteAction(setup(), g2, dbl(C)), 'OFFER_PENDING', 'R2.6');
    expectRefusal(() => applyChouetteAction(setup(), g2, finish(A, 'single')), 'OFFER_PENDING', 'R2.6');
  });

  it('R5.2 only the players of the game act; the partner may act for the box; the cube belongs to the box', () => {
    const s = setup({}, P);
    expectRefusal(() => play(s, [dbl('Z')]), 'NOT_IN_GAME', 'R5.2');
    expectRefusal(() => play(s, [finish('Z', 'single')]), 'NOT_IN_GAME', 'R5.2');
    const g = play(s, [dbl(P, [B]), take(B), dbl(C), take(P)]);
    expect(g.actions[0]).toEqual({ type: 'double', by: P, cubes: [B] });
    expect(memberCube(g, C)).toMatchObject({ value: 2, owner: A });
    const won = applyChouetteAction(s, g, finish(P, 'single'));
    expect(won).toMatchObject({ winnerSide: 'box', captainOutcome: 'box' });
  });

  it("R5.6 Jacoby per member cube: a gammon counts only where that member's cube has an owner", () => {
    // A doubles B, B takes (owner B, 2). C wins a gammon for the team:
    // B: 2 × 2 = 4; C and D centred: 1 × 1 = 1 each.
    const g = play(setup(), [dbl(A, [B]), take(B), finish(C, 'gammon')]);
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'member', 4],
      [C, 'member', 1],
      [D, 'member', 1],
    ]);
    expect(g.captainOutcome).toBe('captain');
    // Jacoby off: centred gammons count: 1 × 2 = 2.
    const off = play(setup({ jacoby: false }), [dbl(A, [B]), take(B), finish(C, 'gammon')]);
    expect(off.settlement.map((r) => r.points)).toEqual([4, 2, 2]);
    // Backgammon × 2 setting: B's cube 2 × 2 = 4, the others 1 × 2 = 2.
    const bg2 = play(setup({ jacoby: false, backgammonMultiplier: 2 }), [dbl(A, [B]), take(B), finish(C, 'backgammon')]);
    expect(bg2.settlement.map((r) => r.points)).toEqual([4, 2, 2]);
  });

  it('R5.10/R2.4 beavers per cube (worked by hand)', () => {
    // Beavers on. A doubles all at 1. B beavers (B's cube shows 2, owner B, pending 4 by B); C takes (2, owner C);
    // D passes (1 to the box). A answers the beaver (only offer to the box, cube may be omitted): take → B's cube 4, owner B.
    // B wins a gammon: B 4 × 2 = 8; C 2 × 2 = 4; D paid 1.
    const s = setup({ beavers: true });
    const mid = play(s, [dbl(A), beaver(B), take(C), pass(D)]);
    expect(cubes(mid)).toEqual([
      { m: B, v: 2, o: B, s: 'in-play', p: 4 },
      { m: C, v: 2, o: C, s: 'in-play', p: null },
      { m: D, v: 1, o: null, s: 'passed', p: null },
    ]);
    const g = play(s, [dbl(A), beaver(B), take(C), pass(D), take(A), finish(B, 'gammon')]);
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'member', 8],
      [C, 'member', 4],
      [D, 'box', 1],
    ]);
  });

  it('R2.4 the box passing a beaver pays 2 × the pre-double value on that cube only', () => {
    const s = setup({ beavers: true });
    const g = play(s, [dbl(A, [C]), beaver(C), pass(A, C)]);
    expect(memberCube(g, C)?.passed).toEqual({ by: A, winnerParty: 1, points: 2 });
    expect(g.status).toBe('in-progress');
    expectRefusal(() => play(setup(), [dbl(A, [C]), beaver(C)]), 'BEAVERS_NOT_ALLOWED', 'R2.4');
  });

  it("R2.5 raccoons per cube: the box raccoons one member's beaver", () => {
    const s = setup({ beavers: true, raccoons: true });
    // A doubles C at 1; C beavers (4); A raccoons (8); C takes: cube 8 owned by C.
    const g = play(s, [dbl(A, [C]), beaver(C), raccoon(A), take(C)]);
    expect(memberCube(g, C)).toMatchObject({ value: 8, owner: C, pending: null });
  });

  it('undo takes back the last action by replay; refusals leave the state deep-equal', () => {
    const s = setup();
    const g = play(s, [dbl(A), pass(B)]);
    expect(undoChouetteAction(s, g)).toEqual(play(s, [dbl(A)]));
    const copy = JSON.parse(JSON.stringify(g));
    expectRefusal(() => applyChouetteAction(s, g, take(B)), 'MEMBER_OUT', 'R5.4');
    expect(g).toEqual(copy);
    expectRefusal(() => undoChouetteAction(s, newChouetteGame(s)), 'NOTHING_TO_UNDO', null);
  });

  it('R1.1/R1.4 a finish needs a valid result; resigned is recorded', () => {
    expectRefusal(() => play(setup(), [{ type: 'finish', winner: A, result: 'double' } as never]), 'INVALID_RESULT', 'R1.1');
    expectRefusal(() => play(setup(), [{ type: 'finish', winner: A, result: 'single', resigned: 'yes' } as never]), 'INVALID_RESULT', 'R1.4');
    const g = play(setup(), [{ type: 'finish', winner: D, result: 'gammon', resigned: true }]);
    expect(g.result).toEqual({ winner: D, result: 'gammon', resigned: true });
    expectRefusal(() => play(setup(), [{ type: 'jump', by: A } as never]), 'INVALID_ACTION', null);
  });
});

describe('R5.3 single team cube', () => {
  const single = (r: ChouetteRulesInput = {}) => setup({ cubes: 'single', ...r });

  it('R5.3 only the acting captain doubles, for every member still in; the box takes once', () => {
    expectRefusal(() => play(single(), [dbl(C)]), 'NOT_ACTING_CAPTAIN', 'R5.3');
    const g1 = play(single(), [dbl(B)]);
    expect(cubes(g1).map((c) => c.p)).toEqual([2, 2, 2]);
    expect(g1.actions[0]).toEqual({ type: 'double', by: B });
    // The box takes once for the team cube: every cube 2, owned by the box.
    // A wins a gammon: each cube owned → 2 × 2 = 4 from each member.
    const g = play(single(), [dbl(B), take(A), finish(A, 'gammon')]);
    expect(cubes(g).map((c) => [c.v, c.o])).toEqual([
      [2, A],
      [2, A],
      [2, A],
    ]);
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'box', 4],
      [C, 'box', 4],
      [D, 'box', 4],
    ]);
  });

  it('R5.3 the box passes the team cube: every member still in wins the pre-double value and the game ends', () => {
    const g = play(single(), [dbl(B), pass(A)]);
    expect(g).toMatchObject({ status: 'finished', endedBy: 'passes', captainOutcome: 'captain' });
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'member', 1],
      [C, 'member', 1],
      [D, 'member', 1],
    ]);
  });

  it('R5.3/R5.4 the box doubles: each member answers for himself, take or pass, no beaver alone', () => {
    const s = single({ beavers: true });
    // A doubles; B (captain) passes → out, C acting captain; D may not beaver alone; C and D take (2, team's).
    expectRefusal(() => play(s, [dbl(A), beaver(D)]), 'NO_BEAVER_ALONE', 'R5.3');
    const g1 = play(s, [dbl(A), pass(B), take(C), take(D)]);
    expect(g1).toMatchObject({ actingCaptain: C, captainOutcome: 'box' });
    expect(cubes(g1).map((c) => [c.v, c.s])).toEqual([
      [1, 'passed'],
      [2, 'in-play'],
      [2, 'in-play'],
    ]);
    // The team redoubles through its acting captain C (not D): cubes of C and D 2 → 4; the box takes.
    expectRefusal(() => applyChouetteAction(s, g1, dbl(D)), 'NOT_ACTING_CAPTAIN', 'R5.3');
    // D wins a single: box pays C 4 and D 4; B paid 1 when he passed.
    const g = play(s, [dbl(A), pass(B), take(C), take(D), dbl(C), take(A), finish(D, 'single')]);
    expect(g.settlement.map((r) => [r.member, r.winner, r.points])).toEqual([
      [B, 'box', 1],
      [C, 'member', 4],
      [D, 'member', 4],
    ]);
    // Rotation: box beat captain B (his pass) although the team won.
    expect(g.captainOutcome).toBe('box');
  });

  it('R5.3 the box double addresses every member still in: a subset is refused', () => {
    expectRefusal(() => play(single(), [dbl(A, [B])]), 'SINGLE_TEAM_CUBE', 'R5.3');
    expect(play(single(), [dbl(A, [D, C, B])]).cubes.every((c) => c.pending?.value === 2)).toBe(true);
  });

  it('R5.3 the box beavers the team cube: the acting captain answers for the team', () => {
    const s = single({ beavers: true });
    const g1 = play(s, [dbl(B), beaver(A)]);
    expect(cubes(g1).map((c) => [c.v, c.o, c.p])).toEqual([
      [2, A, 4],
      [2, A, 4],
      [2, A, 4],
    ]);
    expectRefusal(() => applyChouetteAction(s, g1, take(C)), 'NOT_ACTING_CAPTAIN', 'R5.3');
    // B takes for the team: every cube 4, owned by the box. A wins single: 4 from each.
    const g = play(s, [dbl(B), beaver(A), take(B), finish(A, 'single')]);
    expect(g.settlement.map((r) => r.points)).toEqual([4, 4, 4]);
    // B passes for the team instead: each member pays 2 × the pre-double value 1 = 2; the game is over.
    const p = play(s, [dbl(B), beaver(A), pass(B)]);
    expect(p).toMatchObject({ status: 'finished', endedBy: 'passes' });
    expect(p.settlement.map((r) => [r.winner, r.points])).toEqual([
      ['box', 2],
      ['box', 2],
      ['box', 2],
    ]);
  });

  it('R2.5 single mode raccoon: the acting captain raccoons, the box answers once', () => {
    const s = single({ beavers: true, raccoons: true });
    const g = play(s, [dbl(B), beaver(A), raccoon(B), take(A)]);
    expect(cubes(g).map((c) => [c.v, c.o])).toEqual([
      [8, A],
      [8, A],
      [8, A],
    ]);
  });
});

describe('R5.7/R5.9 a whole game with a box partner (worked by hand)', () => {
  it('R5.9 partner chosen at start; the captain beats the box; money split; seats rotate', () => {
    const E = 'E';
    const rules = resolveChouetteRules({ partnerFrom: 5 });
    // 5 seated in order A B C D E: A box, B captain; C (after the captain) becomes partner; team B D E.
    const start = seatsAtGameStart(seatInOrder([A, B, C, D, E]), rules);
    expect(start).toEqual({ box: A, partner: C, line: [B, D, E], partnerLeft: false });
    const s = chouetteGameSetup(start, rules);
    // B doubles, A passes: B wins 1. The box then wins a single against D and E: 1 each.
    const g = play(s, [dbl(B), pass(A), finish(C, 'single')]);
    expect(g.captainOutcome).toBe('captain');
    // At 100: A pays B 100; D and E pay A 100 each; box net +100; partner C takes 50 % = 50.
    expect(chouetteGamePayouts(s, g, { stakes: resolveChouetteStakes(100) })).toEqual([
      { from: A, to: B, amountMinor: 100 },
      { from: D, to: A, amountMinor: 100 },
      { from: E, to: A, amountMinor: 100 },
      { from: A, to: C, amountMinor: 50 },
    ]);
    // Captain beats box: B box; old box A to the end; partner C captain; next in line D partner; team C E A.
    expect(rotateAfterGame(start, g.captainOutcome!, rules)).toEqual({ box: B, partner: D, line: [C, E, A], partnerLeft: false });
  });
});

describe('R3.10 resignation records in a chouette', () => {
  it('R3.10 the box side resigns to the team: offered by the box or his partner, not by a member', () => {
    const g = play(setup({}, P), [{ type: 'finish', winner: C, result: 'gammon', resigned: true, offeredBy: P }]);
    expect(g.result).toEqual({ winner: C, result: 'gammon', resigned: true, offeredBy: P });
    expectRefusal(() => play(setup(), [{ type: 'finish', winner: C, result: 'gammon', resigned: true, offeredBy: B }]), 'INVALID_RESIGNATION', 'R3.10');
    expectRefusal(() => play(setup(), [{ type: 'finish', winner: A, result: 'single', offeredBy: B }]), 'INVALID_RESIGNATION', 'R3.10');
  });

  it('R3.10 a refused offer is recorded by a seated player and changes no cube', () => {
    const before = play(setup(), [dbl(B), take(A)]);
    const after = applyChouetteAction(setup(), before, { type: 'resign-refused', by: A, result: 'gammon' });
    expect(after).toEqual({ ...before, actions: [...before.actions, { type: 'resign-refused', by: A, result: 'gammon' }] });
    expect(undoChouetteAction(setup(), after)).toEqual(before);
    expectRefusal(() => applyChouetteAction(setup(), before, { type: 'resign-refused', by: 'Z', result: 'single' }), 'NOT_IN_GAME', 'R5.2');
    expectRefusal(() => applyChouetteAction(setup(), before, { type: 'resign-refused', by: A, result: 'mars' }), 'RESULT_NOT_IN_VARIANT', 'R8.10');
  });
});
