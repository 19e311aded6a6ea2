import { possibleAnswers } from './cube';
import { applyAction, GameAction, GameSetup, newGame, replay, undoLastAction } from './game';
import { createMatch, nextMatchGameSetup, scoreMatch } from './match';
import { createMoneyTable, moneyGameSetup } from './money-game';
import { MoneyRulesInput } from './rules';
import { expectRefusal } from './test-helpers';

const A = 'alice';
const B = 'bob';
const C = 'carol';
const D = 'dave';
const STRANGER = 'stranger';

function money(rules?: MoneyRulesInput): GameSetup {
  return moneyGameSetup(createMoneyTable({ players: [A, B], stakeMinor: 100, rules }));
}

/** A 7-point match game at 0-0 between single players (or pairs). */
function matchGame(sides: string[][] = [[A], [B]]): GameSetup {
  const match = createMatch({ sides, target: 7 });
  return nextMatchGameSetup(match, scoreMatch(match, []));
}

const dbl = (by: string): GameAction => ({ type: 'double', by });
const take = (by: string): GameAction => ({ type: 'take', by });
const pass = (by: string): GameAction => ({ type: 'pass', by });
const beaver = (by: string): GameAction => ({ type: 'beaver', by });
const raccoon = (by: string): GameAction => ({ type: 'raccoon', by });
const finish = (winner: string, result: 'single' | 'gammon' | 'backgammon', resigned?: boolean): GameAction => ({
  type: 'finish',
  winner,
  result,
  ...(resigned === undefined ? {} : { resigned }),
});

describe('R2.1 a new game', () => {
  it('R2.1 starts with the cube centred at 1, in play, no offer', () => {
    const g = newGame(money());
    expect(g.status).toBe('in-progress');
    expect(g.cubes).toEqual([{ member: null, value: 1, owner: null, ownerParty: null, status: 'in-play', pending: null, passed: null }]);
    expect(g.points).toBeNull();
    expect(g.settlement).toEqual([]);
  });
});

describe('R1.1 points = cube value × result multiplier', () => {
  it('R1.1 a single at cube 1 is worth 1 point (1 × 1)', () => {
    const g = replay(matchGame(), [finish(B, 'single')]);
    expect(g).toMatchObject({ status: 'finished', endedBy: 'finish', winnerSide: 1, points: 1 });
    expect(g.result).toEqual({ winner: B, result: 'single', resigned: false });
    expect(g.settlement).toEqual([{ from: [A], to: [B], points: 1, cube: null }]);
    expect(g.cubes[0].status).toBe('finished');
  });

  it('R1.1 a gammon on a taken cube of 2 is worth 4 points (2 × 2)', () => {
    const g = replay(money(), [dbl(A), take(B), finish(A, 'gammon')]);
    expect(g.points).toBe(4);
    expect(g.settlement).toEqual([{ from: [B], to: [A], points: 4, cube: null }]);
  });

  it('R1.1 either player of a pair may name the winner (R3.7)', () => {
    const g = replay(
      matchGame([
        [A, C],
        [B, D],
      ]),
      [finish(D, 'gammon')],
    );
    // match: no Jacoby; cube 1 × gammon 2 = 2
    expect(g).toMatchObject({ winnerSide: 1, points: 2 });
    expect(g.settlement).toEqual([{ from: [A, C], to: [B, D], points: 2, cube: null }]);
  });

  it('R1.1 refuses a result that is not single, gammon or backgammon', () => {
    expectRefusal(() => applyAction(money(), newGame(money()), { type: 'finish', winner: A, result: 'triple' as never }), 'INVALID_RESULT', 'R1.1');
  });
});

describe('R1.2 backgammonMultiplier', () => {
  it('R1.2 default 3: a backgammon on a taken cube of 2 is 6 points (2 × 3)', () => {
    expect(replay(money(), [dbl(B), take(A), finish(B, 'backgammon')]).points).toBe(6);
  });
  it('R1.2 setting 2: the same backgammon is 4 points (2 × 2)', () => {
    expect(replay(money({ backgammonMultiplier: 2 }), [dbl(B), take(A), finish(B, 'backgammon')]).points).toBe(4);
  });
  it('R1.2 in a match: a backgammon at cube 1 is 3 points (1 × 3)', () => {
    expect(replay(matchGame(), [finish(A, 'backgammon')]).points).toBe(3);
  });
});

