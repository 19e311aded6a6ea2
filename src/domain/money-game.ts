/**
 * Money play between two players (R4.1–R4.3).
 */
import { GameSetup } from './game';
import { checkStake } from './payouts';
import { MoneyRules, MoneyRulesInput, resolveMoneyRules } from './rules';
import { validateSides } from './sides';
import { refuse } from './errors';
import { PlayerId, Side, SideIndex } from './types';
import { gameVariantAt, parseVariant, splitVariantRules, Variant, variantRules } from './variants';

export interface MoneyGameInput {
  readonly players: unknown;
  readonly stakeMinor: number;
  readonly rules?: (MoneyRulesInput & { readonly cube?: boolean | null }) | null;
  /** R8: the game of the nardy family played (absent: backgammon). */
  readonly variant?: unknown;
}

export interface MoneyTable {
  readonly players: readonly [PlayerId, PlayerId];
  readonly sides: readonly [Side, Side];
  readonly stakeMinor: number;
  readonly rules: MoneyRules;
  /** R8: set when the table was created naming its variant (absent: backgammon). */
  readonly variant?: Variant;
}

/** R4.1/R4.3: two distinct players, a stake per point, the money settings with their defaults. */
export function createMoneyTable(input: MoneyGameInput): MoneyTable {
  const players = Array.isArray(input.players) ? input.players : [];
  const sides = validateSides(
    players.map((p: unknown) => [p]),
    'money',
  );
  const stakeMinor = checkStake(input.stakeMinor, 'R4.1', 'stakeMinor');
  const variant = parseVariant(input.variant);
  // R8.1, R8.10: `cube` and the settings the variant lacks; R4.4 `stopAtLead`; then R4.3.
  const { settings, rest } = splitVariantRules(variant, input.rules ?? {});
  const { stopAtLead, ...money } = (rest ?? {}) as Record<string, unknown>;
  const lead = checkStopAtLead(stopAtLead);
  let rules: MoneyRules = variantRules(resolveMoneyRules((typeof rest === 'object' && rest !== null ? money : rest) as MoneyRulesInput), settings);
  if (stopAtLead !== undefined) rules = Object.freeze({ ...rules, stopAtLead: lead });
  const table = { players: [sides[0][0], sides[1][0]] as const, sides, stakeMinor, rules };
  return input.variant === undefined ? table : { ...table, variant };
}

/** R4.4: `stopAtLead` is a whole number of points from 1, or null (off). */
function checkStopAtLead(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
    refuse('INVALID_SETTING', 'R4.4', `"stopAtLead" is a whole number of points from 1, or null for no limit (R4.4); got ${JSON.stringify(v) ?? 'nothing'}`, {
      setting: 'stopAtLead',
    });
  }
  return v;
}

/**
 * Every money game is a fresh game with the table's settings; doubling is allowed
 * where the variant has a cube. `finishedGames` (draws included, R8.5) picks a Tavli
 * table's next variant.
 */
export function moneyGameSetup(table: MoneyTable, finishedGames = 0): GameSetup {
  const setup: GameSetup = { table: 'money', sides: table.sides, rules: table.rules, doubling: 'allowed', match: null };
  return table.variant === undefined ? setup : { ...setup, variant: gameVariantAt(table.variant, finishedGames) };
}

/** R4.4: each side's points total at the table, from its finished games (a draw adds nothing). */
export function pointsTotals(games: ReadonlyArray<{ readonly winnerSide: SideIndex | null; readonly points: number | null }>): [number, number] {
  const totals: [number, number] = [0, 0];
  for (const g of games) {
    if (g.winnerSide !== null && g.points !== null) totals[g.winnerSide] += g.points;
  }
  return totals;
}

/** R4.4: whether one player's total exceeds the other's by at least `stopAtLead` (off: null). */
export function leadReached(stopAtLead: number | null | undefined, totals: readonly [number, number]): boolean {
  if (stopAtLead === undefined || stopAtLead === null) return false;
  return Math.abs(totals[0] - totals[1]) >= stopAtLead;
}

/** R4.4: a money table finished at its lead takes no more games. */
export function assertMoneyTableOpen(status: 'in-progress' | 'finished', stopAtLead: number | null | undefined): void {
  if (status === 'finished') {
    const lead = stopAtLead === undefined || stopAtLead === null ? 'the limit' : `${stopAtLead} points`;
    refuse('TABLE_FINISHED', 'R4.4', `This money table is finished: a player's lead reached ${lead}, so it takes no more games; voiding its last game reopens it (R4.4)`, {
      stopAtLead: stopAtLead ?? null,
    });
  }
}
