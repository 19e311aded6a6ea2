import { Injectable, Logger } from '@nestjs/common';
import { Db } from '../db/db.service';
import type { Tx } from '../db/tx';
import type { NewEvent } from './event-types';
import { eventsInsert } from './events-insert';

/** The channel on which an instance says "club X has new events" after its COMMIT. */
export const EVENTS_CHANNEL = 'bg_events';

/** The shortest time between two notice statements of one instance. */
const NOTICE_INTERVAL_MS = 50;

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

  /** The transactions that have emitted: a command emits once (see emit). */
  private readonly emitted = new WeakSet<Tx>();

  constructor(private readonly db: Db) {}

  /**
   * Writes the command's events, in the order given, with its COMMIT (a deferred write:
   * call it after the command's reads). A command gives all its events in this one
   * call, so that their order in the log is theirs: a second call in the same
   * transaction throws (a programming error, caught by any test of the path).
   */
  emit(tx: Tx, clubId: string, ...events: NewEvent[]): void {
    if (events.length === 0) return;
    if (this.emitted.has(tx)) throw new Error('a command emits its events in one call (Outbox.emit), in their order');
    this.emitted.add(tx);
    tx.defer(eventsInsert(clubId, events));
    tx.afterCommit(`events/${clubId}`, () => this.announce(clubId));
  }

  /**
   * Queues a notice for the club. A notice goes at once when none went in the last
   * NOTICE_INTERVAL_MS; the clubs announced meanwhile go together when it has passed, so
   * a busy instance sends at most one notice statement per interval (and wakes each
   * reader at most that often) instead of one per command.
   */
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
        await new Promise((r) => setTimeout(r, NOTICE_INTERVAL_MS).unref());
      }
    } finally {
      this.sending = false;
    }
  }
}
