import { EntityManager, QueryRunner } from 'typeorm';
import { CommitOutcomeUnknown, isDatabaseUnavailable, neverSent } from '../common/db-failures';
import { nameOf } from '../common/sql-names';
import { asQueryFailed, executeText, PgClient, PgResult, sqlStatement } from './pg-client';
import { takeBatch } from './write-batch';

/**
 * A command's transaction, with BEGIN and COMMIT riding on statements the command
 * sends anyway instead of costing a round trip each:
 *
 * - BEGIN waits for the command's first statement. The hot one (the table lock,
 *   prepared.ts) goes as `BEGIN; EXECUTE stmt(…)` in one simple-protocol message; any
 *   other (TypeORM's) sends BEGIN first, as before.
 * - The deferred writes (write-batch.ts) go as `EXECUTE batch(…); COMMIT`. A guarded
 *   write that touched the wrong number of rows raises inside that statement, so
 *   PostgreSQL skips the COMMIT and the transaction is rolled back.
 *
 * The statements are SQL-level prepared (PREPARE once per connection), and their values
 * travel as escaped literals; a value that cannot (a NUL character) falls back to the
 * separate round trips. Isolation, the row locks and what commits are exactly those of
 * BEGIN … COMMIT sent on their own.
 */
interface State {
  beginPending: boolean;
  /** BEGIN, with the isolation level when it is not the default (READ COMMITTED). */
  begin: string;
  client: PgClient;
}

const states = new WeakMap<QueryRunner, State>();

interface RunnerInternals {
  isTransactionActive: boolean;
  transactionDepth: number;
  databaseConnection: PgClient;
  query: QueryRunner['query'];
  releasePostgresConnection(err?: Error): Promise<void>;
}

const internals = (qr: QueryRunner) => qr as unknown as RunnerInternals;

/** Opens the command's transaction on a connected query runner; BEGIN is sent with its first statement. */
export function beginLazily(qr: QueryRunner, isolation?: 'REPEATABLE READ'): void {
  const r = internals(qr);
  const state: State = { beginPending: true, begin: isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN', client: r.databaseConnection };
  states.set(qr, state);
  // TypeORM must see a transaction (it would otherwise open its own around a save).
  r.isTransactionActive = true;
  r.transactionDepth = 1;
  const query = qr.query.bind(qr) as (...args: unknown[]) => Promise<unknown>;
  // Every statement waits for BEGIN, even one sent while BEGIN is still on its way.
  let begun: Promise<unknown> | null = null;
  r.query = (async (...args: unknown[]) => {
    if (state.beginPending) {
      state.beginPending = false;
      begun = query(state.begin);
    }
    if (begun) await begun;
    return query(...args);
  }) as QueryRunner['query'];
}

/**
 * Sends a pending BEGIN together with the statement (rows of the statement), or
 * answers undefined when BEGIN has been sent already (the caller sends the statement).
 */
export async function withPendingBegin(m: EntityManager, client: PgClient, text: string, values: unknown[]): Promise<Array<Record<string, unknown>> | undefined> {
  const state = m.queryRunner ? states.get(m.queryRunner) : undefined;
  if (!state?.beginPending) return undefined;
  const exec = executeText(await sqlStatement(client, text), values);
  state.beginPending = false;
  try {
    if (exec === null) {
      await client.query(state.begin);
      return undefined;
    }
    const results = (await client.query(`${state.begin}; ${exec}`)) as PgResult[];
    return results[results.length - 1].rows;
  } catch (e) {
    throw asQueryFailed(e, text, values);
  }
}

/**
 * Sends the deferred writes and COMMIT, in one round trip. When the connection fails
 * (or stops answering) once COMMIT has gone out, PostgreSQL may have committed or not:
 * that is thrown as CommitOutcomeUnknown, never as a plain connection failure. An error
 * PostgreSQL answers (a SQLSTATE) means the COMMIT did not happen.
 */
export async function commitLazily(qr: QueryRunner, m: EntityManager): Promise<void> {
  const state = states.get(qr)!;
  const r = internals(qr);
  const batch = takeBatch(m);
  const begin = state.beginPending;
  state.beginPending = false;
  let text = 'COMMIT';
  let commitSent = false;
  const withCommit = (sql: string) => {
    commitSent = true;
    return state.client.query(sql);
  };
  try {
    if (batch) {
      text = batch.text;
      const exec = executeText(await sqlStatement(state.client, batch.text), batch.values);
      if (exec !== null) {
        await withCommit(`${begin ? `${state.begin}; ` : ''}${exec}; COMMIT`);
      } else {
        if (begin) await state.client.query(state.begin);
        await state.client.query({ name: nameOf(batch.text, 'bg'), text: batch.text, values: batch.values });
        await withCommit('COMMIT');
      }
    } else if (!begin) {
      // Nothing was written, or nothing at all was sent (then there is nothing to end).
      await withCommit('COMMIT');
    }
  } catch (e) {
    if (commitSent && isDatabaseUnavailable(e) && !neverSent(e)) throw new CommitOutcomeUnknown(e);
    throw asQueryFailed(e, text, batch?.values ?? []);
  }
  r.isTransactionActive = false;
  r.transactionDepth = 0;
}

/**
 * Ends a command that failed (or was replayed): ROLLBACK when anything was sent. A
 * connection that failed or stopped answering (`cause`), or that cannot roll back, is
 * discarded, never handed to the next command: PostgreSQL rolls back what it held when
 * the connection closes, and no one waits for a ROLLBACK that cannot come.
 */
export async function rollbackLazily(qr: QueryRunner, cause?: unknown): Promise<void> {
  const state = states.get(qr);
  const r = internals(qr);
  if (!state || !r.isTransactionActive) return;
  r.isTransactionActive = false;
  r.transactionDepth = 0;
  if (state.beginPending) {
    state.beginPending = false;
    return;
  }
  if (cause instanceof CommitOutcomeUnknown || isDatabaseUnavailable(cause)) {
    await r.releasePostgresConnection(cause as Error);
    return;
  }
  try {
    await state.client.query('ROLLBACK');
  } catch (e) {
    await r.releasePostgresConnection(e as Error);
  }
}
