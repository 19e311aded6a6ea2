/**
 * What the engines of every kind of table share: the shape of an engine over a kind's
 * stored types (its games played, and what a game's start, finish and void decide), the
 * ledger postings a finished game makes and the rake on them. No I/O.
 *
 * A service reads what `needs` asks for, calls the decision and writes what it answers:
 * one engine per kind (match-table.ts, money-table.ts, chouette-table.ts), so that no
 * service branches on the kind of its table.
 */
import { applyAction, GameAction, GameSetup, GameState, newGame, replay } from './game';
import type { MatchScore } from './match';
import type { Payout } from './payouts';
import { rakeFor } from './settlement';
import type { SideIndex } from './types';

/** The ledger kinds a table's games and matches post. */
export type PostingKind = 'game' | 'void' | 'match-stake' | 'rake';

export interface Posting extends Payout {
  kind: PostingKind;
}

export type TableStatus = 'in-progress' | 'finished';

/** A table as its decisions read it (the stored row fits). */
export interface TableFacts<Setup, State> {
  readonly status: TableStatus;
  readonly setup: Setup;
  readonly state: State;
}

/** A finished game with a winner, as a match's history or a money table's lead counts it (R8.3: draws are left out). */
export interface FinishedGameRow {
  gameNo: number;
  winnerSide: SideIndex;
  points: number;
}

/** What a decision must be given, read from the table's games before the command's writes. */
export interface Needs {
  /** The table's finished games with a winner (`FinishedGameRow`, by number). */
  history: boolean;
  /** How many of its games are finished, draws included. */
  finishedCount: boolean;
}

/** What was read for a decision: empty where `needs` did not ask. */
export interface Read {
  history: FinishedGameRow[];
  finishedCount: number;
}

/** A ledger entry as posted: who paid whom, how much, for what. */
export interface PostedEntry {
  readonly from: string;
  readonly to: string;
  readonly amountMinor: number;
  readonly kind: string;
}

/** The game a decision is about. */
export interface GameFacts<GameSetupT> {
  readonly gameNo: number;
  readonly setup: GameSetupT;
}

/** R3.2, R3.8, R7.1: a match that has just ended, and what its end does. */
export interface MatchEnding {
  readonly score: MatchScore;
  readonly winnerSide: SideIndex;
  /** R7.1, R3.9: whether its players are rated. */
  readonly rated: boolean;
  /** R3.8: its stake, paid by the losing side. */
  readonly postings: Posting[];
}

/** R6.3, R7.1: a finished match that a void has reopened. */
export interface MatchReopening {
  /** The score after the void. */
  readonly score: MatchScore;
  /** The side that had won it, whose win the statistics take back (null: none was counted). */
  readonly winnerSide: SideIndex | null;
  /** The rating changes its end made, to take back. */
  readonly unrate: Array<{ playerId: string; delta: number; experience: number }>;
}

/** What finishing a game decides (R4.2, R3.8, R6.4, R4.4, R3.2, R5.7). */
export interface GameFinished<TableState> {
  /** The game's `points` and `winner_side` columns. */
  points: number | null;
  winnerSide: SideIndex | null;
  /** The table after it. */
  status: TableStatus;
  state: TableState;
  /** The game's ledger entries, with a match's stake when the game ended it. */
  postings: Posting[];
  /** The match the game ended, or null. */
  matchEnded: MatchEnding | null;
}

/** What voiding a game decides (R6.3). */
export interface GameVoided<TableState> {
  status: TableStatus;
  state: TableState;
  /** Entries that reverse the game's own (its earlier reversals excepted). */
  reversing: Posting[];
  /** The finished match the void reopened, or null. */
  matchReopened: MatchReopening | null;
}

/** The crawford flag, points and winner a game's answer shows. */
export interface GameShown {
  crawford: boolean;
  points: number | null;
  winnerSide: SideIndex | null;
}

export interface FinishInput<TableSetup, TableState, GameSetupT, GameStateT> {
  table: TableFacts<TableSetup, TableState>;
  /** The table's own stake (a match's, R3.8), in minor units. */
  stakeMinor: number | null;
  game: GameFacts<GameSetupT>;
  state: GameStateT;
  /** R6.4: the session's rake, in basis points (0 without a session). */
  rakeBp: number;
  read: Read;
}

