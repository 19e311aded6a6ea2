import type { PoolClient, QueryConfig, QueryResult } from 'pg';
import { asStatementFailed, CommitOutcomeUnknown, isDatabaseUnavailable, isReadOnlyRefusal, isUnreplicatedCommitNotice, neverSent, WriteConflict } from '../common/db-failures';
import { nameOf } from '../common/sql-names';
import { PoolMode, serverTimeouts } from './pool';
import { inline, literals } from './sql';

/** What a statement answered: its rows and how many rows it touched. */
export interface Result {
  rows: Array<Record<string, unknown>>;
  rowCount: number;
}

/** SQLSTATE raised by bg_expect_rows when a guarded write touched another number of rows. */
export const GUARD_MISSED = 'BG409';

/**
 * A deferred guarded write that missed, as bg_expect_rows raised it (BG409, its message
 * `<what>: expected <n> row(s), touched <m>`): the row moved on since it was read.
 */
export function missedGuard(e: unknown): WriteConflict {
  const message = (e as { message?: unknown })?.message;
  const m = typeof message === 'string' ? /^(.*): expected (\d+) row\(s\), touched (\d+)$/s.exec(message) : null;
  return m ? new WriteConflict(m[1], Number(m[2]), Number(m[3]), e) : new WriteConflict(typeof message === 'string' && message ? message : 'a deferred write', null, null, e);
}

/**
 * At most this many SQL-level prepared statements per connection: a command's batch has
 * as many shapes as it has combinations of writes, so the least recently used one is
 * deallocated to make room (in the same round trip as the new PREPARE).
 */
export const MAX_SQL_STATEMENTS = 256;

/** SQL-level prepared statements made on each connection, least recently used first. */
const sqlPrepared = new WeakMap<PoolClient, Set<string>>();

/**
 * One transaction on one pooled connection, with BEGIN and COMMIT riding on statements
 * the transaction sends anyway instead of costing a round trip each:
 *
 * - BEGIN waits for the first statement and goes with it in one simple-protocol message:
 *   `BEGIN; EXECUTE name(literals)` for a prepared statement (session mode), or
 *   `BEGIN; <statement with its values as literals>` otherwise.
 * - The deferred writes go with COMMIT: `EXECUTE batch(literals); COMMIT`. A guarded
 *   write that touched the wrong number of rows raises inside that statement
 *   (bg_expect_rows, SQLSTATE BG409), so PostgreSQL skips the COMMIT.
 *
 * A value that cannot travel as a literal (a NUL character) falls back to separate round
 * trips with parameters. Isolation, row locks and what commits are exactly those of
 * BEGIN … COMMIT sent on their own. In transaction mode (behind a pooler) nothing is
 * prepared: statements travel as text, and BEGIN carries the timeouts as SET LOCAL.
 */
export class Connection {
  private beginPending = true;
  private readonly begin: string;
  private sent = false;
  private done = false;

  /**
   * `deadline` (ms since the epoch): when the whole unit of work must have heard back,
   * taking the connection included. Each statement may wait only what is left of it
   * (node-postgres' query_timeout), so waits do not add up past DB_TIMEOUT_MS.
   */
  constructor(
    private readonly client: PoolClient,
    private readonly mode: PoolMode,
    timeoutMs: number,
    isolation?: 'REPEATABLE READ',
    private readonly deadline: number = Date.now() + timeoutMs,
  ) {
    let begin = isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN';
    if (mode === 'transaction') {
      const t = serverTimeouts(timeoutMs);
      begin += `; SET LOCAL statement_timeout = ${t.statement_timeout}; SET LOCAL lock_timeout = ${t.lock_timeout}; SET LOCAL idle_in_transaction_session_timeout = ${t.idle_in_transaction_session_timeout}`;
    }
    this.begin = begin;
  }

  /** Runs one statement of the transaction (BEGIN goes with the first). `prepare`: a hot statement, planned once per connection. */
  async run(text: string, values: readonly unknown[], prepare: boolean): Promise<Result> {
    try {
      if (this.beginPending) {
        this.beginPending = false;
        this.sent = true;
        const exec = await this.executable(text, values, prepare);
        if (exec !== null) return last(await this.send(`${this.begin}; ${exec}`));
        await this.send(this.begin);
      }
      return one(await this.send(text, values, prepare && this.mode === 'session'));
    } catch (e) {
      throw asStatementFailed(e, text, values);
    }
  }

