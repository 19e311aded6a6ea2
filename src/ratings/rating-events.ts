import type { NewEvent } from '../outbox/event-types';
import type { RatingChange } from './ratings.service';

/**
 * `rating.changed` for each player whose rating a match changed (R7.1: it finished, or a
 * void reopened it and took the change back), carrying the rating as GET /v1/ratings
 * lists it; `sessionId`: the match's session.
 */
export function ratingEvents(sessionId: string | null, change: RatingChange): NewEvent[] {
  return change.after.map((r) => ({ type: 'rating.changed', sessionId, subject: { kind: 'player', id: r.playerId }, data: r }));
}
