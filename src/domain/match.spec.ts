import { createMatch, latestMatchResult, MatchEvent, matchEndIsRated, nextMatchGameSetup, scoreMatch, validateTarget } from './match';
import { MATCH_DEFAULTS } from './rules';
import { expectRefusal } from './test-helpers';

const A = 'alice';
const B = 'bob';
const C = 'carol';
const D = 'dave';

const game = (winnerSide: 0 | 1, points: number, gameNo?: number): MatchEvent => ({
  kind: 'game',
  winnerSide,
  points,
  ...(gameNo === undefined ? {} : { gameNo }),
});
const penalty = (side: 0 | 1, points: number): MatchEvent => ({ kind: 'penalty', side, points });

const five = createMatch({ sides: [[A], [B]], target: 5 });

describe('R3.1 match target', () => {
  it.each([1, 3, 5, 7, 63])('R3.1 accepts the odd target %i', (t) => {
    expect(validateTarget(t)).toBe(t);
  });

  it.each([2, 4, 62])('R3.1 refuses the even target %i and says "even"', (t) => {
    const e = expectRefusal(() => validateTarget(t), 'TARGET_EVEN', 'R3.1');
    expect(e.message).toContain('even');
  });

  it.each([0, -1, 65, 64, 101])('R3.1 refuses %i as out of range', (t) => {
    const e = expectRefusal(() => validateTarget(t), 'TARGET_OUT_OF_RANGE', 'R3.1');
    expect(e.message).toContain('out of range');
  });

  it.each([2.5, '5', null])('R3.1 refuses %p as not a whole number', (t) => {
    expectRefusal(() => validateTarget(t), 'INVALID_TARGET', 'R3.1');
  });
});

describe('R3.7 sides', () => {
  it('R3.7 accepts single players and pairs', () => {
    const m = createMatch({ sides: [[A, C], [B]], target: 3 });
    expect(m.sides).toEqual([[A, C], [B]]);
    expect(m.rules).toEqual(MATCH_DEFAULTS);
  });
  it('R3.7 refuses a side of three, an empty side, or one side only', () => {
    expectRefusal(() => createMatch({ sides: [[A, C, D], [B]], target: 3 }), 'INVALID_SIDES', 'R3.7');
    expectRefusal(() => createMatch({ sides: [[], [B]], target: 3 }), 'INVALID_SIDES', 'R3.7');
    expectRefusal(() => createMatch({ sides: [[A]], target: 3 }), 'INVALID_SIDES', 'R3.7');
  });
  it('R3.7 refuses a player on both sides or twice in a pair', () => {
    expectRefusal(() => createMatch({ sides: [[A], [A]], target: 3 }), 'DUPLICATE_PLAYER', 'R3.7');
    expectRefusal(() => createMatch({ sides: [[A, A], [B]], target: 3 }), 'DUPLICATE_PLAYER', 'R3.7');
  });
});

describe('R2.8 money-only settings in a match', () => {
  it.each([{ beavers: true }, { raccoons: true, beavers: true }, { jacoby: true }, { automaticDoubles: 1 }])('R2.8 refuses %p', (rules) => {
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, rules }), 'MONEY_ONLY_SETTING', 'R2.8');
  });
  it('R2.8 accepts them switched off', () => {
    const m = createMatch({ sides: [[A], [B]], target: 5, rules: { beavers: false, raccoons: false, jacoby: false, automaticDoubles: 0 } });
    expect(m.rules).toEqual(MATCH_DEFAULTS);
  });
});

describe('R3.3 1-point match', () => {
  it('R3.3 has no cube: every game is played without doubling and none is the Crawford game', () => {
    const m = createMatch({ sides: [[A], [B]], target: 1 });
    expect(m.hasCube).toBe(false);
    const s = scoreMatch(m, []);
    expect(s.nextGame).toEqual({ crawford: false, doubling: 'one-point-match', pointsToGo: [1, 1] });
    expect(s.crawfordGameIndex).toBeNull();
    expect(createMatch({ sides: [[A], [B]], target: 3 }).hasCube).toBe(true);
  });
});