describe('R1.3 a pass ends the game; the doubler wins the pre-double value', () => {
  it('R1.3 double from 1 passed: the doubler wins 1', () => {
    const g = replay(money(), [dbl(A), pass(B)]);
    expect(g).toMatchObject({ status: 'finished', endedBy: 'pass', winnerSide: 0, points: 1, result: null });
    expect(g.cubes[0]).toMatchObject({ status: 'passed', value: 1, pending: null, passed: { by: B, winnerParty: 0, points: 1 } });
    expect(g.settlement).toEqual([{ from: [B], to: [A], points: 1, cube: null }]);
  });

  it('R1.3 redouble from 4 passed: the doubler wins 4, no multiplier', () => {
    // 1 → 2 (B owns) → 4 (A owns) → offered 8, passed: A wins 4
    const g = replay(money(), [dbl(B), take(A), dbl(A), take(B), dbl(B), pass(A)]);
    expect(g).toMatchObject({ winnerSide: 1, points: 4 });
  });

  it('R1.3 nothing is recorded after a pass', () => {
    const g = replay(money(), [dbl(A), pass(B)]);
    expectRefusal(() => applyAction(money(), g, finish(A, 'gammon')), 'GAME_FINISHED', 'R1.3');
    expectRefusal(() => applyAction(money(), g, take(B)), 'GAME_FINISHED', 'R1.3');
  });
});

describe('R1.4 resignation', () => {
  it('R1.4 a resigned gammon scores like a gammon: cube 2 owned × 2 = 4', () => {
    const g = replay(money(), [dbl(A), take(B), finish(B, 'gammon', true)]);
    expect(g.result).toEqual({ winner: B, result: 'gammon', resigned: true });
    expect(g.points).toBe(4);
  });
  it('R1.4 resigned must be true or false', () => {
    expectRefusal(() => applyAction(money(), newGame(money()), { type: 'finish', winner: A, result: 'single', resigned: 'yes' as never }), 'INVALID_RESULT', 'R1.4');
  });
});

describe('R1.5 Jacoby', () => {
  it('R1.5 on (money default): a gammon with the cube centred at 1 counts single: 1 × 1 = 1', () => {
    expect(replay(money(), [finish(A, 'gammon')]).points).toBe(1);
  });
  it('R1.5 a backgammon with the cube centred counts single too: 1 × 1 = 1', () => {
    expect(replay(money(), [finish(A, 'backgammon')]).points).toBe(1);
  });
  it('R1.5 off: a gammon with the cube centred counts: 1 × 2 = 2', () => {
    expect(replay(money({ jacoby: false }), [finish(A, 'gammon')]).points).toBe(2);
  });
  it('R1.5 after automatic doubles the cube is still centred: 2 × 1 = 2 for a gammon', () => {
    const setup = money({ automaticDoubles: 1 });
    expect(replay(setup, [finish(A, 'gammon')], 1).points).toBe(2);
  });
  it('R1.5 a take gives the cube an owner: gammon counts, 2 × 2 = 4', () => {
    expect(replay(money(), [dbl(A), take(B), finish(A, 'gammon')]).points).toBe(4);
  });
  it('R1.5 a beaver gives the cube an owner: after the beaver is taken, 4 × 2 = 8 for a gammon', () => {
    const g = replay(money({ beavers: true }), [dbl(A), beaver(B), take(A), finish(A, 'gammon')]);
    expect(g.points).toBe(8);
  });
  it('R1.5 a double that is not yet answered does not give an owner (the game cannot end then anyway, R2.6)', () => {
    const g = replay(money(), [dbl(A)]);
    expect(g.cubes[0].owner).toBeNull();
  });
});

