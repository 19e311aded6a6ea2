import { connect, Socket } from 'node:net';
import { bearer, newClub, startApp, TestApp } from './support/app';
import { recordRawExchange } from './support/contract';

/**
 * Slow clients are cut: headers must arrive within HEADERS_TIMEOUT_SECONDS, the whole request
 * within REQUEST_TIMEOUT_SECONDS, and an idle keep-alive connection is closed after
 * KEEP_ALIVE_TIMEOUT_SECONDS. The app runs here with 1–2 s so the test is quick; the bounds
 * asserted are generous (the server checks its connections periodically).
 */
describe('timeouts: slow and idle connections are closed by the server', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startApp({ HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2', KEEP_ALIVE_TIMEOUT_SECONDS: '1' });
    ({ owner } = await newClub(t));
  });
  afterAll(() => t.close());

  interface Watched {
    socket: Socket;
    received: () => string;
    /** Milliseconds from opening until the server closed it (or null after `within`). */
    closedAfter: (within: number) => Promise<number | null>;
  }

  function open(): Promise<Watched> {
    return new Promise((resolve, reject) => {
      const u = new URL(t.url);
      const started = Date.now();
      const socket = connect(Number(u.port), u.hostname);
      let out = '';
      let closedAt: number | null = null;
      const waiters: Array<() => void> = [];
      const closed = () => {
        if (closedAt === null) closedAt = Date.now();
        waiters.splice(0).forEach((w) => w());
      };
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('end', closed);
      socket.on('close', closed);
      socket.on('error', closed);
      socket.once('connect', () =>
        resolve({
          socket,
          received: () => out,
          closedAfter: (within) =>
            new Promise((done) => {
              if (closedAt !== null) return done(closedAt - started);
              const timer = setTimeout(() => done(null), within);
              waiters.push(() => {
                clearTimeout(timer);
                done(closedAt! - started);
              });
            }),
        }),
      );
      socket.once('error', reject);
    });
  }

  /** Writes `text` one byte every `everyMs` until the socket is closed. */
  function dribble(w: Watched, text: string, everyMs: number): () => void {
    let i = 0;
    const timer = setInterval(() => {
      if (w.socket.destroyed || w.socket.writableEnded) return clearInterval(timer);
      w.socket.write(text[i % text.length]);
      i++;
    }, everyMs);
    return () => clearInterval(timer);
  }

  it('headers sent byte by byte are cut after the headers timeout', async () => {
    const w = await open();
    w.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const stop = dribble(w, 'X-Slow: abcdefghijklmnopqrstuvwxyz', 100);
    const after = await w.closedAfter(15_000);
    stop();
    w.socket.destroy();
    recordRawExchange('GET', '/health', w.received());
    expect(after).not.toBeNull();
    expect(after!).toBeLessThan(10_000);
    if (w.received()) expect(w.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a body sent byte by byte is cut after the request timeout', async () => {
    const w = await open();
    const body = JSON.stringify({ name: 'Slow Sam', nickname: 'x'.repeat(40) });
    w.socket.write(
      `POST /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${bearer(owner).authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const stop = dribble(w, body.slice(0, body.length - 1), 100);
    const after = await w.closedAfter(15_000);
    stop();
    w.socket.destroy();
    recordRawExchange('POST', '/v1/players', w.received());
    expect(after).not.toBeNull();
    expect(after!).toBeLessThan(10_000);
    if (w.received()) expect(w.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await t.sql('SELECT id FROM players WHERE name = $1', ['Slow Sam'])).toEqual([]);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const w = await open();
    w.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const after = await w.closedAfter(15_000);
    w.socket.destroy();
    recordRawExchange('GET', '/health', w.received());
    expect(w.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(after).not.toBeNull();
    expect(after!).toBeLessThan(8_000);
  });

  it('a prompt client is not affected', async () => {
    const res = await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Quick' });
    expect(res.status).toBe(201);
  });
});
