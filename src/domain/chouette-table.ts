/**
 * Chouettes (R5): the stored setup and state of a chouette table and of its games, the
 * seats between games, and an engine that runs a chouette game through the same start /
 * apply / replay calls as a two-sided one. No I/O.
 */
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
  seatedCount,
  seatedPlayers,
  seatsAtGameStart,
} from './chouette';
import type { SideIndex } from './types';
import { HOUSE } from './settlement';
import { distinctPlayers, Engine, FinishInput, GameFinished, GameVoided, NOTHING_NEEDED, Posting, reversingEntries, TableFacts, VoidInput } from './table-engine';

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
 * players who left since stay gone. When everyone who played the game has gone
 * since, the newcomers are seated before the last of them is taken out, so the
 * void never leaves the table without a box (R5.8); they never overfill it (R5.1),
 * as they are no more than sit there now.
 */
export function chouetteSeatsAfterVoid(before: ChouetteSeats, now: ChouetteSeats, rules: ChouetteRules): ChouetteSeats {
  let seats: ChouetteSeats = before;
  let joiners = seatedPlayers(now).filter((p) => !isSeated(before, p));
  const seatJoiners = (): void => {
    for (const p of joiners) seats = joinChouette(seats, p);
    joiners = [];
  };
  for (const p of seatedPlayers(before)) {
    if (isSeated(now, p)) continue;
    if (seatedCount(seats) === 1) seatJoiners();
    seats = leaveChouette(seats, p, rules);
  }
  seatJoiners();
  return seats;
}

/** Who plays a chouette game (R6.5 counts them): its seats at the start. */
export function chouettePlayers(game: StoredChouetteGame): string[] {
  const seats = game.seatsAtStart;
  return distinctPlayers([seats.box, seats.partner, ...seats.line]);
}

/** R5.5, R5.9, R6.4: a finished chouette game's payouts and rake; R5.7: the seats rotate from those it was played with. */
export function finishChouetteGame(input: FinishInput<ChouetteTableSetup, ChouetteTableState, StoredChouetteGame, ChouetteGameState>): GameFinished<ChouetteTableState> {
  const { table, game, state } = input;
  return {
    points: null,
    winnerSide: chouetteWinnerSide(state),
    status: table.status,
    state: { ...table.state, seats: chouetteSeatsAfter(game.setup, state, table.setup.rules) },
    postings: chouettePostings(table.setup, game.setup, state, input.rakeBp),
    matchEnded: null,
  };
}

/** R6.3: the game's entries reversed; seats and partner as before the game, who joined or left since staying joined or gone. */
export function voidChouetteGame(input: VoidInput<ChouetteTableSetup, ChouetteTableState, StoredChouetteGame>): GameVoided<ChouetteTableState> {
  const { table, game } = input;
  return {
    status: table.status,
    state: { ...table.state, seats: chouetteSeatsAfterVoid(game.setup.seatsBefore, table.state.seats, table.setup.rules) },
    reversing: reversingEntries(input.posted),
    matchReopened: null,
  };
}

export const chouetteEngine: Engine<ChouetteTableSetup, StoredChouetteGame, ChouetteGameState, ChouetteTableState> = {
  players: (_table, game) => chouettePlayers(game),
  start: (game, automaticDoubles) => newChouetteGame(game.setup, automaticDoubles),
  apply: (game, state, action) => applyChouetteAction(game.setup, state, action),
  replay: (game, actions, automaticDoubles) => replayChouetteGame(game.setup, actions, automaticDoubles),
  needs: { next: () => NOTHING_NEEDED, finish: () => NOTHING_NEEDED, void: () => NOTHING_NEEDED },
  nextGame: (table: TableFacts<ChouetteTableSetup, ChouetteTableState>) => nextChouetteGame(table.setup, table.state),
  finishGame: finishChouetteGame,
  voidGame: voidChouetteGame,
  shown: (state) => ({ crawford: false, points: null, winnerSide: chouetteWinnerSide(state) }),
};
