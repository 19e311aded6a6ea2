/**
 * What finishing and voiding a game decide, kind by kind (the engines of
 * match-table.ts, money-table.ts, chouette-table.ts), and a match's end and reopening.
 * Expected values are worked out from docs/rules.md.
 */
import { applyAction, GameAction, GameSetup, GameState, newGame } from './game';
import type { MatchScore } from './match';
import {
  addForfeit,
  addPenalty,
  endMatch,
  endNeedsFinishedCount,
  finishMatchGame,
  MatchTableSetup,
  MatchTableState,
  newMatchSetup,
  nextMatchGame,
  reopenMatch,
  scoreOf,
  stakeReversal,
  voidMatchGame,
  voidPenaltyOrForfeit,
} from './match-table';
import { finishMoneyGame, moneyEngine, MoneyTableSetup, newMoneySetup, nextMoneyGame, voidMoneyGame } from './money-table';
import { applyChouetteAction, newChouetteGame } from './chouette';
import { chouetteEngine, chouetteSeatsAfterVoid, finishChouetteGame, newChouette, nextChouetteGame, voidChouetteGame } from './chouette-table';
import { FinishedGameRow, NOTHING_NEEDED, Read, reversingEntries, TableStatus } from './table-engine';
import { expectRefusal } from './test-helpers';

const NO_READ: Read = { history: [], finishedCount: 0 };
const read = (history: FinishedGameRow[]): Read => ({ history, finishedCount: 0 });

const double = (by: string): GameAction => ({ type: 'double', by });
const take = (by: string): GameAction => ({ type: 'take', by });
const finish = (winner: string, result: 'single' | 'gammon' | 'backgammon'): GameAction => ({ type: 'finish', winner, result });

function played(setup: GameSetup, actions: GameAction[]): GameState {
  return actions.reduce((s, a) => applyAction(setup, s, a), newGame(setup));
}

describe('money tables (R4)', () => {
  const table = (rules: Record<string, unknown> = {}, status: TableStatus = 'in-progress') => ({ status, setup: newMoneySetup({ players: ['a', 'b'], stakeMinor: 100, rules }), state: {} });
  const finishOn = (setup: MoneyTableSetup, actions: GameAction[], rakeBp: number, history: FinishedGameRow[] = [], gameNo = 1, status: TableStatus = 'in-progress') => {
    const game = nextMoneyGame(setup);
    return finishMoneyGame({ table: { status, setup, state: {} }, stakeMinor: null, game: { gameNo, setup: game }, state: played(game, actions), rakeBp, read: read(history) });
  };

  it('R4.2: the loser pays the winner the stake times the points', () => {
    // The cube at 2, a gammon: 2 × 2 = 4 points at 100 a point.
    const out = finishOn(table().setup, [double('a'), take('b'), finish('b', 'gammon')], 0);
    expect(out.postings).toEqual([{ from: 'a', to: 'b', amountMinor: 400, kind: 'game' }]);
    expect({ points: out.points, winnerSide: out.winnerSide, matchEnded: out.matchEnded }).toEqual({ points: 4, winnerSide: 1, matchEnded: null });
  });

  it('R6.4: the rake is a percentage of the winner’s net, rounded down, to the house; all still adds up to zero', () => {
    // 5% of 400 is 20.
    expect(finishOn(table().setup, [double('a'), take('b'), finish('b', 'gammon')], 500).postings).toEqual([
      { from: 'a', to: 'b', amountMinor: 400, kind: 'game' },
      { from: 'b', to: 'house', amountMinor: 20, kind: 'rake' },
    ]);
    // 3.33% of 100 is 3.33, rounded down to 3.
    expect(finishOn(table().setup, [finish('a', 'single')], 333).postings).toEqual([
      { from: 'b', to: 'a', amountMinor: 100, kind: 'game' },
      { from: 'a', to: 'house', amountMinor: 3, kind: 'rake' },
    ]);
  });

  it('R4.4: a table with a lead to stop at needs its finished games; one without needs nothing', () => {
    expect(moneyEngine.needs.finish(table({ stopAtLead: 2 }).setup)).toEqual({ history: true, finishedCount: false });
    expect(moneyEngine.needs.finish(table().setup)).toEqual(NOTHING_NEEDED);
    expect(moneyEngine.needs.void(table().setup)).toEqual({ history: true, finishedCount: false });
  });

  it('R4.4: the table is over once a player leads by stopAtLead, this game counted once', () => {
    const { setup } = table({ stopAtLead: 2 });
    // b won game 1 for 1 point; b wins game 2 for 1 more: 2–0, a lead of 2.
    expect(finishOn(setup, [finish('b', 'single')], 0, [{ gameNo: 1, winnerSide: 1, points: 1 }], 2).status).toBe('finished');
    // The history as read may hold this game already: it is not counted twice (1–0).
    expect(finishOn(setup, [finish('b', 'single')], 0, [{ gameNo: 1, winnerSide: 1, points: 1 }], 1).status).toBe('in-progress');
    // a wins game 2: 1–1, no lead.
    expect(finishOn(setup, [finish('a', 'single')], 0, [{ gameNo: 1, winnerSide: 1, points: 1 }], 2).status).toBe('in-progress');
  });

  it('R4.4: a table without stopAtLead never finishes, whatever the lead', () => {
    expect(finishOn(table().setup, [double('a'), take('b'), finish('b', 'backgammon')], 0, [{ gameNo: 1, winnerSide: 1, points: 10 }], 2).status).toBe('in-progress');
  });

  it('R4.4: a finished table starts no more games; R6.3: voiding the game that reached the lead opens it again', () => {
    const t = table({ stopAtLead: 2 }, 'finished');
    expect(() => moneyEngine.nextGame(t, NO_READ)).toThrow();
    const history = [
      { gameNo: 1, winnerSide: 1 as const, points: 1 },
      { gameNo: 2, winnerSide: 1 as const, points: 1 },
    ];
    const game = { gameNo: 2, setup: nextMoneyGame(t.setup) };
    expect(voidMoneyGame({ table: t, game, posted: [], latestFinishedGameNo: 2, read: read(history) }).status).toBe('in-progress');
    // A lead of 3 before game 2 (which a won): voiding it leaves the table over.
    const stillAhead = [
      { gameNo: 1, winnerSide: 1 as const, points: 3 },
      { gameNo: 2, winnerSide: 0 as const, points: 1 },
    ];
    expect(voidMoneyGame({ table: t, game, posted: [], latestFinishedGameNo: 2, read: read(stillAhead) }).status).toBe('finished');
  });
});

