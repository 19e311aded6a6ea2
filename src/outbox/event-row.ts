import type { Columns } from '../db/decode';
import { encodeEventId, LogPosition } from './event-id';
import type { ClubEvent } from './event-types';

/**
 * An event as readers get it (the page, the stream, webhooks), from a row holding the
 * columns of `events` (type, occurred_at, session_id, subject_kind, subject_id, data)
 * and its place in the log.
 */
export function clubEventOf(c: Columns, position: LogPosition): ClubEvent {
  return {
    id: encodeEventId(position),
    type: c.text('type'),
    occurredAt: c.date('occurred_at').toISOString(),
    sessionId: c.textOrNull('session_id'),
    subject: { kind: c.text('subject_kind'), id: c.text('subject_id') },
    data: c.json('data'),
  };
}
