/**
 * What the engines of every kind of table share: the shape of an engine over a kind's
 * stored types, the ledger postings a finished game makes and the rake on them. No I/O.
 */
import { applyAction, GameAction, GameSetup, GameState, newGame, replay } from '../../domain/game';
import type { Payout } from '../../domain/payouts';
import { rakeFor } from '../../domain/settlement';
import type { LedgerKind } from '../../ledger';

export interface Posting extends Payout {
  kind: LedgerKind;
}

/**
 * One kind's games over its stored types: who plays a game, and start, apply and replay
 * of its action log from the game's stored `setup`.
 */
export interface Engine<TableSetup, GameSetupT, GameStateT> {
  /** Who plays the game (R6.5 counts them), sorted, each once. */
  players(table: TableSetup, game: GameSetupT): string[];
  start(setup: GameSetupT, automaticDoubles: number): GameStateT;
  apply(setup: GameSetupT, state: GameStateT, action: GameAction): GameStateT;
  replay(setup: GameSetupT, actions: GameAction[], automaticDoubles: number): GameStateT;
}

/** Start, apply and replay of a two-sided game (a match's or a money game's). */
export const twoSidedGame: Pick<Engine<unknown, GameSetup, GameState>, 'start' | 'apply' | 'replay'> = {
  start: (setup, automaticDoubles) => newGame(setup, automaticDoubles),
  apply: (setup, state, action) => applyAction(setup, state, action),
  replay: (setup, actions, automaticDoubles) => replay(setup, actions, automaticDoubles),
};

/** The players named, each once, sorted (an empty seat is null). */
export function distinctPlayers(ids: ReadonlyArray<string | null>): string[] {
  return [...new Set(ids.filter((id): id is string => id !== null))].sort();
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
