/**
 * Glue between stored tables and the pure rules of src/domain: which game comes next,
 * how an action log replays, and what a finished game posts to the ledger. No I/O.
 */
import { applyAction, GameAction, GameSetup, GameState, newGame, replay } from '../domain/game';
import { createMatch, MatchEvent, MatchScore, MatchSetup, nextMatchGameSetup, scoreMatch } from '../domain/match';
import { createMoneyTable, moneyGameSetup, MoneyTable } from '../domain/money-game';
import { matchStakePayouts, moneyGamePayouts, Payout } from '../domain/payouts';
import { rakeFor } from '../domain/settlement';
import type { SideIndex } from '../domain/types';
import type { LedgerKind } from '../ledger';
import {
  applyChouetteAction,
  CaptainOutcome,
  ChouetteGameSetup,
  ChouetteGameState,
  chouetteGamePayouts,
  chouetteGameSetup,
  ChouetteRules,
  ChouetteSeating,
  ChouetteSeats,
  isSeated,
  joinChouette,
  leaveChouette,
  newChouetteGame,
  PlayerStake,
  RandomInt,
  replayChouetteGame,
  resolveChouetteRules,
  resolveChouetteStakes,
  rotateAfterGame,
  seatChouette,
  seatedPlayers,
  seatsAtGameStart,
} from '../domain/chouette';
import { HOUSE } from '../domain/settlement';
import type { TableKind } from './table.entity';

export interface Posting extends Payout {
  kind: LedgerKind;
}

/** A penalty as kept in a match's state (R3.6). */
export interface StoredPenalty {
  seq: number;
  side: SideIndex;
  points: number;
  reason: string;
  /** The number of the last game started before it (0: before the first game). */
  afterGameNo: number;
  at: string;
}

export interface FinishedGameRow {
  gameNo: number;
  winnerSide: SideIndex;
  points: number;
}

export interface MatchTableSetup {
  sides: [string[], string[]];
  target: number;
  rules: MatchSetup['rules'];
  hasCube: boolean;
}

/** The match's history in play order: finished games and penalties (R3.4, R3.6). */
export function matchHistory(games: FinishedGameRow[], penalties: StoredPenalty[]): MatchEvent[] {
  const keyed: Array<{ key: [number, number, number]; event: MatchEvent }> = [
    ...games.map((g) => ({ key: [g.gameNo, 0, 0] as [number, number, number], event: { kind: 'game' as const, winnerSide: g.winnerSide, points: g.points, gameNo: g.gameNo } })),
    ...penalties.map((p) => ({ key: [p.afterGameNo, 1, p.seq] as [number, number, number], event: { kind: 'penalty' as const, side: p.side, points: p.points } })),
  ];
  keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  return keyed.map((k) => k.event);
}

export function matchSetupOf(setup: MatchTableSetup): MatchSetup {
  return { sides: setup.sides, target: setup.target, rules: setup.rules, hasCube: setup.hasCube };
}

export function scoreOf(setup: MatchTableSetup, games: FinishedGameRow[], penalties: StoredPenalty[]): MatchScore {
  return scoreMatch(matchSetupOf(setup), matchHistory(games, penalties));
}

/** R3.1–R3.8: validates a new match; the domain refuses with the rule id. */
export function newMatchSetup(input: { sides: string[][]; target: number; rules?: Record<string, unknown> }): MatchTableSetup {
  const m = createMatch({ sides: input.sides, target: input.target, rules: input.rules ?? null });
  return { sides: [[...m.sides[0]], [...m.sides[1]]], target: m.target, rules: m.rules, hasCube: m.hasCube };
}

export function newMoneySetup(input: { players: string[]; stakeMinor: number; rules?: Record<string, unknown> }): MoneyTable {
  return createMoneyTable({ players: input.players, stakeMinor: input.stakeMinor, rules: input.rules ?? null });
}

/** The setup of the next match game, from the score (Crawford R3.4, dead cube R3.5, no game after the end R3.2). */
export function nextMatchGame(setup: MatchTableSetup, score: MatchScore): GameSetup {
  return nextMatchGameSetup(matchSetupOf(setup), score);
}