export interface VoidInput<TableSetup, TableState, GameSetupT> {
  table: TableFacts<TableSetup, TableState>;
  game: GameFacts<GameSetupT>;
  /** The game's ledger entries so far. */
  posted: ReadonlyArray<PostedEntry>;
  /** The table's latest finished game. */
  latestFinishedGameNo: number | null;
  /** Read before the void: the game may be in it. */
  read: Read;
}

/**
 * One kind's games over its stored types: who plays a game, start, apply and replay of
 * its action log from the game's stored `setup`, and what starting, finishing and voiding
 * a game decide.
 */
export interface Engine<TableSetup, GameSetupT, GameStateT, TableState = unknown> {
  /** Who plays the game (R6.5 counts them), sorted, each once. */
  players(table: TableSetup, game: GameSetupT): string[];
  start(setup: GameSetupT, automaticDoubles: number): GameStateT;
  apply(setup: GameSetupT, state: GameStateT, action: GameAction): GameStateT;
  replay(setup: GameSetupT, actions: GameAction[], automaticDoubles: number): GameStateT;
  /** What each decision below must be given. */
  needs: { next(table: TableSetup): Needs; finish(table: TableSetup): Needs; void(table: TableSetup): Needs };
  /** The setup of the table's next game (R3.4, R3.5, R3.2, R4.4, R5.8, R8.5); refuses one the table takes no more of. */
  nextGame(table: TableFacts<TableSetup, TableState>, read: Read): GameSetupT;
  finishGame(input: FinishInput<TableSetup, TableState, GameSetupT, GameStateT>): GameFinished<TableState>;
  voidGame(input: VoidInput<TableSetup, TableState, GameSetupT>): GameVoided<TableState>;
  shown(state: GameStateT): GameShown;
}

export const NOTHING_NEEDED: Needs = { history: false, finishedCount: false };

/** Start, apply and replay of a two-sided game (a match's or a money game's), and what its answer shows. */
export const twoSidedGame: Pick<Engine<unknown, GameSetup, GameState>, 'start' | 'apply' | 'replay' | 'shown'> = {
  start: (setup, automaticDoubles) => newGame(setup, automaticDoubles),
  apply: (setup, state, action) => applyAction(setup, state, action),
  replay: (setup, actions, automaticDoubles) => replay(setup, actions, automaticDoubles),
  shown: (state) => ({ crawford: state.crawford, points: state.points, winnerSide: state.winnerSide ?? null }),
};

/** R8.5: a Tavli table's count of finished games picks its next variant. */
export function tavliNeedsCount(variant: string | undefined): boolean {
  return variant === 'tavli';
}

/** The players named, each once, sorted (an empty seat is null). */
export function distinctPlayers(ids: ReadonlyArray<string | null>): string[] {
  return [...new Set(ids.filter((id): id is string => id !== null))].sort();
}

/** R6.3: the entries that reverse a game's own, from each payee back to its payer; its earlier reversals are left alone. */
export function reversingEntries(posted: ReadonlyArray<PostedEntry>): Posting[] {
  return posted.filter((e) => e.kind !== 'void').map((e) => ({ from: e.to, to: e.from, amountMinor: e.amountMinor, kind: 'void' }));
}

/** R6.4: a percentage of each winner's net for the game, rounded down, to "house". */
export function rakePostings(payouts: Payout[], rakeBp: number): Posting[] {
  if (rakeBp === 0) return [];
  const net = new Map<string, bigint>();
  for (const p of payouts) {
    net.set(p.to, (net.get(p.to) ?? 0n) + BigInt(p.amountMinor));
    net.set(p.from, (net.get(p.from) ?? 0n) - BigInt(p.amountMinor));
  }
  const out: Posting[] = [];
  for (const [party, n] of [...net.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n <= 0n) continue;
    const rake = rakeFor(Number(n), rakeBp);
    if (rake > 0) out.push({ from: party, to: 'house', amountMinor: rake, kind: 'rake' });
  }
  return out;
}
