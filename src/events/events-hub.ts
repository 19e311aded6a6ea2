import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import type { AppConfig } from '../config';
import { CONFIG } from '../config.provider';
import { Db } from '../db/db.service';
import { PgListener } from '../db/listener';
import { ApiKeyCache } from '../guards';
import type { LogPosition } from '../outbox/event-id';
import { EVENTS_CHANNEL } from '../outbox/outbox';
import type { ClubEvent } from '../outbox/event-types';
import type { EventFilter } from './event-query';
import { EventStream } from './event-stream';
import { EventsRepository, LoggedEvent } from './events.repository';

/** Every open stream reads on this often, notice or not (an event may become visible without one). */
const POLL_MS = 1000;
/** A stream's API key is looked at again this often (a revoked key's streams end). */
const KEY_CHECK_MS = 5000;
/** A failed read is logged at most this often. */
const FAILURE_LOG_MS = 10_000;
/**
 * A club's board streams read the log at most this often, all together: a screen reads its
 * whole board again on a frame, so a burst of games makes one frame (and, the screens of a
 * session asking from the same event, one shared read of the board), not one per game.
 */
export const BOARD_PACE_MS = 1000;
/** Board streams a club may have open on one instance (a club's screens: counted apart from its keys' streams). */
export const BOARD_STREAMS_PER_CLUB = 500;

/** Whose stream: an API key's (EVENTS_MAX_STREAMS_PER_CLUB) or a board link's (BOARD_STREAMS_PER_CLUB). */
export type StreamKind = 'key' | 'board';

/** A place held for a stream being opened: attach it, or release it. */
export interface StreamTicket {
  clubId: string;
  release(): void;
}

/**
 * This instance's live event streams. It wakes a club's streams when a notice for the
 * club arrives on `bg_events` (PgListener), and every stream each second anyway: an
 * event becomes visible when the oldest transaction still running ends, which nothing
 * announces. Each stream reads its own pages from its own place (EventStream); at most
 * half the pool's connections read at once, so streams never starve the commands.
 *
 * It keeps nothing a second instance would need: a client that reconnects anywhere
 * with Last-Event-ID carries its place. What it bounds: streams per instance
 * (EVENTS_MAX_STREAMS, then 503 STREAMS_AT_CAPACITY) and per club on this instance
 * (EVENTS_MAX_STREAMS_PER_CLUB, then 429 TOO_MANY_STREAMS). A stream whose API key is
 * revoked ends within a few seconds. When the instance stops, every stream ends (its
 * clients resume on another instance).
 */
@Injectable()
export class EventsHub implements OnModuleDestroy {
  private readonly log = new Logger('EventsHub');
  private readonly streams = new Map<string, Set<EventStream>>();
  /** Streams open or being opened, in all and per club. */
  private held = 0;
  private readonly heldByClub = new Map<string, number>();
  /** Reads under way, by what they read: streams at the same place with the same filter share one (a club's boards). */
  private readonly inFlight = new Map<string, Promise<LoggedEvent[]>>();
  /** Per club: when its board streams were last woken, and the wake waiting for its turn (BOARD_PACE_MS). */
  private readonly boardPace = new Map<string, { last: number; timer: NodeJS.Timeout | null }>();
  private poller: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopping = false;
  private readersBusy = 0;
  private readonly readerQueue: Array<() => void> = [];
  private readonly maxReaders: number;
  private lastKeyCheck = 0;
  private checkingKeys = false;
  private lastFailureLog = 0;
  private readonly bufferBytes: number;

  constructor(
    private readonly db: Db,
    private readonly events: EventsRepository,
    private readonly listener: PgListener,
    private readonly keys: ApiKeyCache,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    this.bufferBytes = config.eventsStreamBufferBytes;
    this.maxReaders = Math.max(1, Math.floor(config.dbPoolSize / 2));
  }