export function nextMoneyGame(table: MoneyTable): GameSetup {
  return moneyGameSetup(table);
}

export const startGame = (setup: GameSetup, automaticDoubles: number): GameState => newGame(setup, automaticDoubles);
export const applyGameAction = (setup: GameSetup, state: GameState, action: GameAction): GameState => applyAction(setup, state, action);
export const replayGame = (setup: GameSetup, actions: GameAction[], automaticDoubles: number): GameState => replay(setup, actions, automaticDoubles);

/**
 * R4.2 + R6.4: the loser pays the winner stake × points; the winner pays the rake of
 * his net for the game to the house.
 */
export function moneyPostings(state: GameState, stakeMinor: number, rakeBp: number): Posting[] {
  const payouts = moneyGamePayouts(state, stakeMinor);
  return [...payouts.map((p) => ({ ...p, kind: 'game' as const })), ...rakePostings(payouts, rakeBp)];
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

/** R3.8: the match's stake, paid by the losing side to the winning side when it ends. */
export function matchStakePostings(setup: MatchTableSetup, winnerSide: SideIndex, stakeMinor: number | null): Posting[] {
  if (!stakeMinor) return [];
  return matchStakePayouts(setup.sides, winnerSide, stakeMinor).map((p) => ({ ...p, kind: 'match-stake' as const }));
}

// ---------------------------------------------------------------------------
// Chouettes (R5): the stored shapes and the adapter that lets GamesService run a
// chouette game through the same start / apply / replay calls as a two-sided one.
// ---------------------------------------------------------------------------

/** A chouette's `setup` column: the settings and stakes fixed at creation (R5.11, R5.12). */
export interface ChouetteTableSetup {
  rules: ChouetteRules;
  stakes: PlayerStake[];
  stakeMinor: number;
}

/** A chouette's `state` column: who sits where between games (R5.1, R5.7–R5.9). */
export interface ChouetteTableState {
  seats: ChouetteSeats;
}

/**
 * A chouette game's `setup` column: the seats before the game (restored by a void,
 * R6.3), the seats it was played with (after the partner rule, R5.9) and the
 * domain setup.
 */
export interface StoredChouetteGame {
  kind: 'chouette';
  seatsBefore: ChouetteSeats;
  seatsAtStart: ChouetteSeats;
  setup: ChouetteGameSetup;
}

export type AnyGameState = GameState | ChouetteGameState;

/** Start, apply and replay over a game's stored `setup`, whatever the table kind. */
export interface Engine {
  start(setup: unknown, automaticDoubles: number): AnyGameState;
  apply(setup: unknown, state: AnyGameState, action: GameAction): AnyGameState;
  replay(setup: unknown, actions: GameAction[], automaticDoubles: number): AnyGameState;
}

const twoSided: Engine = {
  start: (setup, ad) => newGame(setup as GameSetup, ad),
  apply: (setup, state, action) => applyAction(setup as GameSetup, state as GameState, action),
  replay: (setup, actions, ad) => replay(setup as GameSetup, actions, ad),
};

const chouetteEngine: Engine = {
  start: (setup, ad) => newChouetteGame((setup as StoredChouetteGame).setup, ad),
  apply: (setup, state, action) => applyChouetteAction((setup as StoredChouetteGame).setup, state as ChouetteGameState, action),
  replay: (setup, actions, ad) => replayChouetteGame((setup as StoredChouetteGame).setup, actions, ad),
};

export function engineFor(kind: TableKind): Engine {
  return kind === 'chouette' ? chouetteEngine : twoSided;
}

/** R5.1/R5.11/R5.12: validates a new chouette and seats it. `random` drives a shuffle. */
export function newChouette(
  input: { stakeMinor: number; seating: ChouetteSeating; stakes?: PlayerStake[]; rules?: Record<string, unknown> },
  random: RandomInt,
): { setup: ChouetteTableSetup; state: ChouetteTableState } {
  const rules = resolveChouetteRules(input.rules ?? null);
  const stakes = resolveChouetteStakes(input.stakeMinor, input.stakes ?? null);
  const seats = seatChouette(input.seating, random);
  return {
    setup: { rules, stakes: [...stakes.perPlayer.entries()].map(([playerId, stakeMinor]) => ({ playerId, stakeMinor })), stakeMinor: stakes.stakeMinor },
    state: { seats },
  };
}

/** R5.8/R5.9: the stored setup of the chouette's next game. */
export function nextChouetteGame(table: ChouetteTableSetup, state: ChouetteTableState): StoredChouetteGame {
  const seatsAtStart = seatsAtGameStart(state.seats, table.rules);
  return { kind: 'chouette', seatsBefore: state.seats, seatsAtStart, setup: chouetteGameSetup(seatsAtStart, table.rules) };
}

/** R5.5, R5.9, R5.11, R6.4: a finished chouette game's ledger entries. */
export function chouettePostings(table: ChouetteTableSetup, game: StoredChouetteGame, state: ChouetteGameState, rakeBp: number): Posting[] {
  const stakes = resolveChouetteStakes(table.stakeMinor, table.stakes);
  return chouetteGamePayouts(game.setup, state, { stakes, rakeBasisPoints: rakeBp }).map((p) => ({ ...p, kind: p.to === HOUSE ? ('rake' as const) : ('game' as const) }));
}

/**
 * Who won a chouette game for `winner_side`: 0 = box side, 1 = team. A `finish`
 * names it; a game ended by passes counts the box's result against the captain (R5.7).
 */
export function chouetteWinnerSide(state: ChouetteGameState): SideIndex | null {
  if (state.status !== 'finished') return null;
  if (state.winnerSide !== null) return state.winnerSide === 'box' ? 0 : 1;
  if (state.captainOutcome !== null) return state.captainOutcome === 'box' ? 0 : 1;
  return null;
}

/**
 * The seats a chouette answers (R5.9, R6.3): while a game is in progress, the seats it
 * is played with (its partner taken at its start, R5.9); between games, the table's.
 * The table's state keeps the seats from before the game, so an abandon changes nothing.
 */
export function chouetteSeatsShown(state: ChouetteTableState, current: StoredChouetteGame | null): ChouetteSeats {
  return current ? current.seatsAtStart : state.seats;
}

/** R5.7: the seats after a finished game. */
export function chouetteSeatsAfter(game: StoredChouetteGame, state: ChouetteGameState, rules: ChouetteRules): ChouetteSeats {
  return rotateAfterGame(game.seatsAtStart, state.captainOutcome as CaptainOutcome, rules);
}

/**
 * R6.3: the seats after voiding a game: as before it, except that players who
 * joined since stay (at the end of the line, in the order they sit now) and
 * players who left since stay gone.
 */
export function chouetteSeatsAfterVoid(before: ChouetteSeats, now: ChouetteSeats, rules: ChouetteRules): ChouetteSeats {
  let seats: ChouetteSeats = before;
  for (const p of seatedPlayers(before)) {
    if (!isSeated(now, p)) seats = leaveChouette(seats, p, rules);
  }
  for (const p of seatedPlayers(now)) {
    if (!isSeated(seats, p)) seats = joinChouette(seats, p);
  }
  return seats;
}

/** Who plays a table's game (R6.5 counts them): both sides of a match or money game; a chouette's seats at the start. */
export function gamePlayers(kind: 'match' | 'money' | 'chouette', tableSetup: unknown, gameSetup: unknown): string[] {
  let ids: Array<string | null>;
  if (kind === 'chouette') {
    const seats = (gameSetup as StoredChouetteGame).seatsAtStart;
    ids = [seats.box, seats.partner, ...seats.line];
  } else if (kind === 'money') {
    ids = [...(tableSetup as MoneyTable).players];
  } else {
    ids = (tableSetup as MatchTableSetup).sides.flat();
  }
  return [...new Set(ids.filter((id): id is string => id !== null))].sort();
}
