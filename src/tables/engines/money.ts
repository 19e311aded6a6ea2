/**
 * Money games (R4): the stored setup and state of a money table, the setup of its next
 * game and what a finished game posts to the ledger. No I/O.
 */
import type { GameSetup, GameState } from '../../domain/game';
import { createMoneyTable, leadReached, moneyGameSetup, MoneyTable, pointsTotals } from '../../domain/money-game';
import type { SideIndex } from '../../domain/types';
import type { Variant } from '../../domain/variants';
import { moneyGamePayouts } from '../../domain/payouts';
import { distinctPlayers, Engine, Posting, rakePostings, twoSidedGame } from './engine';

/** A money game's `setup` column: its two players, stake and settings (R4.1, R4.3). */
export type MoneyTableSetup = MoneyTable;

/** A money game's `state` column: nothing (`{}`); its games carry everything. */
export type MoneyTableState = Record<string, never>;

/** R4.1, R4.3, R4.4, R8: validates a new money table; its setup always names its variant. */
export function newMoneySetup(input: { players: string[]; stakeMinor: number; rules?: Record<string, unknown>; variant?: Variant }): MoneyTableSetup {
  return createMoneyTable({ players: input.players, stakeMinor: input.stakeMinor, rules: input.rules ?? null, variant: input.variant ?? 'backgammon' });
}

/** The next money game; a Tavli table's variant from its count of finished games (R8.5). */
export function nextMoneyGame(table: MoneyTableSetup, finishedGames = 0): GameSetup {
  return moneyGameSetup(table, finishedGames);
}

/** R4.4: each player's points total at the table, keyed by player id. */
export function moneyPointsTotal(table: MoneyTableSetup, games: ReadonlyArray<{ winnerSide: SideIndex | null; points: number | null }>): Record<string, number> {
  const totals = pointsTotals(games);
  return { [table.players[0]]: totals[0], [table.players[1]]: totals[1] };
}

/** R4.4: whether the table's finished games put one player ahead by its `stopAtLead`. */
export function moneyLeadReached(table: MoneyTableSetup, games: ReadonlyArray<{ winnerSide: SideIndex | null; points: number | null }>): boolean {
  return leadReached(table.rules.stopAtLead, pointsTotals(games));
}

/**
 * R4.2 + R6.4: the loser pays the winner stake × points; the winner pays the rake of
 * his net for the game to the house.
 */
export function moneyPostings(state: GameState, stakeMinor: number, rakeBp: number): Posting[] {
  const payouts = moneyGamePayouts(state, stakeMinor);
  return [...payouts.map((p) => ({ ...p, kind: 'game' as const })), ...rakePostings(payouts, rakeBp)];
}

/** Who plays a money game: its two players. */
export function moneyPlayers(setup: MoneyTableSetup): string[] {
  return distinctPlayers([...setup.players]);
}

export const moneyEngine: Engine<MoneyTableSetup, GameSetup, GameState> = {
  ...twoSidedGame,
  players: (table) => moneyPlayers(table),
};
