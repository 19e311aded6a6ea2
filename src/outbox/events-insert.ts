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
  const json = new Map<unknown, string>();
  for (const e of events) {
    let data = json.get(e.data);
    if (data === undefined) json.set(e.data, (data = JSON.stringify(e.data)));
    const p = values.length + 1;
    rows.push(`($1, $${p}, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4})`);
    values.push(e.type, e.sessionId, e.subject.kind, e.subject.id, data);
  }
  return { what: 'events', text: `INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data) VALUES ${rows.join(', ')}`, values };
}
