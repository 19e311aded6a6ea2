import { createMoneyTable, moneyGameSetup } from './money-game';
import { MONEY_DEFAULTS } from './rules';
import { expectRefusal } from './test-helpers';

describe('R4.1 money game table', () => {
  it('R4.1 two players at a stake per point, R4.3 defaults', () => {
    const t = createMoneyTable({ players: ['a', 'b'], stakeMinor: 100 });
    expect(t).toEqual({ players: ['a', 'b'], sides: [['a'], ['b']], stakeMinor: 100, rules: MONEY_DEFAULTS });
    expect(moneyGameSetup(t)).toEqual({ table: 'money', sides: [['a'], ['b']], rules: MONEY_DEFAULTS, doubling: 'allowed', match: null });
  });

  it('R4.1 refuses anything but two distinct players', () => {
    expectRefusal(() => createMoneyTable({ players: ['a'], stakeMinor: 100 }), 'INVALID_SIDES', 'R4.1');
    expectRefusal(() => createMoneyTable({ players: ['a', 'b', 'c'], stakeMinor: 100 }), 'INVALID_SIDES', 'R4.1');
    expectRefusal(() => createMoneyTable({ players: 'ab', stakeMinor: 100 }), 'INVALID_SIDES', 'R4.1');
    expectRefusal(() => createMoneyTable({ players: ['a', 'a'], stakeMinor: 100 }), 'DUPLICATE_PLAYER', 'R4.1');
  });

  it('R4.1 refuses a negative stake; R6.2 a stake that is not a safe integer', () => {
    expectRefusal(() => createMoneyTable({ players: ['a', 'b'], stakeMinor: -5 }), 'INVALID_STAKE', 'R4.1');
    expectRefusal(() => createMoneyTable({ players: ['a', 'b'], stakeMinor: 2 ** 53 }), 'AMOUNT_OUT_OF_RANGE', 'R6.2');
  });

  it('R4.3 validates the rules', () => {
    expectRefusal(() => createMoneyTable({ players: ['a', 'b'], stakeMinor: 1, rules: { raccoons: true } }), 'RACCOONS_NEED_BEAVERS', 'R2.5');
  });
});