describe('R2.2 who may double', () => {
  it('R2.2 either side may double a centred cube', () => {
    expect(replay(money(), [dbl(A)]).cubes[0].pending).toEqual({
      by: A,
      byParty: 0,
      value: 2,
      kind: 'double',
      receiver: 1,
      redoubles: 0,
    });
    expect(replay(money(), [dbl(B)]).cubes[0].pending).toMatchObject({ by: B, value: 2 });
  });

  it('R2.2 while pending, the cube shows its value and owner before the offer', () => {
    const g = replay(money(), [dbl(A), take(B), dbl(B)]);
    expect(g.cubes[0]).toMatchObject({ value: 2, owner: B, pending: { by: B, value: 4, kind: 'double' } });
  });

  it('R2.2 only the owner may redouble', () => {
    const g = replay(money(), [dbl(A), take(B)]);
    const e = expectRefusal(() => applyAction(money(), g, dbl(A)), 'NOT_CUBE_OWNER', 'R2.2');
    expect(e.message).toContain('R2.2');
    expect(applyAction(money(), g, dbl(B)).cubes[0].pending?.value).toBe(4);
  });

  it('R2.2 the doubled value may not exceed cubeLimit (limit 4: 1 → 2 → 4, then 8 refused)', () => {
    const setup = money({ cubeLimit: 4 });
    const g = replay(setup, [dbl(A), take(B), dbl(B), take(A)]);
    expect(g.cubes[0].value).toBe(4);
    expectRefusal(() => applyAction(setup, g, dbl(A)), 'CUBE_LIMIT_EXCEEDED', 'R2.2');
  });

  it('R2.2 the limit counts automatic doubles: limit 4 with 2 automatic doubles starts at 4 and cannot be doubled', () => {
    const setup = money({ cubeLimit: 4, automaticDoubles: 2 });
    const g = newGame(setup, 2);
    expect(g.cubes[0].value).toBe(4); // 2^2
    expectRefusal(() => applyAction(setup, g, dbl(A)), 'CUBE_LIMIT_EXCEEDED', 'R2.2');
  });

  it('R2.2 with no limit the cube still stops at 2^50 (R6.2 arithmetic)', () => {
    const setup = money({ cubeLimit: null });
    const actions: GameAction[] = [];
    // 50 doubles, alternately A and B: 1 → 2^50
    for (let i = 0; i < 50; i++) {
      const [doubler, taker] = i % 2 === 0 ? [A, B] : [B, A];
      actions.push(dbl(doubler), take(taker));
    }
    const g = replay(setup, actions);
    expect(g.cubes[0].value).toBe(2 ** 50);
    expectRefusal(() => applyAction(setup, g, dbl(A)), 'CUBE_LIMIT_EXCEEDED', 'R2.2');
  });

  it('R2.2 no double once the game is over', () => {
    const g = replay(money(), [finish(A, 'single')]);
    expectRefusal(() => applyAction(money(), g, dbl(A)), 'GAME_FINISHED', 'R2.2');
    expectRefusal(() => applyAction(money(), g, finish(B, 'single')), 'GAME_FINISHED', 'R1.1');
  });
});

describe('R2.3 take', () => {
  it('R2.3 a take doubles the value and gives the taker the cube', () => {
    const g = replay(money(), [dbl(A), take(B)]);
    expect(g.cubes[0]).toMatchObject({ value: 2, owner: B, ownerParty: 1, pending: null, status: 'in-play' });
  });
  it('R2.3 nothing to answer without an offer', () => {
    expectRefusal(() => applyAction(money(), newGame(money()), take(B)), 'NO_OFFER_PENDING', 'R2.3');
    expectRefusal(() => applyAction(money(), newGame(money()), pass(B)), 'NO_OFFER_PENDING', 'R2.3');
  });
});

