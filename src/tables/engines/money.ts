/**
 * Money games (R4): the stored setup and state of a money table, the setup of its next
 * game and what a finished game posts to the ledger. No I/O.
 */
import type { GameSetup, GameState } from '../../domain/game';
import { createMoneyTable, moneyGameSetup, MoneyTable } from '../../domain/money-game';
import { moneyGamePayouts } from '../../domain/payouts';
import { distinctPlayers, Engine, Posting, rakePostings, twoSidedGame } from './engine';

/** A money game's `setup` column: its two players, stake and settings (R4.1, R4.3). */
export type MoneyTableSetup = MoneyTable;

/** A money game's `state` column: nothing (`{}`); its games carry everything. */
export type MoneyTableState = Record<string, never>;

export function newMoneySetup(input: { players: string[]; stakeMinor: number; rules?: Record<string, unknown> }): MoneyTableSetup {
  return createMoneyTable({ players: input.players, stakeMinor: input.stakeMinor, rules: input.rules ?? null });
}

export function nextMoneyGame(table: MoneyTableSetup): GameSetup {
  return moneyGameSetup(table);
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