  /**
   * Sends the deferred writes (one statement, or none) and COMMIT, in one round trip.
   * When the connection fails (or stops answering) once COMMIT has gone out, PostgreSQL
   * may have committed or not: CommitOutcomeUnknown, never a plain connection failure. An
   * error PostgreSQL answered (a SQLSTATE) means the COMMIT did not happen; a guarded
   * write that missed is a WriteConflict (answered 409 CONFLICT).
   */
  async commit(batch: { text: string; values: readonly unknown[]; lead?: ReadonlyArray<{ text: string; values: readonly unknown[] }> } | null): Promise<void> {
    const begin = this.beginPending;
    this.beginPending = false;
    let commitSent = false;
    const withCommit = async (sql: string) => {
      commitSent = true;
      this.sent = true;
      // A COMMIT that stopped waiting for the synchronous standby answers success with a
      // WARNING: committed here, maybe on no standby. It is not acknowledged as written.
      let unreplicated: unknown = null;
      const onNotice = (notice: { message?: string; detail?: string }) => {
        if (isUnreplicatedCommitNotice(notice)) unreplicated = notice;
      };
      this.client.on('notice', onNotice);
      try {
        await this.send(sql);
      } finally {
        this.client.off('notice', onNotice);
      }
      if (unreplicated !== null) throw new CommitOutcomeUnknown(unreplicated, 'The COMMIT stopped waiting for the synchronous standby: committed on the primary, maybe on no standby.');
    };
    try {
      if (batch) {
        // The locks the batch takes first (Tx.lockFirst) go ahead of it in the same message.
        const lead: string[] = [];
        for (const l of batch.lead ?? []) {
          const e = await this.executable(l.text, l.values, true);
          if (e === null) {
            lead.length = 0;
            break;
          }
          lead.push(`${e}; `);
        }
        const exec = lead.length === (batch.lead?.length ?? 0) ? await this.executable(batch.text, batch.values, true) : null;
        if (exec !== null) {
          await withCommit(`${begin ? `${this.begin}; ` : ''}${lead.join('')}${exec}; COMMIT`);
        } else {
          if (begin) await this.send(this.begin);
          this.sent = true;
          for (const l of batch.lead ?? []) await this.send(l.text, l.values, this.mode === 'session');
          await this.send(batch.text, batch.values, this.mode === 'session');
          await withCommit('COMMIT');
        }
      } else if (!begin) {
        await withCommit('COMMIT');
      }
      this.done = true;
    } catch (e) {
      if (e instanceof CommitOutcomeUnknown) throw e;
      if (commitSent && isDatabaseUnavailable(e) && !neverSent(e) && !isReadOnlyRefusal(e)) throw new CommitOutcomeUnknown(e);
      if ((e as { code?: unknown })?.code === GUARD_MISSED) throw missedGuard(e);
      throw asStatementFailed(e, batch?.text ?? 'COMMIT', batch?.values ?? []);
    }
  }

  /**
   * Ends a transaction that failed: ROLLBACK when anything was sent. Answers whether the
   * connection must be discarded: one that failed or stopped answering (`cause`), or that
   * cannot roll back, is never handed to the next command; PostgreSQL rolls back what it
   * held when the connection closes.
   */
  async rollback(cause: unknown): Promise<boolean> {
    if (this.done || !this.sent) return false;
    this.done = true;
    if (cause instanceof CommitOutcomeUnknown || isDatabaseUnavailable(cause)) return true;
    try {
      await this.send('ROLLBACK');
      return false;
    } catch {
      return true;
    }
  }

  /**
   * Sends one message: simple protocol for text alone (several statements may go in it),
   * extended with values (a named statement when `named`), waiting at most what is left
   * of the deadline.
   */
  private send(text: string, values?: readonly unknown[], named = false): Promise<QueryResult | QueryResult[]> {
    return this.client.query(queryConfig(text, values, named, this.deadline));
  }

  /**
   * The text that runs the statement in a simple-protocol message: `EXECUTE name(…)` of
   * an SQL-level prepared statement (made with PREPARE the first time on this
   * connection), or in transaction mode the statement with its values inlined; null
   * when a value cannot be a literal.
   */
  private async executable(text: string, values: readonly unknown[], prepare: boolean): Promise<string | null> {
    const lits = literals(values);
    if (lits === null) return null;
    if (!prepare || this.mode === 'transaction') return inline(text, lits);
    const name = await this.sqlStatement(text);
    return lits.length ? `EXECUTE ${name}(${lits.join(', ')})` : `EXECUTE ${name}`;
  }

  /** The name of `text` as an SQL-level prepared statement on this connection (PREPARE, one round trip, the first time). */
  private async sqlStatement(text: string): Promise<string> {
    const name = nameOf(text, 'bgs');
    let made = sqlPrepared.get(this.client);
    if (!made) sqlPrepared.set(this.client, (made = new Set()));
    if (made.has(name)) {
      made.delete(name);
      made.add(name);
      return name;
    }
    const oldest = made.size >= MAX_SQL_STATEMENTS ? (made.values().next().value ?? null) : null;
    // Whether the DEALLOCATE runs or not, the oldest is no longer to be relied on.
    if (oldest) made.delete(oldest);
    try {
      await this.send(`${oldest ? `DEALLOCATE ${oldest}; ` : ''}PREPARE ${name} AS ${text}`);
    } catch (e) {
      // 42P05: made already (a DEALLOCATE that failed earlier left it): the name is the text's.
      if ((e as { code?: string }).code !== '42P05') throw e;
    }
    made.add(name);
    return name;
  }
}

/**
 * One message as node-postgres takes it: simple protocol for text alone, extended with
 * values (a named statement when `named`), waiting at most what is left of `deadline`
 * (node-postgres reads query_timeout from a query's config too; its types omit it).
 */
export function queryConfig(text: string, values: readonly unknown[] | undefined, named: boolean, deadline: number): QueryConfig {
  const config: QueryConfig & { query_timeout: number } = { text, query_timeout: budget(deadline) };
  if (values !== undefined) config.values = [...values];
  if (named) config.name = nameOf(text, 'bg');
  return config;
}

/** What is left of `deadline` for one statement (at least 1 ms: a spent budget fails at once). */
export const budget = (deadline: number): number => Math.max(1, deadline - Date.now());

/** How many SQL-level prepared statements this connection holds (tests). */
export const sqlStatementsOn = (client: PoolClient): number => sqlPrepared.get(client)?.size ?? 0;

function one(r: QueryResult | QueryResult[]): Result {
  const res = Array.isArray(r) ? r[r.length - 1] : r;
  return { rows: res.rows as Array<Record<string, unknown>>, rowCount: res.rowCount ?? 0 };
}

/** The last statement's answer of a multi-statement message. */
const last = one;