describe('R2.4 beaver', () => {
  const setup = money({ beavers: true });

  it('R2.4 after a beaver the cube shows twice the pre-double value, owned by the beaverer; a take makes it 4×', () => {
    const g = replay(setup, [dbl(A), beaver(B)]);
    // pre-double 1: shown 2 × 1 = 2, pending 4 × 1 = 4
    expect(g.cubes[0]).toMatchObject({ value: 2, owner: B, ownerParty: 1, pending: { by: B, value: 4, kind: 'beaver' } });
  });

  it('R2.4 the original doubler answers; a take plays on at 4 with the beaverer keeping the cube', () => {
    const g = replay(setup, [dbl(A), beaver(B), take(A)]);
    expect(g.cubes[0]).toMatchObject({ value: 4, owner: B, ownerParty: 1, pending: null });
    expectRefusal(() => applyAction(setup, g, dbl(A)), 'NOT_CUBE_OWNER', 'R2.2');
    expect(applyAction(setup, g, dbl(B)).cubes[0].pending?.value).toBe(8);
  });

  it('R2.4 a pass after a beaver pays 2 × the pre-double value (pre-double 1: 2 points)', () => {
    const g = replay(setup, [dbl(A), beaver(B), pass(A)]);
    expect(g).toMatchObject({ status: 'finished', endedBy: 'pass', winnerSide: 1, points: 2 });
    expect(g.settlement).toEqual([{ from: [A], to: [B], points: 2, cube: null }]);
  });

  it('R2.4 beaver of a redouble from 2: pass pays 2 × 2 = 4, take plays on at 4 × 2 = 8', () => {
    const start: GameAction[] = [dbl(B), take(A), dbl(A), beaver(B)];
    expect(replay(setup, start).cubes[0]).toMatchObject({ value: 4, owner: B, pending: { by: B, value: 8 } });
    expect(replay(setup, [...start, pass(A)]).points).toBe(4);
    expect(replay(setup, [...start, take(A)]).cubes[0]).toMatchObject({ value: 8, owner: B });
  });

  it('R2.4 only the doubled player may beaver (R2.6)', () => {
    const g = replay(setup, [dbl(A)]);
    expectRefusal(() => applyAction(setup, g, beaver(A)), 'NOT_DOUBLED_PARTY', 'R2.6');
  });

  it('R2.4 beavers are off by default', () => {
    const g = replay(money(), [dbl(A)]);
    const e = expectRefusal(() => applyAction(money(), g, beaver(B)), 'BEAVERS_NOT_ALLOWED', 'R2.4');
    expect(e.message).toMatch(/Beavers are off/);
  });

  it('R2.4 a beaver answers a double, not a beaver', () => {
    const g = replay(money({ beavers: true, raccoons: true }), [dbl(A), beaver(B)]);
    expectRefusal(() => applyAction(setup, g, beaver(A)), 'WRONG_INSTANT_REDOUBLE', 'R2.4');
  });

  it('R2.4 the beaver counts against the cube limit (limit 4: beaver of a double to 4 would make 8)', () => {
    const limited = money({ beavers: true, cubeLimit: 4 });
    expect(replay(limited, [dbl(A), beaver(B)]).cubes[0].pending?.value).toBe(4);
    const g = replay(limited, [dbl(A), take(B), dbl(B)]);
    expectRefusal(() => applyAction(limited, g, beaver(A)), 'CUBE_LIMIT_EXCEEDED', 'R2.2');
  });
});

