import { Relay } from './relay';

/**
 * The statements an app runs, read from what it sends through a Relay (the frontend
 * messages of the PostgreSQL protocol): one for each simple Query and each Bind of the
 * extended protocol, named by its SQL text (a prepared statement's text from its Parse,
 * earlier on the same connection).
 */
export class StatementLog {
  private readonly connections = new WeakMap<object, { buffer: Buffer; started: boolean; parsed: Map<string, string> }>();
  readonly statements: string[] = [];

  constructor(relay: Relay) {
    relay.onClientData = (connection, chunk) => this.read(connection, chunk);
  }

  private read(connection: object, chunk: Buffer): void {
    let c = this.connections.get(connection);
    if (!c) this.connections.set(connection, (c = { buffer: Buffer.alloc(0), started: false, parsed: new Map() }));
    c.buffer = Buffer.concat([c.buffer, chunk]);
    for (;;) {
      // The startup message (and an SSL request before it) has no type byte.
      if (!c.started) {
        if (c.buffer.length < 4) return;
        const len = c.buffer.readInt32BE(0);
        if (c.buffer.length < len) return;
        const code = c.buffer.readInt32BE(4);
        c.buffer = c.buffer.subarray(len);
        if (code !== 80877103) c.started = true;
        continue;
      }
      if (c.buffer.length < 5) return;
      const len = c.buffer.readInt32BE(1);
      if (c.buffer.length < 1 + len) return;
      const type = String.fromCharCode(c.buffer[0]);
      const body = c.buffer.subarray(5, 1 + len);
      c.buffer = c.buffer.subarray(1 + len);
      const strings = (n: number): string[] => {
        const out: string[] = [];
        let at = 0;
        for (let i = 0; i < n; i++) {
          const end = body.indexOf(0, at);
          out.push(body.subarray(at, end).toString('utf8'));
          at = end + 1;
        }
        return out;
      };
      if (type === 'Q') this.statements.push(strings(1)[0]);
      else if (type === 'P') {
        const [name, text] = strings(2);
        c.parsed.set(name, text);
      } else if (type === 'B') {
        const [, statement] = strings(2);
        this.statements.push(c.parsed.get(statement) ?? `<unknown prepared statement ${statement}>`);
      }
    }
  }

  /** The statements run while `fn` ran (and its answer came back). */
  async during<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const from = this.statements.length;
    const result = await fn();
    return { result, statements: this.statements.slice(from) };
  }
}
