/**
 * Resignation records (R3.10): who offered a resignation that ended a game, and offers
 * that were refused. Pure checks shared by two-sided games (./game) and chouettes
 * (./chouette-game); neither changes a score.
 */
import { refuse } from './errors';
import type { PlayerId } from './types';

/** The shape checks of `offeredBy` on a finish: a player id, and only with `resigned: true`. */
export function assertOfferedByShape(offeredBy: unknown, resigned: unknown): void {
  if (offeredBy === undefined) return;
  if (typeof offeredBy !== 'string' || offeredBy.length === 0) {
    refuse('INVALID_RESIGNATION', 'R3.10', '"offeredBy" is the id of the player who offered the resignation (R3.10)');
  }
  if (resigned !== true) {
    refuse('INVALID_RESIGNATION', 'R3.10', '"offeredBy" names who offered a resignation: send it with "resigned": true (R3.10)', { offeredBy });
  }
}

/** R3.10: the player who offered the resignation is one of the losing side's. */
export function assertOfferedByLoser(offeredBy: PlayerId | undefined, losers: readonly PlayerId[]): void {
  if (offeredBy === undefined || losers.includes(offeredBy)) return;
  refuse('INVALID_RESIGNATION', 'R3.10', `A resignation is offered by the side that loses it: ${offeredBy} is not one of its players (R3.10)`, { offeredBy });
}

/** R3.10: a refused offer names who offered it. */
export function assertResignRefusedBy(by: unknown): asserts by is PlayerId {
  if (typeof by !== 'string' || by.length === 0) {
    refuse('INVALID_RESIGNATION', 'R3.10', 'A refused resignation names the player who offered it ("by", R3.10)');
  }
}

/** R3.10: a refused offer is at a level with a winner (a draw is not resigned, R8.7). */
export function refuseDrawOffer(): never {
  refuse('INVALID_RESIGNATION', 'R3.10', 'A resignation is offered at one of the results with a winner, not a draw (R3.10, R8.7)');
}