describe('R2.5 raccoon', () => {
  const setup = money({ beavers: true, raccoons: true });

  it('R2.5 after a raccoon: shown 4 × pre-double owned by the beaverer, a take makes it 8×', () => {
    const g = replay(setup, [dbl(A), beaver(B), raccoon(A)]);
    // pre-double 1: shown 4, pending 8
    expect(g.cubes[0]).toMatchObject({ value: 4, owner: B, ownerParty: 1, pending: { by: A, value: 8, kind: 'raccoon' } });
  });

  it('R2.5 the original receiver answers; on a take the cube ends with him at 8', () => {
    const g = replay(setup, [dbl(A), beaver(B), raccoon(A), take(B)]);
    expect(g.cubes[0]).toMatchObject({ value: 8, owner: B, ownerParty: 1, pending: null });
    // gammon: 8 × 2 = 16
    expect(applyAction(setup, g, finish(A, 'gammon')).points).toBe(16);
  });

  it('R2.5 a pass by the receiver pays 4 × the pre-double value (pre-double 2: 8 points)', () => {
    const g = replay(setup, [dbl(B), take(A), dbl(A), beaver(B), raccoon(A), pass(B)]);
    expect(g).toMatchObject({ endedBy: 'pass', winnerSide: 0, points: 8 });
  });

  it('R2.5 only the original doubler may raccoon (R2.6)', () => {
    const g = replay(setup, [dbl(A), beaver(B)]);
    expectRefusal(() => applyAction(setup, g, raccoon(B)), 'NOT_DOUBLED_PARTY', 'R2.6');
  });

  it('R2.5 a raccoon answers a beaver, not a double', () => {
    const g = replay(setup, [dbl(A)]);
    expectRefusal(() => applyAction(setup, g, raccoon(B)), 'WRONG_INSTANT_REDOUBLE', 'R2.5');
  });

  it('R2.5 raccoons off (beavers on): maxInstantRedoubles is 1', () => {
    const beaversOnly = money({ beavers: true });
    const g = replay(beaversOnly, [dbl(A), beaver(B)]);
    expectRefusal(() => applyAction(beaversOnly, g, raccoon(A)), 'RACCOONS_NOT_ALLOWED', 'R2.5');
  });

  it('R2.5 instant redoubles stop after the raccoon (maxInstantRedoubles 2): no beaver back', () => {
    const g = replay(setup, [dbl(A), beaver(B), raccoon(A)]);
    expectRefusal(() => applyAction(setup, g, beaver(B)), 'WRONG_INSTANT_REDOUBLE', 'R2.4');
    expectRefusal(() => applyAction(setup, g, raccoon(B)), 'WRONG_INSTANT_REDOUBLE', 'R2.5');
  });

  it('R2.5 the raccoon counts against the cube limit (limit 4: raccoon to 8 refused)', () => {
    const limited = money({ beavers: true, raccoons: true, cubeLimit: 4 });
    const g = replay(limited, [dbl(A), beaver(B)]);
    expectRefusal(() => applyAction(limited, g, raccoon(A)), 'CUBE_LIMIT_EXCEEDED', 'R2.2');
  });
});

describe('R2.6 offers and answers', () => {
  it('R2.6 an answer must come from the doubled party', () => {
    const g = replay(money(), [dbl(A)]);
    const e = expectRefusal(() => applyAction(money(), g, take(A)), 'NOT_DOUBLED_PARTY', 'R2.6');
    expect(e.message).toContain('R2.6');
    expectRefusal(() => applyAction(money(), g, pass(A)), 'NOT_DOUBLED_PARTY', 'R2.6');
  });

  it('R2.6 no second offer while one is pending, from either side', () => {
    const g = replay(money(), [dbl(A)]);
    expectRefusal(() => applyAction(money(), g, dbl(A)), 'OFFER_PENDING', 'R2.6');
    expectRefusal(() => applyAction(money(), g, dbl(B)), 'OFFER_PENDING', 'R2.6');
  });

  it('R2.6 the game cannot be finished while an offer is pending', () => {
    const g = replay(money(), [dbl(A)]);
    expectRefusal(() => applyAction(money(), g, finish(A, 'single')), 'OFFER_PENDING', 'R2.6');
    const beavered = replay(money({ beavers: true }), [dbl(A), beaver(B)]);
    expectRefusal(() => applyAction(money({ beavers: true }), beavered, finish(B, 'gammon')), 'OFFER_PENDING', 'R2.6');
  });

  it('R2.6 in a pair, either player of the doubled side answers; the taker is reported as owner (R3.7)', () => {
    const setup = matchGame([
      [A, C],
      [B, D],
    ]);
    const g = replay(setup, [dbl(C), take(D)]);
    expect(g.cubes[0]).toMatchObject({ value: 2, owner: D, ownerParty: 1 });
    // B is D's partner: he may redouble the cube his side owns
    const h = applyAction(setup, g, dbl(B));
    expect(h.cubes[0].pending).toMatchObject({ by: B, value: 4 });
    expectRefusal(() => applyAction(setup, h, take(D)), 'NOT_DOUBLED_PARTY', 'R2.6');
    expect(applyAction(setup, h, take(A)).cubes[0]).toMatchObject({ value: 4, owner: A });
  });

  it('a player who is not in the game is refused (NOT_IN_GAME)', () => {
    expectRefusal(() => applyAction(money(), newGame(money()), dbl(STRANGER)), 'NOT_IN_GAME', 'R4.1');
    expectRefusal(() => applyAction(matchGame(), newGame(matchGame()), finish(STRANGER, 'single')), 'NOT_IN_GAME', 'R3.7');
    const g = replay(money(), [dbl(A)]);
    expectRefusal(() => applyAction(money(), g, take(STRANGER)), 'NOT_IN_GAME', 'R4.1');
  });

  it('R5.3 member cubes are a chouette thing: "cube"/"cubes" are refused at a two-sided table', () => {
    const g = newGame(money());
    expectRefusal(() => applyAction(money(), g, { type: 'double', by: A, cubes: [B] }), 'NO_MEMBER_CUBES', 'R5.3');
    const h = replay(money(), [dbl(A)]);
    expectRefusal(() => applyAction(money(), h, { type: 'take', by: B, cube: B }), 'NO_MEMBER_CUBES', 'R5.3');
    // left out or null is fine
    expect(applyAction(money(), g, { type: 'double', by: A, cubes: null }).cubes[0].pending?.value).toBe(2);
  });

  it('an unknown action type is refused', () => {
    expectRefusal(() => applyAction(money(), newGame(money()), { type: 'roll', by: A } as never), 'INVALID_ACTION', null);
  });
});