describe('R3.2 scoring', () => {
  it('R3.2 each game adds its points to the winner; the real total is kept (6-4 in a 5-point match)', () => {
    // 0-0 → 2-0 → 2-4 → 6-4 (4-point game from 2: passes the target)
    const s = scoreMatch(five, [game(0, 2), game(1, 4), game(0, 4)]);
    expect(s.score).toEqual([6, 4]);
    expect(s).toMatchObject({ status: 'finished', winnerSide: 0, endedBy: { kind: 'points' }, nextGame: null });
  });

  it('R3.2 a game exactly reaching the target ends the match', () => {
    expect(scoreMatch(five, [game(1, 5)])).toMatchObject({ status: 'finished', winnerSide: 1, score: [0, 5] });
  });

  it('R3.2 nothing can be recorded after the end; no game starts', () => {
    expectRefusal(() => scoreMatch(five, [game(1, 5), game(0, 1)]), 'MATCH_FINISHED', 'R3.2');
    expectRefusal(() => scoreMatch(five, [game(1, 5), penalty(0, 1)]), 'MATCH_FINISHED', 'R3.2');
    expectRefusal(() => nextMatchGameSetup(five, scoreMatch(five, [game(1, 5)])), 'MATCH_FINISHED', 'R3.2');
  });

  it('R3.2 a game is worth at least one whole point', () => {
    expectRefusal(() => scoreMatch(five, [game(0, 0)]), 'INVALID_GAME_POINTS', 'R3.2');
    expectRefusal(() => scoreMatch(five, [game(0, 1.5)]), 'INVALID_GAME_POINTS', 'R3.2');
  });

  it('R3.2 in progress: points to go per side', () => {
    const s = scoreMatch(five, [game(0, 1), game(1, 2)]);
    expect(s).toMatchObject({ score: [1, 2], status: 'in-progress', winnerSide: null, endedBy: null });
    expect(s.nextGame).toEqual({ crawford: false, doubling: 'allowed', pointsToGo: [4, 3] });
  });
});

