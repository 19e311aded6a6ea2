import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { KeyAuth } from '../common/auth';
import { Db } from '../db/db.service';
import { LOG_START, positionOf, typesOf } from './event-query';
import { EventPageDto, EventsQuery, EventStreamQuery } from './events.dto';
import { EventsHub, StreamKind } from './events-hub';
import type { EventFilter } from './event-query';
import type { LogPosition } from '../outbox/event-id';
import type { ClubEvent } from '../outbox/event-types';
import { EventsRepository } from './events.repository';
import { EVENTS_PAGE_LIMIT } from '../common/pagination';

/** Headers of a stream's answer that Fastify's onSend hook would have set (a hijacked reply skips it). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // No proxy buffering (nginx), so each frame goes out as it is written.
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The readers of the event log: pages (GET /v1/events) and live streams (GET /v1/events/stream). */
@Injectable()
export class EventsService {
  constructor(
    private readonly db: Db,
    private readonly events: EventsRepository,
    private readonly hub: EventsHub,
  ) {}

  async page(auth: KeyAuth, q: EventsQuery): Promise<EventPageDto> {
    const after = q.after === undefined ? LOG_START : positionOf(q.after, 'after');
    const filter = { types: typesOf(q.types), sessionId: q.sessionId?.toLowerCase() ?? null };
    const rows = await this.events.page(this.db.once, auth.clubId, after, filter, q.limit ?? EVENTS_PAGE_LIMIT.default);
    const items = rows.map((r) => r.event);
    return { items, nextCursor: items.length > 0 ? items[items.length - 1].id : (q.after ?? null) };
  }

  /**
   * Opens a live stream: everything that can be refused is refused before the answer
   * starts (problem+json); then the reply is taken over from Fastify (hijack), the
   * headers written with those the request's hooks set (request id, CORS, rate limit),
   * and the hub serves the stream until the client goes.
   */
  async openStream(auth: KeyAuth, q: EventStreamQuery, lastEventId: string | undefined, reply: FastifyReply): Promise<void> {
    const resumeFrom = lastEventId !== undefined ? positionOf(lastEventId, 'Last-Event-ID') : q.lastEventId !== undefined ? positionOf(q.lastEventId, 'lastEventId') : null;
    const filter = { types: typesOf(q.types), sessionId: q.sessionId?.toLowerCase() ?? null };
    await this.open(auth, 'key', filter, resumeFrom, reply);
  }

  /**
   * A board link's stream: only the events its board shows (`filter`), each written as
   * `frame` writes it (what changed, not the change: the board reads its own answer).
   */
  async openBoardStream(auth: KeyAuth, filter: EventFilter, resumeFrom: LogPosition | null, reply: FastifyReply, frame: (e: ClubEvent) => string): Promise<void> {
    await this.open(auth, 'board', filter, resumeFrom, reply, frame);
  }

  private async open(auth: KeyAuth, kind: StreamKind, filter: EventFilter, resumeFrom: LogPosition | null, reply: FastifyReply, frame?: (e: ClubEvent) => string): Promise<void> {
    // HEAD (Fastify answers it with the GET route): the headers a stream would have, and no stream.
    if (reply.request.method === 'HEAD') {
      reply.hijack();
      reply.raw.writeHead(200, this.headersOf(reply)).end();
      return;
    }
    const ticket = this.hub.reserve(auth.clubId, kind);
    let from;
    try {
      from = resumeFrom ?? (await this.hub.horizon());
    } catch (e) {
      ticket.release();
      throw e;
    }
    reply.hijack();
    const res = reply.raw;
    // A stream is long and mostly quiet: the server's idle-socket timeout must not cut it
    // (the heartbeat keeps proxies awake; a client that stops reading is dropped by the hub).
    res.setTimeout(0);
    res.writeHead(200, this.headersOf(reply));
    this.hub.attach(ticket, auth.keyId, res, from, filter, resumeFrom === null, frame, kind);
  }

  /** The headers the request's hooks set on the reply (request id, CORS, rate limit) and a stream's own. */
  private headersOf(reply: FastifyReply): Record<string, string | number | string[]> {
    const set = Object.entries(reply.getHeaders()).filter((h): h is [string, string | number | string[]] => h[1] !== undefined);
    return { ...Object.fromEntries(set), ...STREAM_HEADERS };
  }
}