describe('R2.7 automatic doubles', () => {
  const setup = money({ automaticDoubles: 2 });

  it('R2.7 the game starts at 2^n, centred', () => {
    expect(newGame(setup, 1).cubes[0]).toMatchObject({ value: 2, owner: null }); // 2^1
    expect(newGame(setup, 2).cubes[0]).toMatchObject({ value: 4, owner: null }); // 2^2
    expect(newGame(setup, 2).automaticDoubles).toBe(2);
  });

  it('R2.7 a double after two automatic doubles offers 8 (4 × 2); a pass pays 4', () => {
    expect(replay(setup, [dbl(A)], 2).cubes[0].pending?.value).toBe(8);
    expect(replay(setup, [dbl(A), pass(B)], 2).points).toBe(4);
  });

  it('R2.7 more automatic doubles than the setting allows are refused', () => {
    expectRefusal(() => newGame(setup, 3), 'TOO_MANY_AUTOMATIC_DOUBLES', 'R2.7');
    expectRefusal(() => newGame(money(), 1), 'TOO_MANY_AUTOMATIC_DOUBLES', 'R2.7');
    expectRefusal(() => newGame(setup, -1), 'INVALID_AUTOMATIC_DOUBLES', 'R2.7');
  });

  it('R2.8 no automatic doubles in a match game', () => {
    expectRefusal(() => newGame(matchGame(), 1), 'AUTOMATIC_DOUBLES_NOT_ALLOWED', 'R2.8');
  });

  it('R2.7 replay keeps the reported automatic doubles', () => {
    const g = replay(setup, [dbl(A), take(B)], 2);
    expect(undoLastAction(setup, g)).toEqual(replay(setup, [dbl(A)], 2));
  });
});

describe('R2.8 money-only actions in match play', () => {
  it('R2.8 a beaver is refused in a match', () => {
    const setup = matchGame();
    const g = replay(setup, [dbl(A)]);
    expectRefusal(() => applyAction(setup, g, beaver(B)), 'BEAVERS_NOT_ALLOWED', 'R2.8');
  });
});

describe('R3.3 1-point match', () => {
  it('R3.3 a double is refused: there is no cube', () => {
    const match = createMatch({ sides: [[A], [B]], target: 1 });
    const setup = nextMatchGameSetup(match, scoreMatch(match, []));
    const e = expectRefusal(() => applyAction(setup, newGame(setup), dbl(A)), 'NO_CUBE_IN_ONE_POINT_MATCH', 'R3.3');
    expect(e.message).toContain('1-point match has no cube');
    // a gammon still counts: 1 × 2
    expect(replay(setup, [finish(B, 'gammon')]).points).toBe(2);
  });
});

describe('R3.4 Crawford game', () => {
  it('R3.4 a double is refused with the annulment message; gammons count', () => {
    const match = createMatch({ sides: [[A], [B]], target: 5 });
    const score = scoreMatch(match, [{ kind: 'game', winnerSide: 0, points: 4 }]);
    const setup = nextMatchGameSetup(match, score);
    const g = newGame(setup);
    expect(g.crawford).toBe(true);
    const e = expectRefusal(() => applyAction(setup, g, dbl(B)), 'CRAWFORD_NO_DOUBLE', 'R3.4');
    expect(e.message).toBe('This is the Crawford game (R3.4): the double is annulled and the game goes on without the cube');
    // gammon in the Crawford game: 1 × 2 = 2
    expect(replay(setup, [finish(B, 'gammon')]).points).toBe(2);
  });
});