  /** How many streams are open on this instance (and being opened). */
  get openStreams(): number {
    return this.held;
  }

  /** Holds a place for a new stream of the club, or refuses: 503 when the instance is full (or stopping), 429 when the club is. */
  reserve(clubId: string, kind: StreamKind = 'key'): StreamTicket {
    if (this.stopping || this.held >= this.config.eventsMaxStreams) {
      throw new ApiError(ErrorCode.STREAMS_AT_CAPACITY, 'This instance serves as many event streams as it can; retry shortly (another instance may have room).', {
        headers: { 'retry-after': '5' },
      });
    }
    const counter = `${kind}/${clubId}`;
    const club = this.heldByClub.get(counter) ?? 0;
    const limit = kind === 'board' ? BOARD_STREAMS_PER_CLUB : this.config.eventsMaxStreamsPerClub;
    if (club >= limit) {
      throw new ApiError(
        ErrorCode.TOO_MANY_STREAMS,
        kind === 'board'
          ? `The club has ${limit} board streams open on this instance, as many as it may; close a board and retry.`
          : `The club has ${limit} event streams open on this instance, as many as it may; close one (or use GET /v1/events) and retry.`,
        { headers: { 'retry-after': '30' } },
      );
    }
    this.held++;
    this.heldByClub.set(counter, club + 1);
    let released = false;
    return {
      clubId,
      release: () => {
        if (released) return;
        released = true;
        this.held--;
        const left = (this.heldByClub.get(counter) ?? 1) - 1;
        if (left > 0) this.heldByClub.set(counter, left);
        else this.heldByClub.delete(counter);
      },
    };
  }

  /** "Now" in the log: where a stream opened without Last-Event-ID starts. */
  horizon(): Promise<LogPosition> {
    return this.events.horizon(this.db.once);
  }

  /**
   * Starts a stream on a response whose headers have been written, in the place the
   * ticket held. `announceStart`: send the starting place as an `id:` line (a stream
   * that starts at "now", not at an id the client gave).
   */
  attach(
    ticket: StreamTicket,
    keyId: string,
    res: ServerResponse,
    from: LogPosition,
    filter: EventFilter,
    announceStart: boolean,
    frame?: (e: ClubEvent) => string,
    kind: StreamKind = 'key',
  ): void {
    const stream = new EventStream(
      ticket.clubId,
      keyId,
      res,
      from,
      filter,
      {
        bufferBytes: this.bufferBytes,
        read: (clubId, after, f, limit) => this.read(clubId, after, f, limit),
        failed: (_s, e) => this.failed(e),
        closed: (s) => {
          ticket.release();
          this.forget(s);
        },
      },
      frame,
      kind === 'board',
    );
    let club = this.streams.get(ticket.clubId);
    if (!club) this.streams.set(ticket.clubId, (club = new Set()));
    club.add(stream);
    this.follow();
    stream.start(this.config.eventsHeartbeatSeconds * 1000, announceStart);
    if (this.stopping) stream.close();
    else stream.wake();
  }

  /** Listening and polling start with the first stream and the poll stops with the last. */
  private follow(): void {
    if (this.unsubscribe === null && this.listener.available) {
      this.unsubscribe = this.listener.on(
        EVENTS_CHANNEL,
        (clubId) => this.wakeClub(clubId),
        // Back after a loss: notices sent meanwhile are lost, so everyone looks.
        (listening) => listening && this.wakeAll(),
      );
    }
    if (this.poller === null) {
      this.poller = setInterval(() => this.tick(), POLL_MS);
      this.poller.unref();
    }
  }

  private forget(s: EventStream): void {
    const club = this.streams.get(s.clubId);
    club?.delete(s);
    if (club?.size === 0) {
      this.streams.delete(s.clubId);
      const pace = this.boardPace.get(s.clubId);
      if (pace?.timer) clearTimeout(pace.timer);
      this.boardPace.delete(s.clubId);
    }
    if (this.streams.size === 0 && this.poller !== null) {
      clearInterval(this.poller);
      this.poller = null;
    }
  }