describe('R3.4 Crawford', () => {
  it('R3.4 the game right after a score first becomes target − 1 is the Crawford game', () => {
    // 5-point: 0-0 → 4-0 (= 5 − 1): game index 1 is Crawford
    const s = scoreMatch(five, [game(0, 4, 1)]);
    expect(s.crawfordGameIndex).toBe(1);
    expect(s.crawfordGameNo).toBeNull(); // not played yet
    expect(s.nextGame).toEqual({ crawford: true, doubling: 'crawford', pointsToGo: [1, 5] });
  });

  it('R3.4 after the Crawford game, games are post-Crawford and doubling is allowed again', () => {
    // 4-0 → Crawford game won by side 1 for 1 → 4-1 → post-Crawford
    const s = scoreMatch(five, [game(0, 4, 1), game(1, 1, 2)]);
    expect(s.games.map((g) => [g.crawford, g.postCrawford])).toEqual([
      [false, false],
      [true, false],
    ]);
    expect(s.crawfordGameNo).toBe(2);
    expect(s.nextGame).toEqual({ crawford: false, doubling: 'allowed', pointsToGo: [1, 4] });
  });

  it('R3.4 at most one Crawford game: the other side reaching target − 1 later makes none', () => {
    // 4-0, Crawford won by side 1 for 2 (gammon) → 4-2, then side 1 wins 2 → 4-4
    const s = scoreMatch(five, [game(0, 4), game(1, 2), game(1, 2)]);
    expect(s.score).toEqual([4, 4]);
    expect(s.games.filter((g) => g.crawford)).toHaveLength(1);
    expect(s.games[2].postCrawford).toBe(true);
    expect(s.nextGame?.crawford).toBe(false);
  });

  it('R3.4 either side may trigger it (3-3 → 3-4)', () => {
    const s = scoreMatch(five, [game(0, 3), game(1, 3), game(1, 1)]);
    expect(s.crawfordGameIndex).toBe(3);
    expect(s.nextGame?.crawford).toBe(true);
  });

  it('R3.4 jumping past target − 1 straight to the end makes no Crawford game', () => {
    // 3-0 → side 0 wins 2 → 5-0
    const s = scoreMatch(five, [game(0, 3), game(0, 2)]);
    expect(s).toMatchObject({ status: 'finished', crawfordGameIndex: null });
  });

  it('R3.4 a score that jumps over target − 1 makes no Crawford game; one that lands on it does', () => {
    // 7-point match: 0-0 → 0-4 → 0-8: side 1 never sat at 6; no Crawford
    const seven = createMatch({ sides: [[A], [B]], target: 7 });
    expect(scoreMatch(seven, [game(1, 4), game(1, 4)]).crawfordGameIndex).toBeNull();
    // 0-4 → 0-6 = 7 − 1: Crawford next
    expect(scoreMatch(seven, [game(1, 4), game(1, 2)]).nextGame?.crawford).toBe(true);
  });

  it('R3.4/R3.6 a penalty can make the next game the Crawford game', () => {
    // 5-point: 3-0 by a game, then 1 penalty point to side 0 → 4-0
    const s = scoreMatch(five, [game(0, 3), penalty(0, 1)]);
    expect(s.score).toEqual([4, 0]);
    expect(s.crawfordGameIndex).toBe(1);
    expect(s.nextGame?.crawford).toBe(true);
  });

  it('R3.4 the Crawford game stays the next game when a penalty falls before it', () => {
    // 4-0 triggers; penalty 1 to side 1 → 4-1; the next game is still Crawford
    const s = scoreMatch(five, [game(0, 4), penalty(1, 1)]);
    expect(s.nextGame?.crawford).toBe(true);
  });

  it('R3.4/R6.3 an abandoned or voided game is not in the history: the next game is still the Crawford game', () => {
    const beforeAbandon = scoreMatch(five, [game(0, 4)]);
    // the abandoned Crawford game left no trace; the history is unchanged
    const afterAbandon = scoreMatch(five, [game(0, 4)]);
    expect(afterAbandon.nextGame).toEqual(beforeAbandon.nextGame);
    expect(afterAbandon.nextGame?.crawford).toBe(true);
  });

  it('R3.4 crawford off: no Crawford game at all', () => {
    const m = createMatch({ sides: [[A], [B]], target: 5, rules: { crawford: false } });
    const s = scoreMatch(m, [game(0, 4)]);
    expect(s.crawfordGameIndex).toBeNull();
    expect(s.nextGame).toEqual({ crawford: false, doubling: 'allowed', pointsToGo: [1, 5] });
  });

  it('R3.4 the next game setup of the Crawford game forbids doubling', () => {
    const setup = nextMatchGameSetup(five, scoreMatch(five, [game(1, 4)]));
    expect(setup).toMatchObject({ table: 'match', doubling: 'crawford', match: { pointsToGo: [5, 1], deadCube: 'refuse' } });
  });
});

describe('R3.6 penalties and forfeit', () => {
  it('R3.6 penalty points go to a side and can end the match by the target', () => {
    // 4-0, 1 penalty point to side 0 → 5-0: match over by target (1 against side 1 is not > 2.5)
    const s = scoreMatch(five, [game(0, 4), penalty(0, 1)]);
    expect(s).toMatchObject({ status: 'finished', winnerSide: 0, endedBy: { kind: 'points' }, score: [5, 0], penaltiesAgainst: [0, 1] });
  });

  it('R3.6 more than half the target in penalties against a side forfeits the match (5-point: 3 > 2.5)', () => {
    const two = scoreMatch(five, [penalty(1, 2)]);
    // 2 against side 0: 2 × 2 = 4 ≤ 5, still on
    expect(two).toMatchObject({ status: 'in-progress', penaltiesAgainst: [2, 0], score: [0, 2] });
    const three = scoreMatch(five, [penalty(1, 2), game(0, 1), penalty(1, 1)]);
    // 3 against side 0: 3 × 2 = 6 > 5 → forfeited to side 1 at 1-3
    expect(three).toMatchObject({ status: 'finished', winnerSide: 1, endedBy: { kind: 'forfeit', side: 0, reason: 'penalties' }, score: [1, 3], nextGame: null });
  });

  it('R3.6 7-point match: 3 penalty points against a side is not over half (6 ≤ 7); 4 is (8 > 7)', () => {
    const seven = createMatch({ sides: [[A], [B]], target: 7 });
    expect(scoreMatch(seven, [penalty(0, 3)]).status).toBe('in-progress');
    expect(scoreMatch(seven, [penalty(0, 3), penalty(0, 1)])).toMatchObject({ endedBy: { kind: 'forfeit', side: 1, reason: 'penalties' }, winnerSide: 0 });
  });

  it('R3.6 penalty points are whole and positive', () => {
    expectRefusal(() => scoreMatch(five, [penalty(0, 0)]), 'INVALID_PENALTY', 'R3.6');
    expectRefusal(() => scoreMatch(five, [penalty(0, -2)]), 'INVALID_PENALTY', 'R3.6');
    expectRefusal(() => scoreMatch(five, [{ kind: 'penalty', side: 2 as never, points: 1 }]), 'INVALID_MATCH_EVENT', 'R3.6');
  });
});

