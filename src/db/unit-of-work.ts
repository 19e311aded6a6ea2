import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { asStatementFailed, CommitOutcomeUnknown, DatabaseBusy, isDatabaseUnavailable } from '../common/db-failures';
import { isRetryable } from '../common/retryable';
import { Connection, queryConfig } from './connection';
import { Decoder, Row } from './decode';
import { PoolMode } from './pool';
import { ImmediateWrite, Reads, StatementOptions, Tx } from './tx';

const MAX_ATTEMPTS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The unit of work, on a node-postgres pool the app owns (no ORM in the way):
 *
 * - `transaction(work)`: one command in one transaction (READ COMMITTED, the rows it
 *   needs locked by its own statements); on a serialization failure or deadlock (40001,
 *   40P01) the whole unit is run again, a bounded number of times, then DatabaseBusy
 *   (answered 503 DATABASE_BUSY).
 * - `read(work)`: a consistent read, every statement in one REPEATABLE READ snapshot.
 * - `once`: single statements outside any transaction (a page read, a counter).
 *
 * Plain TypeScript (no Nest): Db is its injectable face.
 */
export class UnitOfWork {
  /** Single statements, each on its own (autocommit). */
  readonly once: Reads & { write(w: ImmediateWrite): Promise<number> };

  /** The pool's connections whose socket is still open (see end()). */
  private readonly open = new Set<PoolClient>();

  constructor(
    readonly pool: Pool,
    readonly mode: PoolMode,
    private readonly timeoutMs: number,
  ) {
    pool.on('connect', (client) => {
      this.open.add(client);
      client.once('end', () => this.open.delete(client));
    });
    // One statement on a connection of its own; taking the connection and the statement
    // together wait at most timeoutMs. A connection that failed is closed, never reused.
    const run = async (text: string, values: readonly unknown[], options?: StatementOptions): Promise<QueryResult> => {
      const deadline = Date.now() + timeoutMs;
      const client = await pool.connect();
      let discard = false;
      try {
        return await client.query(queryConfig(text, values, options?.prepare === true && mode === 'session', deadline));
      } catch (e) {
        discard = isDatabaseUnavailable(e);
        throw asStatementFailed(e, text, values);
      } finally {
        client.release(discard ? true : undefined);
      }
    };
    this.once = {
      rows: async <T>(text: string, values: readonly unknown[], decode: Decoder<T>, options?: StatementOptions) => (await run(text, values, options)).rows.map((r) => decode(r as Row)),
      maybeOne: async <T>(text: string, values: readonly unknown[], decode: Decoder<T>, options?: StatementOptions) => {
        const rows = (await run(text, values, options)).rows;
        return rows.length ? decode(rows[0] as Row) : null;
      },
      write: async (w: ImmediateWrite) => (await run(w.text, w.values)).rowCount ?? 0,
    };
  }

  /** A consistent read. It writes nothing, so a connection lost at its COMMIT is only the database being unavailable. */
  async read<T>(work: (tx: Reads) => Promise<T>): Promise<T> {
    try {
      return await this.attempt('REPEATABLE READ', work);
    } catch (e) {
      throw e instanceof CommitOutcomeUnknown ? e.cause : e;
    }
  }

  /** One command in one transaction, run again whole on 40001/40P01. */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(undefined, work);
      } catch (e) {
        if (!isRetryable(e)) throw e;
        if (attempt >= MAX_ATTEMPTS) throw new DatabaseBusy(attempt, e);
        await sleep(5 * attempt + Math.floor(Math.random() * 10 * attempt));
      }
    }
  }

  /** One transaction on a connection of its own; anything thrown rolls it back. */
  private async attempt<T>(isolation: 'REPEATABLE READ' | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    // The whole attempt, taking the connection included, hears back within timeoutMs.
    const deadline = Date.now() + this.timeoutMs;
    const client: PoolClient = await this.pool.connect();
    const conn = new Connection(client, this.mode, this.timeoutMs, isolation, deadline);
    let discard = false;
    try {
      const tx = new Tx(conn);
      const result = await work(tx);
      await conn.commit(tx.takeDeferred());
      tx.runAfterCommit();
      return result;
    } catch (e) {
      discard = await conn.rollback(e);
      throw e;
    } finally {
      // A truthy argument makes the pool close the connection instead of reusing it.
      client.release(discard ? true : undefined);
    }
  }

  /**
   * A cheap look at the database for an operator's probe (GET /ready, metrics): `text`
   * (no parameters) in a read-only transaction PostgreSQL cancels after `ms`, and the
   * client gives up on it a little later. The rows; any failure is thrown as it came, and
   * the connection it failed on is closed, never reused.
   */
  async probe(text: string, ms: number): Promise<Row[]> {
    const client = await this.pool.connect();
    let discard = false;
    try {
      const sql = `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(ms))}; ${text}; COMMIT`;
      // Four statements in one simple-protocol message: node-postgres answers one result each.
      const config: QueryConfig & { query_timeout: number } = { text: sql, query_timeout: ms + 250 };
      return resultsOf(await client.query<Row>(config))[2].rows;
    } catch (e) {
      discard = true;
      throw e;
    } finally {
      client.release(discard ? true : undefined);
    }
  }

  /**
   * Closes the pool once the connections in use are given back, and resolves when every
   * connection is closed: node-postgres's own end() resolves once each was asked to close,
   * not once it has, and a server stopped at that moment would cut the session (the
   * embedded PostgreSQL stopped right after, at shutdown). Bounded: at most 2 s more.
   */
  async end(): Promise<void> {
    await this.pool.end();
    const closed = [...this.open].map((c) => new Promise<void>((resolve) => c.once('end', () => resolve())));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000).unref()))]);
    clearTimeout(timer);
  }
}

/** The results of a query: node-postgres answers a message of several statements with one each, though its types say one. */
function resultsOf(answer: QueryResult<Row> | QueryResult<Row>[]): QueryResult<Row>[] {
  return Array.isArray(answer) ? answer : [answer];
}
