import type { Tx } from '../db/tx';
import type { SideIndex } from '../domain/types';
import type { MatchTableRow, StoredGame, StoredTable } from './stored-state';

/** What a finished game or match counts in its players' statistics, to add or take back. */
export interface StatsChange {
  /** A game that finished (sign 1) or was voided (−1), with its table. */
  games: Array<{ t: StoredTable; game: StoredGame }>;
  /** A match that ended (sign 1) or was reopened by a void (−1), with the side that won it. */
  matches: Array<{ t: MatchTableRow; winnerSide: SideIndex }>;
}

/**
 * The players' statistics read model (player_stats), kept in the transaction that
 * finishes or voids a game and ends or reopens a match. Implemented in src/player-stats
 * (PlayerStatsWriter), which reads the games as the statistics do; provided globally.
 */
export abstract class GameStats {
  /** Adds (sign 1) or takes back (−1) the change: one deferred write, with the COMMIT. */
  abstract apply(tx: Tx, clubId: string, change: StatsChange, sign: 1 | -1): void;
}
