/**
 * Money play between two players (R4.1–R4.3).
 */
import { GameSetup } from './game';
import { checkStake } from './payouts';
import { MoneyRules, MoneyRulesInput, resolveMoneyRules } from './rules';
import { validateSides } from './sides';
import { PlayerId, Side } from './types';

export interface MoneyGameInput {
  readonly players: unknown;
  readonly stakeMinor: number;
  readonly rules?: MoneyRulesInput | null;
}

export interface MoneyTable {
  readonly players: readonly [PlayerId, PlayerId];
  readonly sides: readonly [Side, Side];
  readonly stakeMinor: number;
  readonly rules: MoneyRules;
}

/** R4.1/R4.3: two distinct players, a stake per point, the money settings with their defaults. */
export function createMoneyTable(input: MoneyGameInput): MoneyTable {
  const players = Array.isArray(input.players) ? input.players : [];
  const sides = validateSides(
    players.map((p: unknown) => [p]),
    'money',
  );
  const stakeMinor = checkStake(input.stakeMinor, 'R4.1', 'stakeMinor');
  const rules = resolveMoneyRules(input.rules);
  return { players: [sides[0][0], sides[1][0]], sides, stakeMinor, rules };
}

/** Every money game is a fresh game with the table's settings; doubling is always allowed. */
export function moneyGameSetup(table: MoneyTable): GameSetup {
  return { table: 'money', sides: table.sides, rules: table.rules, doubling: 'allowed', match: null };
}
