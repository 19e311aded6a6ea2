import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { BOARD_FRAME_MS, EventStream, StreamHost } from '../../src/events/event-stream';
import type { EventFilter } from '../../src/events/event-query';
import type { LoggedEvent } from '../../src/events/events.repository';
import type { LogPosition } from '../../src/outbox/event-id';
import type { ClubEvent } from '../../src/outbox/event-types';

/** A response that keeps what is written, and never makes the stream wait. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  writableLength = 0;
  writableNeedDrain = false;
  writableEnded = false;
  destroyed = false;
  socket = { destroyed: false };
  write(chunk: string): boolean {
    this.written.push(chunk);
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
}

const at = (seq: number): LogPosition => ({ tx: '1', seq: String(seq) });
const logged = (seq: number): LoggedEvent => ({ position: at(seq), event: { id: `e${seq}`, type: 'game.finished', subject: `s${seq}` } as unknown as ClubEvent });
const frame = (e: ClubEvent) => `id: ${e.id}\n\n`;
const ALL: EventFilter = { types: null, sessionId: null };
const flush = () => new Promise((r) => setImmediate(r));

/** A host whose log holds `events`; a read answers those after the place asked for, a page at a time. */
function host(events: LoggedEvent[], page: number): StreamHost & { reads: number } {
  const h = {
    reads: 0,
    bufferBytes: 1 << 20,
    read: (_club: string, after: LogPosition) => {
      h.reads++;
      const from = events.findIndex((e) => Number(e.position.seq) > Number(after.seq));
      return Promise.resolve(from < 0 ? [] : events.slice(from, from + page));
    },
    closed: () => undefined,
    failed: () => undefined,
  };
  return h;
}

describe("a board's event stream (paced)", () => {
  afterEach(() => jest.useRealTimers());

  it('writes only the last event of what it read, catch-up pages included, so its screen reads its board once', async () => {
    // 250 events: three pages of 100; a key's stream writes 250 frames, a board's one.
    const events = Array.from({ length: 250 }, (_, i) => logged(i + 1));
    const res = new FakeResponse();
    const s = new EventStream('club', 'key', res as unknown as ServerResponse, at(0), ALL, host(events, 100), frame, true);
    s.start(60_000, false);
    s.wake();
    for (let i = 0; i < 5; i++) await flush();
    expect(res.written.filter((w) => w.startsWith('id: e'))).toEqual(['id: e250\n\n']);

    const keyRes = new FakeResponse();
    const k = new EventStream('club', 'key', keyRes as unknown as ServerResponse, at(0), ALL, host(events, 100), frame, false);
    k.start(60_000, false);
    k.wake();
    for (let i = 0; i < 5; i++) await flush();
    expect(keyRes.written.filter((w) => w.startsWith('id: e'))).toHaveLength(250);
    s.close();
    k.close();
  });

  it('writes at most one frame per BOARD_FRAME_MS; a wake before then is left for a later one, and nothing is lost', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setImmediate'] });
    const events: LoggedEvent[] = [logged(1)];
    const h = host(events, 100);
    const res = new FakeResponse();
    const s = new EventStream('club', 'key', res as unknown as ServerResponse, at(0), ALL, h, frame, true);
    s.start(60_000, false);
    const frames = () => res.written.filter((w) => w.startsWith('id: e'));

    s.wake();
    await flush();
    expect(frames()).toEqual(['id: e1\n\n']);

    // Two more events a moment later: too soon, nothing is read or written.
    events.push(logged(2), logged(3));
    jest.advanceTimersByTime(BOARD_FRAME_MS - 1);
    const reads = h.reads;
    s.wake();
    await flush();
    expect([frames(), h.reads]).toEqual([['id: e1\n\n'], reads]);

    // Once the pace has passed, the next wake says where the log got to: e3.
    jest.advanceTimersByTime(1);
    s.wake();
    await flush();
    expect(frames()).toEqual(['id: e1\n\n', 'id: e3\n\n']);
    s.close();
  });
});
