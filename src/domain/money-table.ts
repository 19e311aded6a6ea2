/**
 * Money games (R4): the stored setup and state of a money table, the setup of its next
 * game and what a finished game posts to the ledger. No I/O.
 */
import type { GameSetup, GameState } from './game';
import { assertMoneyTableOpen, createMoneyTable, leadReached, moneyGameSetup, MoneyTable, pointsTotals } from './money-game';
import type { SideIndex } from './types';
import type { Variant } from './variants';
import { moneyGamePayouts } from './payouts';
import {
  distinctPlayers,
  Engine,
  FinishInput,
  GameFinished,
  GameVoided,
  Posting,
  rakePostings,
  Read,
  reversingEntries,
  TableFacts,
  tavliNeedsCount,
  twoSidedGame,
  VoidInput,
} from './table-engine';

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

/** R4.4, R8.5: the next game of a table still open. */
export function nextMoneyTableGame(table: TableFacts<MoneyTableSetup, MoneyTableState>, read: Read): GameSetup {
  assertMoneyTableOpen(table.status, table.setup.rules.stopAtLead);
  return nextMoneyGame(table.setup, read.finishedCount);
}

/** Whether R4.4 applies at the table: it has a lead to stop at. */
function stopsAtLead(setup: MoneyTableSetup): boolean {
  return setup.rules.stopAtLead !== undefined && setup.rules.stopAtLead !== null;
}

/**
 * R4.2, R6.4: the finished game's payouts and rake; R4.4: the table finishes once a
 * player's lead, this game counted, reaches its stopAtLead.
 */
export function finishMoneyGame(input: FinishInput<MoneyTableSetup, MoneyTableState, GameSetup, GameState>): GameFinished<MoneyTableState> {
  const { table, game, state } = input;
  const finished =
    stopsAtLead(table.setup) && moneyLeadReached(table.setup, [...input.read.history.filter((g) => g.gameNo !== game.gameNo), { winnerSide: state.winnerSide, points: state.points }]);
  return {
    points: state.points,
    winnerSide: state.winnerSide,
    status: finished ? 'finished' : table.status,
    state: table.state,
    postings: moneyPostings(state, table.setup.stakeMinor, input.rakeBp),
    matchEnded: null,
  };
}

/** R6.3: the game's entries reversed; R4.4: voiding the game that reached the lead reopens the table. */
export function voidMoneyGame(input: VoidInput<MoneyTableSetup, MoneyTableState, GameSetup>): GameVoided<MoneyTableState> {
  const { table, game } = input;
  const rest = input.read.history.filter((g) => g.gameNo !== game.gameNo);
  return { status: moneyLeadReached(table.setup, rest) ? 'finished' : 'in-progress', state: table.state, reversing: reversingEntries(input.posted), matchReopened: null };
}

export const moneyEngine: Engine<MoneyTableSetup, GameSetup, GameState, MoneyTableState> = {
  ...twoSidedGame,
  players: (table) => moneyPlayers(table),
  needs: {
    next: (table) => ({ history: false, finishedCount: tavliNeedsCount(table.variant) }),
    finish: (table) => ({ history: stopsAtLead(table), finishedCount: false }),
    void: () => ({ history: true, finishedCount: false }),
  },
  nextGame: nextMoneyTableGame,
  finishGame: finishMoneyGame,
  voidGame: voidMoneyGame,
};
