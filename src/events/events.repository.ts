import { Injectable } from '@nestjs/common';
import { cols, Row } from '../db/decode';
import type { Reads } from '../db/tx';
import type { LogPosition } from '../outbox/event-id';
import { clubEventOf } from '../outbox/event-row';
import type { ClubEvent } from '../outbox/event-types';
import type { EventFilter } from './event-query';
import { HORIZON_SQL, pageStatement } from './event-sql';

/** An event read from the log with its place in it. */
export interface LoggedEvent {
  position: LogPosition;
  event: ClubEvent;
}

const decodeLogged = (r: Row): LoggedEvent => {
  const c = cols(r);
  const position = { tx: c.bigintText('log_tx'), seq: c.bigintText('log_seq') };
  return { position, event: clubEventOf(c, position) };
};

const decodeHorizon = (r: Row): LogPosition => ({ tx: cols(r).bigintText('xmin'), seq: '0' });

/** The event log's read side (the statements and why they see what they see: event-sql.ts). */
@Injectable()
export class EventsRepository {
  /** Up to `limit` of the club's visible events after `after`, oldest first. */
  page(db: Reads, clubId: string, after: LogPosition, filter: EventFilter, limit: number): Promise<LoggedEvent[]> {
    const { text, values } = pageStatement(clubId, after, filter, limit);
    return db.rows(text, values, decodeLogged);
  }

  /**
   * "Now" in the log: the position just before every event of a transaction still
   * running or yet to start, (oldest running transaction id, 0).
   */
  async horizon(db: Reads): Promise<LogPosition> {
    const p = await db.maybeOne(HORIZON_SQL, [], decodeHorizon);
    if (p === null) throw new Error('no snapshot');
    return p;
  }
}
