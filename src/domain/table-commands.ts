/**
 * Refusals of the commands on a table and its games (R6.8 one game at a time, R6.3
 * voids and finished games, R3.6 and R3.2 penalties, R5.8 joins and leaves), decided
 * on plain data: the service reads the rows and asks. Pure: no framework, no I/O.
 */
import { refuse } from './errors';
import type { MatchResultRef } from './match';

/** Only what these rules look at on a table: the number of its game in progress, if any. */
export interface TableFacts {
  readonly currentGameNo: number | null;
}

export type GameStatus = 'in-progress' | 'finished' | 'voided' | 'abandoned';

/** R6.8: one game at a time on a table; the next starts once the last is over. */
export function assertNoGameInProgress(table: TableFacts): void {
  if (table.currentGameNo !== null) {
    refuse('GAME_IN_PROGRESS', 'R6.8', `Game ${table.currentGameNo} is still in progress: finish, abandon or void it before the next game starts (R6.8)`);
  }
}

/** R3.6: penalty points are an adjustment between games, never during one. */
export function assertPenaltyBetweenGames(table: TableFacts): void {
  if (table.currentGameNo !== null) {
    refuse('GAME_IN_PROGRESS', 'R3.6', `Penalty points are an adjustment between games; game ${table.currentGameNo} is in progress (R3.6)`);
  }
}

/** R3.2: a match that is over takes no more penalties. */
export function assertMatchNotOver(status: 'in-progress' | 'finished'): void {
  if (status === 'finished') refuse('MATCH_FINISHED', 'R3.2', 'The match is over: no more penalties (R3.2)');
}

/** R5.8: players join and leave a chouette between games. */
export function assertChouetteBetweenGames(table: TableFacts, what: 'join' | 'leave'): void {
  if (table.currentGameNo !== null) {
    refuse('GAME_IN_PROGRESS', 'R5.8', `Players ${what} a chouette between games; game ${table.currentGameNo} is in progress (R5.8)`);
  }
}

/** R6.3: a void needs no game in progress on the table, and a finished game to void. */
export function assertVoidable(table: TableFacts, gameNo: number, status: GameStatus): void {
  if (table.currentGameNo !== null) {
    refuse('GAME_IN_PROGRESS', 'R6.3', `Game ${table.currentGameNo} is in progress: a game can be voided only while none is (R6.3)`);
  }
  if (status !== 'finished') refuse('GAME_NOT_FINISHED', 'R6.3', `Game ${gameNo} is ${status}: only a finished game can be voided (R6.3)`);
}

/** R6.3: only the table's most recent finished game may be voided. */
export function assertLatestFinishedGame(gameNo: number, latest: number | null): void {
  if (latest !== gameNo) refuse('NOT_LATEST_GAME', 'R6.3', `Only the table's most recent finished game (game ${latest}) may be voided (R6.3)`);
}

/** R6.3: nothing more happens in a game that is over; a finished one is corrected by voiding it. */
export function assertGameInProgress(gameNo: number, status: GameStatus): void {
  if (status === 'finished') refuse('GAME_FINISHED', 'R6.3', `Game ${gameNo} is finished: nothing more can happen in it; void it to correct it (R6.3)`);
  if (status !== 'in-progress') refuse('GAME_NOT_IN_PROGRESS', 'R6.3', `Game ${gameNo} was ${status}: nothing more can happen in it`);
}

/** Undo takes back the game's last action: there must be one. */
export function assertSomethingToUndo(gameNo: number, actionCount: number): void {
  if (actionCount === 0) refuse('NOTHING_TO_UNDO', null, `Game ${gameNo} has no action to take back`);
}

/** Every player a command names belongs to the caller's club: `missing` are those that do not. */
export function assertPlayersKnown(missing: readonly string[]): void {
  if (missing.length) refuse('UNKNOWN_PLAYER', null, `No such player in this club: ${missing.join(', ')}`, { players: missing });
}

/** R3.9: a match that is over cannot be forfeited; its result is voided first (R6.3). */
export function assertForfeitable(status: 'in-progress' | 'finished'): void {
  if (status === 'finished') {
    refuse('MATCH_FINISHED', 'R3.9', 'The match is over: it cannot be forfeited now; void its last result first to reopen it (R3.9, R6.3)');
  }
}

/** How a match's result is named in a refusal. */
function resultName(r: MatchResultRef): string {
  return r.kind === 'game' ? `game ${r.gameNo}` : r.kind === 'penalty' ? `penalty ${r.seq}` : 'the forfeit';
}

/**
 * R6.3, R3.6, R3.9: a match's void takes back its most recent result (a game, a
 * penalty or a forfeit), only while no game is in progress, and needs one to take back.
 */
export function assertMatchVoidable(table: TableFacts, latest: MatchResultRef | null): asserts latest is MatchResultRef {
  if (table.currentGameNo !== null) {
    refuse('GAME_IN_PROGRESS', 'R6.3', `Game ${table.currentGameNo} is in progress: a result can be voided only while no game is (R6.3)`);
  }
  if (latest === null) refuse('NOTHING_TO_VOID', 'R6.3', 'The match has no result to void: no finished game, penalty or forfeit stands (R6.3)');
}

/**
 * R6.3, R3.6, R3.9: a match's game may be voided only while it is the match's most recent
 * result: a penalty or forfeit recorded after it is voided first.
 */
export function assertGameIsLatestResult(gameNo: number, latest: MatchResultRef | null): void {
  if (latest && latest.kind !== 'game') {
    refuse(
      'NOT_LATEST_GAME',
      'R6.3',
      `Game ${gameNo} is not the match's most recent result: ${resultName(latest)} came after it; void that first (R6.3, ${latest.kind === 'penalty' ? 'R3.6' : 'R3.9'})`,
      {
        latest,
      },
    );
  }
}