describe('R6.3 reversing entries', () => {
  it('writes the opposite of each of the game’s entries, its earlier reversals left alone', () => {
    expect(
      reversingEntries([
        { from: 'a', to: 'b', amountMinor: 400, kind: 'game' },
        { from: 'b', to: 'house', amountMinor: 20, kind: 'rake' },
        { from: 'c', to: 'd', amountMinor: 7, kind: 'void' },
      ]),
    ).toEqual([
      { from: 'b', to: 'a', amountMinor: 400, kind: 'void' },
      { from: 'house', to: 'b', amountMinor: 20, kind: 'void' },
    ]);
  });
});

describe('matches (R3)', () => {
  const setup: MatchTableSetup = newMatchSetup({ sides: [['a'], ['b']], target: 3 });
  const match = (status: TableStatus, state: MatchTableState = {}) => ({ status, setup, state });
  const gameAt = (history: FinishedGameRow[], state: MatchTableState = {}) => nextMatchGame(setup, scoreOf(setup, history, state));
  const finishWith = (history: FinishedGameRow[], actions: GameAction[], stakeMinor: number | null, gameNo: number) => {
    const game = gameAt(history);
    return finishMatchGame({ table: match('in-progress'), stakeMinor, game: { gameNo, setup: game }, state: played(game, actions), rakeBp: 1000, read: read(history) });
  };
  const b2: FinishedGameRow[] = [{ gameNo: 1, winnerSide: 1, points: 2 }];

  it('R3.2: a game that does not reach the target leaves the match open and posts nothing', () => {
    const out = finishWith([], [finish('b', 'single')], 100, 1);
    expect(out).toMatchObject({ status: 'in-progress', postings: [], matchEnded: null, winnerSide: 1, points: 1 });
  });

  it('R3.2, R3.8, R6.4: reaching the target ends the match; the loser pays the stake, never raked', () => {
    const out = finishWith(b2, [finish('b', 'single')], 100, 2);
    expect(out.status).toBe('finished');
    expect(out.postings).toEqual([{ from: 'a', to: 'b', amountMinor: 100, kind: 'match-stake' }]);
    expect(out.matchEnded).toMatchObject({ winnerSide: 1, rated: true, score: { score: [0, 3], status: 'finished' } });
  });

  it('R3.2: the score is kept as it stands past the target (a gammon from 2 makes 4 in a match to 3)', () => {
    expect(finishWith(b2, [finish('b', 'gammon')], null, 2).matchEnded?.score.score).toEqual([0, 4]);
  });

  it('R3.8: a match without a stake ends with no entries', () => {
    expect(finishWith(b2, [finish('b', 'single')], null, 2).postings).toEqual([]);
  });

  it('R3.8: a pair splits its share, the odd minor unit to the player named first', () => {
    const pairs = newMatchSetup({ sides: [['a', 'c'], ['b']], target: 1 });
    const score = scoreOf(pairs, [{ gameNo: 1, winnerSide: 1, points: 1 }], {});
    expect(endMatch(pairs, 101, score, 1)?.postings).toEqual([
      { from: 'a', to: 'b', amountMinor: 51, kind: 'match-stake' },
      { from: 'c', to: 'b', amountMinor: 50, kind: 'match-stake' },
    ]);
  });

  it('R3.9, R7.1: a forfeit rates the match only once a game was finished; by penalties always', () => {
    const forfeited = (reason: 'no-show' | 'penalties') => scoreOf(setup, [], addForfeit({}, { side: 0, reason, note: null }, 0, null, new Date(0)));
    expect(endNeedsFinishedCount(forfeited('no-show'))).toBe(true);
    expect(endMatch(setup, null, forfeited('no-show'), 0)).toMatchObject({ winnerSide: 1, rated: false });
    expect(endMatch(setup, null, forfeited('no-show'), 1)).toMatchObject({ winnerSide: 1, rated: true });
    expect(endNeedsFinishedCount(forfeited('penalties'))).toBe(false);
    expect(endMatch(setup, null, forfeited('penalties'), 0)).toMatchObject({ rated: true });
  });

  it('R3.6: penalty points are given to a side and can win it the match', () => {
    const state = addPenalty({}, { side: 1, points: 3, reason: 'slow play' }, 0, new Date(0));
    expect(state.penalties).toEqual([{ seq: 1, side: 1, points: 3, reason: 'slow play', afterGameNo: 0, at: new Date(0).toISOString() }]);
    const score = scoreOf(setup, [], state);
    expect(score).toMatchObject({ score: [0, 3], status: 'finished', winnerSide: 1 });
    expect(endNeedsFinishedCount(score)).toBe(false);
    expect(endMatch(setup, 40, score, 0)).toMatchObject({ rated: true, postings: [{ from: 'a', to: 'b', amountMinor: 40, kind: 'match-stake' }] });
  });

  it('R6.3, R7.1: voiding the game that ended the match reopens it and takes its rating change back', () => {
    const ratings = [{ playerId: 'a', delta: -2.5, experience: 3 }];
    const history: FinishedGameRow[] = [...b2, { gameNo: 2, winnerSide: 1, points: 1 }];
    const out = voidMatchGame({
      table: match('finished', { ratings }),
      game: { gameNo: 2, setup: gameAt(b2) },
      posted: [{ from: 'a', to: 'b', amountMinor: 100, kind: 'match-stake' }],
      latestFinishedGameNo: 2,
      read: read(history),
    });
    expect(out.status).toBe('in-progress');
    expect(out.state.ratings).toEqual([]);
    expect(out.matchReopened).toMatchObject({ winnerSide: 1, unrate: ratings, score: { score: [0, 2], status: 'in-progress' } });
    expect(out.reversing).toEqual([{ from: 'b', to: 'a', amountMinor: 100, kind: 'void' }]);
  });

  it('R6.3: voiding a game of an open match changes its score only', () => {
    const out = voidMatchGame({ table: match('in-progress'), game: { gameNo: 1, setup: gameAt([]) }, posted: [], latestFinishedGameNo: 1, read: read(b2) });
    expect(out).toMatchObject({ status: 'in-progress', matchReopened: null, reversing: [] });
  });

  it('R6.3, R3.6: a game with a penalty after it is not the match’s most recent result', () => {
    const state = addPenalty({}, { side: 0, points: 1, reason: 'x' }, 1, new Date(0));
    expectRefusal(
      () => voidMatchGame({ table: match('in-progress', state), game: { gameNo: 1, setup: gameAt([]) }, posted: [], latestFinishedGameNo: 1, read: read(b2) }),
      'NOT_LATEST_GAME',
      'R6.3',
    );
  });

  it('R3.6, R3.9: a voided penalty or forfeit counts for nothing; a match it had ended reopens (R7.1)', () => {
    const voided = { at: new Date(0).toISOString(), reason: 'mistake', by: 'key' };
    const penalised = addPenalty({ ratings: [{ playerId: 'b', delta: 1, experience: 3 }] }, { side: 1, points: 3, reason: 'x' }, 0, new Date(0));
    const before: MatchScore = scoreOf(setup, [], penalised);
    const after = voidPenaltyOrForfeit(penalised, { kind: 'penalty', seq: 1 }, voided);
    expect(after.penalties?.[0].voided).toEqual(voided);
    const reopened = reopenMatch(match('finished', after), before, scoreOf(setup, [], after));
    expect(reopened).toMatchObject({ status: 'in-progress', state: { ratings: [] }, matchReopened: { winnerSide: 1, unrate: [{ playerId: 'b', delta: 1, experience: 3 }] } });
    const forfeited = addForfeit({}, { side: 1, reason: 'concession', note: null }, 0, null, new Date(0));
    expect(voidPenaltyOrForfeit(forfeited, { kind: 'forfeit', seq: 1 }, voided).forfeits?.[0].voided).toEqual(voided);
  });

  it('R3.8, R6.3: a stake paid by a penalty or forfeit is reversed by what it still moves', () => {
    expect(stakeReversal([{ from: 'a', to: 'b', amountMinor: 100 }])).toEqual([{ from: 'b', to: 'a', amountMinor: 100, kind: 'void' }]);
    // Already reversed once: nothing left to reverse.
    expect(
      stakeReversal([
        { from: 'a', to: 'b', amountMinor: 100 },
        { from: 'b', to: 'a', amountMinor: 100 },
      ]),
    ).toEqual([]);
  });
});

