import { Injectable, Logger } from '@nestjs/common';
import { Db } from '../db/db.service';
import type { Tx } from '../db/tx';
import type { NewEvent } from './event-types';

/** The channel on which an instance says "club X has new events" after its COMMIT. */
export const EVENTS_CHANNEL = 'bg_events';

const INSERT_EVENT = 'INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data) VALUES ($1, $2, $3, $4, $5, $6)';

/**
 * The event log's write side (a transactional outbox). `emit` queues the event's INSERT
 * with the command's own COMMIT, so an event exists exactly when its change does: a
 * refused or rolled-back command leaves none. A trigger on the table queues the
 * webhook deliveries in the same transaction.
 *
 * After the COMMIT, the instance announces the club on `bg_events` (pg_notify, outside
 * the command's transaction): a NOTIFY inside it would take PostgreSQL's global notify
 * lock until the commit is flushed, one committing transaction at a time. The notice
 * only wakes readers sooner; they also look on their own every second, so an instance
 * that stops between the COMMIT and the notice delays an event, never loses it.
 */
@Injectable()
export class Outbox {
  private readonly log = new Logger('Outbox');
  private readonly pending = new Set<string>();
  private sending = false;

  constructor(private readonly db: Db) {}

  /** Writes the event with the command's COMMIT (a deferred write: call it after the command's reads). */
  emit(tx: Tx, clubId: string, e: NewEvent): void {
    tx.defer({
      what: 'event',
      text: INSERT_EVENT,
      values: [clubId, e.type, e.sessionId, e.subject.kind, e.subject.id, JSON.stringify(e.data)],
    });
    tx.afterCommit(`events/${clubId}`, () => this.announce(clubId));
  }

  /** Queues a notice for the club; notices are sent one batch at a time. */
  announce(clubId: string): void {
    this.pending.add(clubId);
    if (!this.sending) void this.flush();
  }

  /**
   * Forgets events older than `days` (the HTTP contract keeps them at least 30 days), a
   * batch at a time so that no statement runs long; answers how many went.
   */
  async purge(days = 30, batch = 5000): Promise<number> {
    let total = 0;
    for (let i = 0; i < 1000; i++) {
      const n = await this.db.once.write({
        text: 'DELETE FROM events WHERE ctid = ANY (ARRAY(SELECT ctid FROM events WHERE occurred_at < now() - make_interval(days => $2) LIMIT $1))',
        values: [batch, days],
      });
      total += n;
      if (n < batch) break;
    }
    return total;
  }

  private async flush(): Promise<void> {
    this.sending = true;
    try {
      while (this.pending.size > 0) {
        const clubs = [...this.pending];
        this.pending.clear();
        try {
          await this.db.once.write({ text: `SELECT pg_notify('${EVENTS_CHANNEL}', c) FROM unnest($1::text[]) AS c`, values: [clubs] });
        } catch (e) {
          // Readers poll too: a lost notice only delays them.
          this.log.debug(`event notice not sent: ${(e as Error).message}`);
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
