import { Client } from 'pg';

/** node-postgres' message when a query outlives `query_timeout`. */
const READ_TIMEOUT = 'Query read timeout';

/**
 * A pg client that closes its connection when a query times out on the client side.
 * node-postgres only stops waiting: the statement stays on the wire, and the connection
 * would go back to the pool with it (and maybe an open transaction) in front of the next
 * command. Closing the socket makes the pool discard the connection and tells PostgreSQL
 * to roll back whatever it held.
 */
export class DiscardOnTimeoutClient extends Client {
  // node-postgres' query() has many overloads; the arguments are passed on as they came.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, res: unknown) => {
        if (err) this.discardOnTimeout(err);
        callback(err, res);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result.then(undefined, (e: unknown) => this.discardOnTimeout(e));
    return result;
  }

  private discardOnTimeout(e: unknown): void {
    if ((e as { message?: unknown })?.message === READ_TIMEOUT) {
      (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }
  }
}

/**
 * The node-postgres options that bound every wait on the database by `ms`: taking a
 * connection from the pool (or opening one), and each query (`query_timeout`, enforced
 * by the client, so that a server that stopped answering altogether, or a network that
 * stopped forwarding, is noticed too; the connection is then discarded). PostgreSQL
 * itself cancels a statement or a lock wait a little earlier (`statement_timeout`,
 * `lock_timeout`: the connection stays usable and the error says what happened), and
 * ends a session left idle inside a transaction (`idle_in_transaction_session_timeout`,
 * so the locks of an app that stopped are freed).
 */
export function boundedWaits(ms: number) {
  const server = Math.max(1, ms - Math.min(1000, Math.floor(ms / 4)));
  return {
    connectionTimeoutMillis: ms,
    query_timeout: ms,
    statement_timeout: server,
    lock_timeout: server,
    idle_in_transaction_session_timeout: ms,
    Client: DiscardOnTimeoutClient,
  };
}
