import { Pool, PoolConfig } from 'pg';

/**
 * How the app's connections reach PostgreSQL. `session`: directly (or through a pooler
 * in session mode): a connection is the app's for as long as it is open, so statements
 * are prepared once per connection and the timeouts are set when it opens.
 * `transaction`: through a pooler in transaction mode (PgBouncer's pool_mode =
 * transaction): a server connection is the app's only inside a transaction, so nothing
 * may outlive one (no prepared statement, no startup setting, no LISTEN): statements
 * travel as text and the timeouts are set with SET LOCAL in every transaction.
 */
export type PoolMode = 'session' | 'transaction';

export interface PoolSettings {
  url: string;
  size: number;
  mode: PoolMode;
  /** The bound on every database wait (ms): pool checkout, each query on the client side. */
  timeoutMs: number;
  applicationName?: string;
}

/** The server-side timeouts (ms) for a bound of `ms`: a little shorter, so PostgreSQL says what happened first. */
export function serverTimeouts(ms: number) {
  const server = Math.max(1, ms - Math.min(1000, Math.floor(ms / 4)));
  return { statement_timeout: server, lock_timeout: server, idle_in_transaction_session_timeout: ms };
}

/**
 * The node-postgres options that bound every wait by `ms`: taking a connection (or
 * opening one), each query on the client side (`query_timeout`: a server that stopped
 * answering is noticed too; the unit of work then discards the connection), and, in
 * session mode, PostgreSQL's own statement, lock and idle-in-transaction timeouts as
 * startup settings (a pooler in transaction mode refuses those: SET LOCAL instead).
 */
export function poolConfig(s: PoolSettings): PoolConfig {
  return {
    connectionString: s.url,
    max: s.size,
    idleTimeoutMillis: 30000,
    connectionTimeoutMillis: s.timeoutMs,
    query_timeout: s.timeoutMs,
    application_name: s.applicationName ?? 'bg-club-scorekeeping',
    ...(s.mode === 'session' ? serverTimeouts(s.timeoutMs) : {}),
  };
}

/** A pool of the app's connections. An idle connection the server dropped is simply replaced. */
export function createPool(s: PoolSettings): Pool {
  const pool = new Pool(poolConfig(s));
  pool.on('error', () => undefined);
  // A connection that fails while a command holds it emits 'error' too: the command's own
  // statement fails with it (and the unit of work discards the connection); the event
  // itself must not go unheard, or it would end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