describe('R3.5 dead cube', () => {
  // 5-point match at 3-1: side 0 needs 2, side 1 needs 4
  const match = createMatch({ sides: [[A], [B]], target: 5 });
  const history = [
    { kind: 'game' as const, winnerSide: 0 as const, points: 3 },
    { kind: 'game' as const, winnerSide: 1 as const, points: 1 },
  ];

  it('R3.5 (refuse, default) the leader may not double a cube of 2 when he needs 2', () => {
    const setup = nextMatchGameSetup(match, scoreMatch(match, history));
    expect(setup.match).toEqual({ pointsToGo: [2, 4], deadCube: 'refuse' });
    // cube at 1 < 2: A may double; B takes: cube 2
    const g = replay(setup, [dbl(B), take(A)]);
    // cube 2 ≥ 2 to go: A's redouble is dead
    const e = expectRefusal(() => applyAction(setup, g, dbl(A)), 'DEAD_CUBE', 'R3.5');
    expect(e.message).toContain('Dead cube (R3.5)');
    // at cube 1 the leader may still double (1 < 2)
    expect(applyAction(setup, newGame(setup), dbl(A)).cubes[0].pending?.value).toBe(2);
  });

  it('R3.5 the trailer (4 to go) may double a cube of 2', () => {
    const setup = nextMatchGameSetup(match, scoreMatch(match, history));
    const g = replay(setup, [dbl(A), take(B)]);
    expect(applyAction(setup, g, dbl(B)).cubes[0].pending?.value).toBe(4);
  });

  it('R3.5 deadCube "allow" lets the dead double through', () => {
    const allow = createMatch({ sides: [[A], [B]], target: 5, rules: { deadCube: 'allow' } });
    const setup = nextMatchGameSetup(allow, scoreMatch(allow, history));
    const g = replay(setup, [dbl(B), take(A), dbl(A)]);
    expect(g.cubes[0].pending?.value).toBe(4);
  });
});

describe('purity and undo', () => {
  it('applyAction never mutates its input', () => {
    const setup = money({ beavers: true });
    const g = replay(setup, [dbl(A)]);
    const snapshot = structuredClone(g);
    applyAction(setup, g, beaver(B));
    expect(() => applyAction(setup, g, dbl(A))).toThrow();
    expect(g).toEqual(snapshot);
  });

  it('undo replays all but the last action', () => {
    const setup = money();
    const g = replay(setup, [dbl(A), take(B), dbl(B)]);
    expect(undoLastAction(setup, g)).toEqual(replay(setup, [dbl(A), take(B)]));
    expectRefusal(() => undoLastAction(setup, newGame(setup)), 'NOTHING_TO_UNDO', null);
    expectRefusal(() => undoLastAction(setup, replay(setup, [finish(A, 'single')])), 'GAME_FINISHED', 'R6.3');
  });

  it('replay refuses a log with a bad action, like applyAction', () => {
    expectRefusal(() => replay(money(), [dbl(A), dbl(A)]), 'OFFER_PENDING', 'R2.6');
  });
});

describe('R2.3–R2.5 possible answers', () => {
  it('R2.4/R2.5 the refusal of a wrong instant redouble names the answers that are open', () => {
    const beaversOnly = money({ beavers: true });
    const g = replay(beaversOnly, [dbl(A), beaver(B)]);
    const e = expectRefusal(() => applyAction(beaversOnly, g, beaver(A)), 'WRONG_INSTANT_REDOUBLE', 'R2.4');
    expect(e.message).toBe("A beaver answers a double (R2.4): bob's beaver to 4 is answered with take or pass");
    const both = money({ beavers: true, raccoons: true });
    const h = replay(both, [dbl(A)]);
    const f = expectRefusal(() => applyAction(both, h, raccoon(B)), 'WRONG_INSTANT_REDOUBLE', 'R2.5');
    expect(f.message).toBe("A raccoon answers a beaver (R2.5): alice's double to 2 is answered with take, pass or beaver");
  });
});

