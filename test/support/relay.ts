import { createServer, Server, Socket } from 'node:net';

/** One relayed connection: the app's side and PostgreSQL's side. */
interface Pair {
  client: Socket;
  upstream: Socket;
  /** Nothing more is forwarded either way (the sockets stay open). */
  blackholed: boolean;
}

/** What the relay does once it sees the app send a matching message. */
export type TrapMode =
  /** Forwards it, then forwards nothing more either way and keeps both sockets open. */
  | 'blackhole'
  /** Forwards it, then resets the app's side (PostgreSQL gets the message, then the end of the stream). */
  | 'reset';

/**
 * A TCP relay between the app and PostgreSQL that a test can cut, freeze (nothing is
 * forwarded, nothing is closed: what a stopped server or a silent network looks like;
 * what was held is delivered when it thaws) or trap (act on the first message from the
 * app that matches a pattern, after forwarding it).
 */
export class Relay {
  private server: Server | null = null;
  private readonly pairs = new Set<Pair>();
  private frozen = false;
  /** What arrived while frozen, in order: delivered (or the end passed on) at thaw. */
  private held: Array<() => void> = [];
  private trap: { pattern: RegExp; mode: TrapMode; fired: () => void } | null = null;
  port = 0;
  /** Sees every chunk the app sends, with its connection, as it is forwarded. */
  onClientData: ((connection: object, chunk: Buffer) => void) | null = null;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(port = 0): Promise<number> {
    this.server = createServer((client) => this.relay(client));
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', () => r()));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  private relay(client: Socket): void {
    const upstream = new Socket();
    const pair: Pair = { client, upstream, blackholed: false };
    this.pairs.add(pair);
    for (const s of [client, upstream]) {
      s.on('error', () => s.destroy());
      s.on('close', () => this.pairs.delete(pair));
    }
    upstream.connect(this.target.port, this.target.host);
    client.on('data', (chunk: Buffer) =>
      this.pass(pair, () => {
        upstream.write(chunk);
        this.onClientData?.(pair, chunk);
        const trap = this.trap;
        if (trap && trap.pattern.test(chunk.toString('latin1'))) {
          this.trap = null;
          if (trap.mode === 'blackhole') pair.blackholed = true;
          else {
            client.destroy();
            upstream.end();
          }
          trap.fired();
        }
      }),
    );
    upstream.on('data', (chunk: Buffer) => this.pass(pair, () => client.write(chunk)));
    // An end on one side is passed on after whatever came before it.
    client.on('close', () => this.pass(pair, () => upstream.end(), true));
    upstream.on('close', () => this.pass(pair, () => client.destroy(), true));
  }

  private pass(pair: Pair, send: () => void, closing = false): void {
    if (pair.blackholed && !closing) return;
    if (this.frozen) this.held.push(send);
    else send();
  }

  /** Stops forwarding on every connection, present and future, without closing any. */
  freeze(): void {
    this.frozen = true;
  }

  /** Delivers what was held, in order, and forwards again. */
  thaw(): void {
    this.frozen = false;
    for (const send of this.held.splice(0)) send();
  }

  /**
   * Arms a one-shot trap: the first message from the app whose bytes match `pattern`
   * is forwarded, then the connection is blackholed or reset. Resolves when it fired.
   */
  trapOnce(pattern: RegExp, mode: TrapMode): Promise<void> {
    return new Promise((fired) => {
      this.trap = { pattern, mode, fired };
    });
  }

  async cut(): Promise<void> {
    this.trap = null;
    this.held = [];
    this.frozen = false;
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = null;
  }
}