describe('chouettes (R5)', () => {
  // Box a; the team b (captain), then c.
  const { setup, state } = newChouette({ stakeMinor: 100, seating: { order: ['a', 'b', 'c'] } }, () => 0);
  const game = nextChouetteGame(setup, state);
  const won = applyChouetteAction(game.setup, newChouetteGame(game.setup), finish('a', 'single'));
  const finished = finishChouetteGame({ table: { status: 'in-progress', setup, state }, stakeMinor: null, game: { gameNo: 1, setup: game }, state: won, rakeBp: 1000, read: NO_READ });

  it('R5.5, R6.4: every member who lost pays the box stake × cube × result; the box’s net is raked', () => {
    // b and c each pay 100; 10% of the box's 200 is 20.
    expect(finished.postings).toEqual([
      { from: 'b', to: 'a', amountMinor: 100, kind: 'game' },
      { from: 'c', to: 'a', amountMinor: 100, kind: 'game' },
      { from: 'a', to: 'house', amountMinor: 20, kind: 'rake' },
    ]);
    expect({ points: finished.points, winnerSide: finished.winnerSide }).toEqual({ points: null, winnerSide: 0 });
    expect(chouetteEngine.shown(won)).toEqual({ crawford: false, points: null, winnerSide: 0 });
  });

  it('R5.7: the box beat the captain: he keeps his seat, the captain goes to the back of the team', () => {
    expect(finished.state.seats).toMatchObject({ box: 'a', partner: null, line: ['c', 'b'] });
    expect(chouetteEngine.needs.finish(setup)).toEqual(NOTHING_NEEDED);
  });

  it('R6.3: voiding the game seats everyone as before it', () => {
    const voided = voidChouetteGame({
      table: { status: 'in-progress', setup, state: finished.state },
      game: { gameNo: 1, setup: game },
      posted: finished.postings,
      latestFinishedGameNo: 1,
      read: NO_READ,
    });
    expect(voided.state.seats).toEqual(state.seats);
    expect(voided.reversing).toEqual([
      { from: 'a', to: 'b', amountMinor: 100, kind: 'void' },
      { from: 'a', to: 'c', amountMinor: 100, kind: 'void' },
      { from: 'house', to: 'a', amountMinor: 20, kind: 'void' },
    ]);
  });

  it('R6.3, R5.8: everyone seated before the game has left since and a newcomer sits alone: the void keeps him as the box', () => {
    // Before the game: box a, team b. Since: c joined, then a and b left (c is the box, alone).
    const before = { box: 'a', partner: null, line: ['b'], partnerLeft: false };
    const now = { box: 'c', partner: null, line: [], partnerLeft: false };
    expect(chouetteSeatsAfterVoid(before, now, setup.rules)).toEqual(now);
  });

  it('R6.3, R5.8: players who joined since sit at the end of the line; a box who left since gives the box to the captain', () => {
    // Before: box a, team b, c. Since: d and e joined, a left.
    const before = { box: 'a', partner: null, line: ['b', 'c'], partnerLeft: false };
    const now = { box: 'c', partner: null, line: ['b', 'e', 'd'], partnerLeft: false };
    expect(chouetteSeatsAfterVoid(before, now, setup.rules)).toEqual({ box: 'b', partner: null, line: ['c', 'e', 'd'], partnerLeft: false });
  });

  it('R6.3, R5.1: a full table where one player left and one joined since is still full after the void, not over full', () => {
    // Twelve seated before the game (R5.1's most); since, p11 left and n joined.
    const players = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const before = { box: 'p0', partner: null, line: players.slice(1), partnerLeft: false };
    const now = { box: 'p1', partner: null, line: [...players.slice(2, 11), 'p0', 'n'], partnerLeft: false };
    expect(chouetteSeatsAfterVoid(before, now, setup.rules)).toEqual({ box: 'p0', partner: null, line: [...players.slice(1, 11), 'n'], partnerLeft: false });
  });
});