  /** Wakes the club's key streams now, and its board streams now or at their next turn. */
  private wakeClub(clubId: string): void {
    let boards = false;
    for (const s of this.streams.get(clubId) ?? []) {
      if (s.paced) boards = true;
      else s.wake();
    }
    if (boards) this.wakeBoards(clubId);
  }

  private wakeBoards(clubId: string): void {
    const pace = this.boardPace.get(clubId) ?? { last: 0, timer: null };
    this.boardPace.set(clubId, pace);
    if (pace.timer !== null) return;
    const run = () => {
      pace.timer = null;
      pace.last = Date.now();
      for (const s of this.streams.get(clubId) ?? []) if (s.paced) s.wake();
    };
    const wait = pace.last + BOARD_PACE_MS - Date.now();
    if (wait <= 0) return run();
    pace.timer = setTimeout(run, wait);
    pace.timer.unref();
  }

  private wakeAll(): void {
    for (const clubId of [...this.streams.keys()]) this.wakeClub(clubId);
  }

  private tick(): void {
    this.wakeAll();
    if (Date.now() - this.lastKeyCheck >= KEY_CHECK_MS && !this.checkingKeys) {
      this.lastKeyCheck = Date.now();
      this.checkingKeys = true;
      void this.checkKeys().finally(() => {
        this.checkingKeys = false;
      });
    }
  }

  /** Ends the streams of keys revoked since they opened (a key that cannot be looked at now is given the benefit of the doubt). */
  private async checkKeys(): Promise<void> {
    const byKey = new Map<string, EventStream[]>();
    for (const club of this.streams.values()) {
      for (const s of club) {
        const id = `${s.clubId}/${s.keyId}`;
        const list = byKey.get(id);
        if (list) list.push(s);
        else byKey.set(id, [s]);
      }
    }
    for (const streams of byKey.values()) {
      const { clubId, keyId } = streams[0];
      const key = await this.keys.get(clubId, keyId).catch(() => undefined);
      if (key === null || (key && key.revokedAt !== null)) for (const s of streams) s.close();
    }
  }

  /**
   * One page for one stream, at most maxReaders at once. Streams of a club at the same
   * place with the same filter (its boards, woken by the same notice) share one read.
   */
  private read(clubId: string, after: LogPosition, filter: EventFilter, limit: number): Promise<LoggedEvent[]> {
    const key = `${clubId}|${after.tx}.${after.seq}|${filter.types?.join(',') ?? '*'}|${filter.sessionId ?? '*'}|${limit}`;
    const shared = this.inFlight.get(key);
    if (shared) return shared;
    const read = this.readOnce(clubId, after, filter, limit).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, read);
    return read;
  }

  private async readOnce(clubId: string, after: LogPosition, filter: EventFilter, limit: number): Promise<LoggedEvent[]> {
    if (this.readersBusy >= this.maxReaders) await new Promise<void>((r) => this.readerQueue.push(r));
    else this.readersBusy++;
    try {
      return await this.events.page(this.db.once, clubId, after, filter, limit);
    } finally {
      // The slot goes to the next in line, or back.
      const next = this.readerQueue.shift();
      if (next) next();
      else this.readersBusy--;
    }
  }

  private failed(e: unknown): void {
    if (Date.now() - this.lastFailureLog < FAILURE_LOG_MS) return;
    this.lastFailureLog = Date.now();
    this.log.warn(`an event stream could not read the log (${(e as Error)?.message ?? String(e)}); it reads again at its next wake`);
  }

  onModuleDestroy(): void {
    this.stopping = true;
    for (const club of [...this.streams.values()]) for (const s of [...club]) s.close();
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    for (const pace of this.boardPace.values()) if (pace.timer) clearTimeout(pace.timer);
    this.boardPace.clear();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