describe('R2.3–R2.5 possibleAnswers', () => {
  const offer = { by: A, byParty: 0 as const, value: 2, kind: 'double' as const, receiver: 1 as const, redoubles: 0 };
  it('R2.3 take or pass without beavers', () => {
    expect(possibleAnswers(offer, { beavers: false, raccoons: false })).toEqual(['take', 'pass']);
  });
  it('R2.4 beaver a double with beavers on', () => {
    expect(possibleAnswers(offer, { beavers: true, raccoons: false })).toEqual(['take', 'pass', 'beaver']);
  });
  it('R2.5 raccoon a beaver only with raccoons on; nothing more after a raccoon', () => {
    const beavered = { ...offer, by: B, byParty: 1 as const, value: 4, kind: 'beaver' as const, redoubles: 1 };
    expect(possibleAnswers(beavered, { beavers: true, raccoons: false })).toEqual(['take', 'pass']);
    expect(possibleAnswers(beavered, { beavers: true, raccoons: true })).toEqual(['take', 'pass', 'raccoon']);
    const raccooned = { ...offer, value: 8, kind: 'raccoon' as const, redoubles: 2 };
    expect(possibleAnswers(raccooned, { beavers: true, raccoons: true })).toEqual(['take', 'pass']);
  });
});

describe('R3.10 resignation records', () => {
  const resign = (winner: string, result: 'single' | 'gammon', offeredBy?: string): GameAction => ({ type: 'finish', winner, result, resigned: true, ...(offeredBy ? { offeredBy } : {}) });
  const refused = (by: string, result?: 'single' | 'gammon' | 'draw'): GameAction => ({ type: 'resign-refused', by, ...(result ? { result } : {}) });

  it('R3.10 a resignation records who of the losing side offered it, and scores as before (R1.4)', () => {
    const g = replay(
      matchGame([
        [A, C],
        [B, D],
      ]),
      [dbl(A), take(B), resign(A, 'gammon', D)],
    );
    expect(g.result).toEqual({ winner: A, result: 'gammon', resigned: true, offeredBy: D });
    expect(g.points).toBe(4);
  });

  it('R3.10 the offer comes from the side that loses, and only with resigned: true', () => {
    expectRefusal(() => replay(money(), [resign(A, 'single', A)]), 'INVALID_RESIGNATION', 'R3.10');
    expectRefusal(() => replay(money(), [resign(A, 'single', STRANGER)]), 'INVALID_RESIGNATION', 'R3.10');
    expectRefusal(() => replay(money(), [{ type: 'finish', winner: A, result: 'single', offeredBy: B }]), 'INVALID_RESIGNATION', 'R3.10');
    expectRefusal(() => replay(money(), [{ type: 'finish', winner: A, result: 'single', resigned: false, offeredBy: B }]), 'INVALID_RESIGNATION', 'R3.10');
  });

  it('R3.10 a refused offer is recorded and changes nothing else: cube, score and status stay', () => {
    const before = replay(money(), [dbl(A), take(B)]);
    const after = applyAction(money(), before, refused(B, 'gammon'));
    expect(after).toEqual({ ...before, actions: [...before.actions, { type: 'resign-refused', by: B, result: 'gammon' }] });
    // The game goes on, and the undo takes the record back.
    expect(undoLastAction(money(), after)).toEqual(before);
    expect(applyAction(money(), after, finish(A, 'single')).points).toBe(2);
  });

  it('R3.10 a refused offer names a player of the game and a level with a winner; none after the end', () => {
    expectRefusal(() => replay(money(), [refused(STRANGER, 'single')]), 'NOT_IN_GAME', 'R4.1');
    expectRefusal(() => replay(money(), [{ type: 'resign-refused', result: 'single' } as unknown as GameAction]), 'INVALID_RESIGNATION', 'R3.10');
    expectRefusal(() => replay(money(), [refused(B, 'draw')]), 'INVALID_RESIGNATION', 'R3.10');
    expectRefusal(() => replay(money(), [refused(B)]), 'INVALID_RESULT', 'R1.1');
    expectRefusal(() => replay(money(), [finish(A, 'single'), refused(B, 'single')]), 'GAME_FINISHED', 'R1.1');
  });
});
