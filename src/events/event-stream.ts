import type { ServerResponse } from 'node:http';
import { encodeEventId, LogPosition } from '../outbox/event-id';
import type { ClubEvent } from '../outbox/event-types';
import type { EventFilter } from './event-query';
import type { LoggedEvent } from './events.repository';

/** Events read per page. */
export const STREAM_PAGE = 100;

/** What a stream needs of the hub that serves it. */
export interface StreamHost {
  /** A page of the club's visible events after `after` (one read at a time per stream). */
  read(clubId: string, after: LogPosition, filter: EventFilter, limit: number): Promise<LoggedEvent[]>;
  /** The stream has ended: forget it. */
  closed(stream: EventStream): void;
  /** A read failed (the stream keeps its place and reads again at its next wake). */
  failed(stream: EventStream, e: unknown): void;
  /** The most bytes a client may leave untaken; past it the stream is dropped. */
  readonly bufferBytes: number;
}

/** One SSE frame of an event: its id, its type and its JSON, each on one line. */
export function eventFrame(e: ClubEvent): string {
  return `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

export const HEARTBEAT_FRAME = ': keep-alive\n\n';

/**
 * A board's stream writes at most one frame this often: its screen reads the whole board
 * on each, and a screen under a flood of games needs no more. The first frame after a
 * quiet spell goes at once.
 */
export const BOARD_FRAME_MS = 2000;

/**
 * One client's live stream (server-sent events) of a club's events. It keeps its own
 * place in the log and reads on from it when woken (a notice for its club, the poll):
 * one read at a time, and a wake that comes while it reads makes it read once more
 * after. A full page means it is catching up: it reads the next one as soon as the
 * client has taken what was written (or at the next wake, whichever comes first).
 *
 * Slow clients are dropped, never buffered without bound: a frame that would leave more
 * than `bufferBytes` untaken in the response ends it (the client resumes elsewhere with
 * Last-Event-ID). Closing (the client went away, the stream was dropped, the instance
 * stops) forgets it at once: timers, the hub's registration, a wait for the client.
 */
export class EventStream {
  private reading = false;
  private again = false;
  private ended = false;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Ends a wait for the client to take what was written (a wake or close ends it too). */
  private stopWaiting: (() => void) | null = null;
  /** A paced stream: when it last wrote a frame. */
  private lastFrameAt = 0;
  /** A paced stream's last event read and not yet written (its place is already the stream's). */
  private unsent: LoggedEvent | null = null;

  constructor(
    readonly clubId: string,
    readonly keyId: string,
    private readonly res: ServerResponse,
    private position: LogPosition,
    private readonly filter: EventFilter,
    private readonly host: StreamHost,
    /** How an event is written (a board's stream writes less of it than a key's). */
    private readonly frame: (e: ClubEvent) => string = eventFrame,
    /**
     * A board's stream: it only says that something changed (its client reads the whole
     * board again from the id it is given), so of each page read it writes the last event
     * alone, at most one frame per BOARD_FRAME_MS, and the hub wakes it at a pace
     * (EventsHub) rather than at every notice.
     */
    readonly paced = false,
  ) {}

  get isClosed(): boolean {
    return this.ended;
  }

  /**
   * Sends the opening lines (`retry: 1000`; and an `id:` line alone with the place it
   * starts from, so a client that reconnects before any event resumes from there, not
   * from a later "now") and starts the heartbeat. The headers have been written.
   */
  start(heartbeatMs: number, announceStart: boolean): void {
    this.res.on('close', () => this.close());
    // A write that races the client's going is answered by 'close'; its error must not go unheard.
    this.res.on('error', () => this.close());
    // Gone already (while the stream was being opened): its 'close' will not come again.
    if (this.res.destroyed || this.res.socket === null || this.res.socket.destroyed) return this.close();
    this.write(`retry: 1000\n${announceStart ? `id: ${encodeEventId(this.position)}\n` : ''}\n`);
    this.heartbeat = setInterval(() => this.write(HEARTBEAT_FRAME), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Something may have been written: read on (or once more after the read under way). */
  wake(): void {
    if (this.ended) return;
    // Too soon after its last frame: the hub wakes it again (each second, with the club's
    // other boards, so that they read the log together, sharing one read).
    if (this.paced && Date.now() < this.lastFrameAt + BOARD_FRAME_MS) return;
    if (this.reading) {
      this.again = true;
      this.stopWaiting?.();
      return;
    }
    void this.run();
  }

  private async run(): Promise<void> {
    this.reading = true;
    try {
      for (;;) {
        this.again = false;
        let page: LoggedEvent[];
        try {
          page = await this.host.read(this.clubId, this.position, this.filter, STREAM_PAGE);
        } catch (e) {
          if (!this.ended) this.host.failed(this, e);
          return;
        }
        if (this.paced) {
          // Catching up: read on to the end, then say only where it got to.
          const last = page.at(-1);
          if (last) {
            this.position = last.position;
            this.unsent = last;
          }
          if (this.ended) return;
          if (page.length === STREAM_PAGE) continue;
          if (this.unsent) {
            if (!this.write(this.frame(this.unsent.event))) return;
            this.unsent = null;
            this.lastFrameAt = Date.now();
          }
        } else {
          for (const e of page) {
            if (this.ended || !this.write(this.frame(e.event))) return;
            this.position = e.position;
          }
        }
        if (this.ended) return;
        if (page.length === STREAM_PAGE) {
          if (this.res.writableNeedDrain) await this.clientTakes();
        } else if (!this.again) {
          return;
        }
        if (this.ended) return;
      }
    } finally {
      this.reading = false;
    }
  }

  /** Waits until the client has taken what was written, a wake comes, or the stream ends. */
  private clientTakes(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.stopWaiting = null;
        resolve();
      };
      this.stopWaiting = done;
      this.res.on('drain', done);
    });
  }

  /**
   * Writes a frame, unless it would leave more than the cap untaken (a frame alone may
   * exceed it: it goes when nothing is waiting): then the client is too slow, and the
   * stream is dropped. Answers whether the frame was written.
   */
  private write(frame: string): boolean {
    if (this.ended || this.res.writableEnded || this.res.destroyed) return false;
    const waiting = this.res.writableLength;
    if (waiting > 0 && waiting + Buffer.byteLength(frame) > this.host.bufferBytes) {
      this.drop();
      return false;
    }
    this.res.write(frame);
    return true;
  }

  /** A client too slow to keep up: the response ends, and the connection goes if it does not take the end soon. */
  private drop(): void {
    const res = this.res;
    this.close();
    setTimeout(() => {
      if (!res.writableFinished) res.destroy();
    }, 5000).unref();
  }

  /** Ends the stream (idempotent): the response, the heartbeat, any wait, the hub's registration. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.stopWaiting?.();
    if (!this.res.writableEnded) this.res.end();
    this.host.closed(this);
  }
}
