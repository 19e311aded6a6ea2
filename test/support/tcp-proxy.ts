import { createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of the app, so a test can cut a browser's connections the way a
 * club's Wi-Fi does: `cut()` drops every open connection (the board's stream with them),
 * `down()` also refuses new ones until `up()`.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private refusing = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const to = new URL(target);
    const made: { proxy?: TcpProxy } = {};
    const server = createServer((client) => {
      const proxy = made.proxy;
      if (!proxy || proxy.refusing) return client.destroy();
      const upstream = connect(Number(to.port), to.hostname);
      proxy.track(client);
      proxy.track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
    made.proxy = new TcpProxy(server, `http://127.0.0.1:${address.port}`);
    return made.proxy;
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  /** Drops every open connection. */
  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  /** Drops every connection and refuses new ones. */
  down(): void {
    this.refusing = true;
    this.cut();
  }

  up(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
