/**
 * What a tournament command may do (R9.1, R9.2, R9.8, R9.10, R9.11): the checks the
 * service runs before it changes a tournament. Pure: no framework, no I/O.
 */
import { refuse } from './errors';
import { assertPayouts } from './prizes';
import type { TournamentFormat } from './tournament';

export type TournamentStatus = 'open' | 'running' | 'finished';

/** R9.1, R9.5, R9.9, R9.11: the director's settings, as far as they depend on one another. */
export function assertTournamentSettings(s: {
  format: TournamentFormat;
  rounds?: number;
  consolation?: boolean;
  roundMinutes?: number;
  startsAt?: string;
  entryFeeMinor?: number;
  sessionId?: string;
  payouts: number[] | { main: number[]; consolation: number[] };
  housePercent: number;
}): void {
  if (s.format === 'swiss' && s.rounds === undefined) refuse('INVALID_TOURNAMENT', 'R9.1', 'A Swiss tournament names its number of rounds (R9.1)');
  if (s.format === 'knockout' && s.rounds !== undefined) refuse('INVALID_TOURNAMENT', 'R9.1', 'A knockout has as many rounds as its bracket needs: `rounds` is for Swiss events (R9.1)');
  if (s.consolation && s.format !== 'knockout') refuse('INVALID_TOURNAMENT', 'R9.11', 'A consolation bracket runs beside a knockout (R9.11)');
  if (s.roundMinutes !== undefined && s.startsAt === undefined) refuse('INVALID_TOURNAMENT', 'R9.5', '`roundMinutes` spaces the rounds from `startsAt`, which is missing (R9.5)');
  if (s.entryFeeMinor && !s.sessionId) refuse('INVALID_TOURNAMENT', 'R9.9', "An entry fee is paid through a session's ledger: name the session (R9.9)");
  if (!Array.isArray(s.payouts) && !s.consolation) refuse('INVALID_PAYOUTS', 'R9.11', 'Payouts for main and consolation places need a consolation bracket (R9.11)');
  const split = Array.isArray(s.payouts) ? { main: s.payouts, consolation: [] } : s.payouts;
  assertPayouts(split, s.housePercent);
}

/** R9.2: entries close at the draw. */
export function assertEntriesOpen(status: TournamentStatus): void {
  if (status !== 'open') refuse('TOURNAMENT_NOT_OPEN', 'R9.2', 'The draw has been made: entries are closed (R9.2)');
}

/** R9.8: nobody leaves a finished tournament. */
export function assertNotFinished(status: TournamentStatus): void {
  if (status === 'finished') refuse('TOURNAMENT_NOT_RUNNING', 'R9.8', 'The tournament is finished: nobody can leave it any more (R9.8)');
}

/** R9.1, R9.2: the flight named (the first unless named). */
export function flightIndex(flights: ReadonlyArray<{ name: string }>, name: string | undefined): number {
  if (name === undefined) return 0;
  const i = flights.findIndex((f) => f.name === name);
  if (i < 0) refuse('UNKNOWN_FLIGHT', 'R9.1', `The tournament has no flight "${name}"; its flights are ${flights.map((f) => `"${f.name}"`).join(', ')} (R9.1)`);
  return i;
}

/** The most entries a flight takes: a bracket of 256 (R9.2). */
export const MAX_FLIGHT_ENTRIES = 256;

/** R9.2: a flight takes at most MAX_FLIGHT_ENTRIES entries. */
export function assertRoomInFlight(entries: number): void {
  if (entries >= MAX_FLIGHT_ENTRIES) refuse('FLIGHT_FULL', 'R9.2', `A flight takes at most ${MAX_FLIGHT_ENTRIES} entries (R9.2)`);
}

/** R9.2: a player enters once per tournament. */
export function assertNotEntered(flights: ReadonlyArray<{ entries: ReadonlyArray<{ playerId: string }> }>, playerId: string): void {
  if (flights.some((f) => f.entries.some((e) => e.playerId === playerId))) refuse('ALREADY_ENTERED', 'R9.2', 'The player has already entered this tournament (R9.2)');
}

/** R9.2, R9.8: the flight the player entered. */
export function entryFlight(flights: ReadonlyArray<{ entries: ReadonlyArray<{ playerId: string }> }>, playerId: string, rule: 'R9.2' | 'R9.8'): number {
  const i = flights.findIndex((f) => f.entries.some((e) => e.playerId === playerId));
  if (i < 0) refuse('NOT_ENTERED', rule, `The player has not entered this tournament (${rule})`);
  return i;
}

/** R9.10: a result is corrected only while neither of its players has begun a game in a later match. */
export function assertCorrectionOpen(gamesStartedLater: number): void {
  if (gamesStartedLater > 0) {
    refuse('CORRECTION_CLOSED', 'R9.10', 'A player of this match has already started a game in a later match of the tournament: its result can no longer be corrected (R9.10)');
  }
}
