import { GameAction, replay } from './game';
import { createMoneyTable, moneyGameSetup } from './money-game';
import { matchGamePayouts, matchStakePayouts, moneyGamePayouts, sideTransfers, splitEvenly } from './payouts';
import { expectRefusal } from './test-helpers';

const A = 'alice';
const B = 'bob';
const C = 'carol';
const D = 'dave';

const table = createMoneyTable({ players: [A, B], stakeMinor: 250 });
const setup = moneyGameSetup(table);
const play = (actions: GameAction[]) => replay(setup, actions);

describe('R4.2 money game payouts: the loser pays stake × points', () => {
  it('R4.2 gammon on a taken cube of 2 at 250 a point: 2 × 2 × 250 = 1000 from bob to alice', () => {
    const g = play([
      { type: 'double', by: A },
      { type: 'take', by: B },
      { type: 'finish', winner: A, result: 'gammon' },
    ]);
    expect(moneyGamePayouts(g, table.stakeMinor)).toEqual([{ from: B, to: A, amountMinor: 1000 }]);
  });

  it('R4.2/R1.5 Jacoby: a centred gammon counts single: 1 × 1 × 250 = 250', () => {
    const g = play([{ type: 'finish', winner: B, result: 'gammon' }]);
    expect(moneyGamePayouts(g, 250)).toEqual([{ from: A, to: B, amountMinor: 250 }]);
  });

  it('R4.2/R1.3 a pass of a double from 1 pays 1 × 250', () => {
    const g = play([
      { type: 'double', by: B },
      { type: 'pass', by: A },
    ]);
    expect(moneyGamePayouts(g, 250)).toEqual([{ from: A, to: B, amountMinor: 250 }]);
  });

  it('R4.2 a game in progress pays nothing yet', () => {
    expectRefusal(() => moneyGamePayouts(play([]), 250), 'GAME_NOT_FINISHED', 'R4.2');
  });

  it('R6.2 stake × points beyond 2^53 − 1 is refused, not rounded', () => {
    // cube 4 owned, gammon: 8 points; 8 × 2^50 = 2^53 > 2^53 − 1
    const g = play([
      { type: 'double', by: A },
      { type: 'take', by: B },
      { type: 'double', by: B },
      { type: 'take', by: A },
      { type: 'finish', winner: A, result: 'gammon' },
    ]);
    expect(g.points).toBe(8);
    expectRefusal(() => moneyGamePayouts(g, 2 ** 50), 'AMOUNT_OUT_OF_RANGE', 'R6.2');
    // 8 × (2^50 − 1) = 2^53 − 8: fine
    expect(moneyGamePayouts(g, 2 ** 50 - 1)).toEqual([{ from: B, to: A, amountMinor: 2 ** 53 - 8 }]);
  });

  it('R6.2 a stake must be a safe, non-negative integer', () => {
    const g = play([{ type: 'finish', winner: A, result: 'single' }]);
    expectRefusal(() => moneyGamePayouts(g, -1), 'INVALID_STAKE', 'R4.1');
    expectRefusal(() => moneyGamePayouts(g, 2.5), 'AMOUNT_OUT_OF_RANGE', 'R6.2');
    expect(moneyGamePayouts(g, 0)).toEqual([]);
  });
});

describe('R3.8 match stake', () => {
  it('R3.8 single players: the loser pays the whole stake', () => {
    expect(matchStakePayouts([[A], [B]], 1, 5000)).toEqual([{ from: A, to: B, amountMinor: 5000 }]);
  });

  it('R3.8 pair against pair, odd stake 1001: 501 + 500 on each side, odd unit on the first-named', () => {
    // payers C 501, D 500; payees A 501, B 500
    expect(
      matchStakePayouts(
        [
          [A, B],
          [C, D],
        ],
        0,
        1001,
      ),
    ).toEqual([
      { from: C, to: A, amountMinor: 501 },
      { from: D, to: B, amountMinor: 500 },
    ]);
  });

  it('R3.8 single player pays a pair 5: 3 to the first-named, 2 to the partner', () => {
    expect(matchStakePayouts([[A, B], [C]], 0, 5)).toEqual([
      { from: C, to: A, amountMinor: 3 },
      { from: C, to: B, amountMinor: 2 },
    ]);
  });

  it('R3.8 a pair pays a single player 5: the first-named pays 3, the partner 2', () => {
    expect(matchStakePayouts([[A], [C, D]], 0, 5)).toEqual([
      { from: C, to: A, amountMinor: 3 },
      { from: D, to: A, amountMinor: 2 },
    ]);
  });

  it('R3.8 a stake of 1 between pairs: one transfer of 1, first-named to first-named', () => {
    expect(
      matchStakePayouts(
        [
          [A, B],
          [C, D],
        ],
        1,
        1,
      ),
    ).toEqual([{ from: A, to: C, amountMinor: 1 }]);
  });

  it('R3.8 only the game that ends the match carries the stake', () => {
    const sides = [[A], [B]] as const;
    const g = { status: 'finished' as const, winnerSide: 1 as const };
    expect(matchGamePayouts(g, { sides, stakeMinor: 700, endsMatch: false })).toEqual([]);
    expect(matchGamePayouts(g, { sides, stakeMinor: null, endsMatch: true })).toEqual([]);
    expect(matchGamePayouts(g, { sides, stakeMinor: 700, endsMatch: true })).toEqual([{ from: A, to: B, amountMinor: 700 }]);
    expectRefusal(() => matchGamePayouts({ status: 'in-progress', winnerSide: null }, { sides, stakeMinor: 700, endsMatch: true }), 'GAME_NOT_FINISHED', 'R3.8');
  });
});

describe('splitting', () => {
  it('R3.8 splitEvenly puts the odd unit first', () => {
    expect(splitEvenly(7n, 2)).toEqual([4n, 3n]);
    expect(splitEvenly(6n, 2)).toEqual([3n, 3n]);
    expect(splitEvenly(7n, 1)).toEqual([7n]);
  });
  it('sideTransfers posts nothing for zero', () => {
    expect(sideTransfers([A], [B], 0n)).toEqual([]);
  });
});
