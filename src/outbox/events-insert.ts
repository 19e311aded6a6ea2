import type { DeferredWrite } from '../db/tx';
import type { NewEvent } from './event-types';

/**
 * A command's events as one deferred write: one INSERT whose VALUES list holds them in
 * the order given, so the sequence numbers them in that order. Events written by
 * separate data-modifying CTEs of one batch would not be: PostgreSQL runs those in no
 * promised order (in practice the last first). Events that carry the same data object
 * (a game started and finished) have it written as JSON once.
 */
export function eventsInsert(clubId: string, events: readonly NewEvent[]): DeferredWrite {
  const rows: string[] = [];
  const values: unknown[] = [clubId];
  // The parameter each data object is sent in: one parameter for events that share it.
  const param = new Map<unknown, number>();
  for (const e of events) {
    let data = param.get(e.data);
    if (data === undefined) {
      values.push(JSON.stringify(e.data));
      param.set(e.data, (data = values.length));
    }
    const p = values.length + 1;
    rows.push(`($1, $${p}, $${p + 1}, $${p + 2}, $${p + 3}, $${data})`);
    values.push(e.type, e.sessionId, e.subject.kind, e.subject.id);
  }
  return { what: 'events', text: `INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data) VALUES ${rows.join(', ')}`, values };
}
