import type { LogPosition } from '../outbox/event-id';
import type { EventFilter } from './event-query';

/**
 * The statements of the event log's read side (plain: the tests EXPLAIN them).
 *
 * A reader only ever sees events whose transaction id is below the oldest transaction
 * still running (`pg_snapshot_xmin` of the statement's own snapshot): every transaction
 * still running or yet to start has an id at or above it, so no event can later appear
 * before a position a reader has passed. Pages go in (tx, seq) order, the order of the
 * primary key (club_id, tx, seq), or of the partial index on (club_id, session_id, tx,
 * seq) when a session is asked for: an index scan from the position, stopped at the limit.
 * (The place goes out as text under other names: `ORDER BY tx` must name the bigint columns.)
 */
export function pageStatement(clubId: string, after: LogPosition, filter: EventFilter, limit: number): { text: string; values: unknown[] } {
  const values: unknown[] = [clubId, after.tx, after.seq];
  let where = 'club_id = $1 AND (tx, seq) > ($2::bigint, $3::bigint) AND tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint';
  if (filter.types !== null) {
    values.push(filter.types);
    where += ` AND type = ANY ($${values.length}::text[])`;
  }
  if (filter.sessionId !== null) {
    values.push(filter.sessionId);
    where += ` AND session_id = $${values.length}::uuid`;
  }
  values.push(limit);
  const text = `SELECT tx::text AS log_tx, seq::text AS log_seq, type, occurred_at, session_id, subject_kind, subject_id, data FROM events WHERE ${where} ORDER BY tx, seq LIMIT $${values.length}`;
  return { text, values };
}

/** "Now" in the log: the oldest transaction still running (or the next to start). */
export const HORIZON_SQL = 'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin';