describe('R3.9 forfeits', () => {
  const forfeit = (side: 0 | 1, reason: 'no-show' | 'lateness' | 'time' = 'time'): MatchEvent => ({ kind: 'forfeit', side, reason });

  it('R3.9 the other side wins and the score stays as played', () => {
    // 2-3 in a 5-point match, then side 1 runs out of time: side 0 wins at 2-3.
    const s = scoreMatch(five, [game(0, 2), game(1, 3), forfeit(1)]);
    expect(s).toMatchObject({ status: 'finished', winnerSide: 0, score: [2, 3], endedBy: { kind: 'forfeit', side: 1, reason: 'time' }, nextGame: null });
  });

  it('R3.9 a forfeit before any game ends the match 0-0', () => {
    expect(scoreMatch(five, [forfeit(0, 'no-show')])).toMatchObject({ status: 'finished', winnerSide: 1, score: [0, 0], endedBy: { kind: 'forfeit', side: 0, reason: 'no-show' } });
  });

  it('R3.2 nothing is recorded after a forfeit', () => {
    expectRefusal(() => scoreMatch(five, [forfeit(0), game(1, 1)]), 'MATCH_FINISHED', 'R3.2');
  });

  it('R3.9 an unknown reason is refused', () => {
    expectRefusal(() => scoreMatch(five, [{ kind: 'forfeit', side: 0, reason: 'tired' as never }]), 'INVALID_MATCH_EVENT', 'R3.9');
  });

  it('R3.9 a forfeit with no finished game is not rated; with one it is; an end by points or by penalties (R7.1) always is', () => {
    expect(matchEndIsRated({ kind: 'forfeit', side: 0, reason: 'no-show' }, 0)).toBe(false);
    // R7.1: penalty-forfeited matches count, even before a game was finished.
    expect(matchEndIsRated({ kind: 'forfeit', side: 0, reason: 'penalties' }, 0)).toBe(true);
    expect(matchEndIsRated({ kind: 'forfeit', side: 1, reason: 'time' }, 1)).toBe(true);
    expect(matchEndIsRated({ kind: 'points' }, 0)).toBe(true);
  });
});

describe('R6.3, R3.6, R3.9 the most recent result of a match', () => {
  it('is the standing forfeit, whatever came before', () => {
    expect(latestMatchResult(4, [{ seq: 1, afterGameNo: 4 }], { seq: 1 })).toEqual({ kind: 'forfeit', seq: 1 });
  });
  it('is the last penalty when it came after the latest finished game (given after that game started)', () => {
    expect(
      latestMatchResult(
        3,
        [
          { seq: 1, afterGameNo: 1 },
          { seq: 2, afterGameNo: 3 },
        ],
        null,
      ),
    ).toEqual({ kind: 'penalty', seq: 2 });
    // Game 4 was abandoned, the penalty came after it: still after game 3.
    expect(latestMatchResult(3, [{ seq: 1, afterGameNo: 4 }], null)).toEqual({ kind: 'penalty', seq: 1 });
    expect(latestMatchResult(null, [{ seq: 1, afterGameNo: 0 }], null)).toEqual({ kind: 'penalty', seq: 1 });
  });
  it('is the latest finished game when it came after every penalty', () => {
    expect(latestMatchResult(3, [{ seq: 1, afterGameNo: 2 }], null)).toEqual({ kind: 'game', gameNo: 3 });
    expect(latestMatchResult(2, [], null)).toEqual({ kind: 'game', gameNo: 2 });
  });
  it('is nothing in a match with no result', () => {
    expect(latestMatchResult(null, [], null)).toBeNull();
  });
});
