// How a database failure is told apart, without Nest or TypeORM: the unit of work
// (src/db/connection.ts) decides with it whether a COMMIT may have happened and whether a
// connection is to be discarded; problem.ts answers with it. The failures src/db raises
// (CommitOutcomeUnknown, WriteConflict, DatabaseBusy) carry no HTTP: problem.ts gives
// each its status, code, detail and headers.

/** SQLSTATEs and driver messages that mean "the database is not there right now". */
export function isDatabaseUnavailable(e: unknown): boolean {
  const err = e as { code?: string; message?: string; name?: string; driverError?: unknown };
  if (err?.driverError) return isDatabaseUnavailable(err.driverError);
  // The connection died between two queries of a command: node-pg reports it as an
  // 'error' event, TypeORM releases the runner, and the next query finds it released.
  if (err?.name === 'QueryRunnerAlreadyReleasedError' || err?.name === 'QueryRunnerProviderAlreadyReleasedError') return true;
  const code = typeof err?.code === 'string' ? err.code : '';
  // 25006 (read_only_sql_transaction): the connection reached a standby, a primary demoted
  // in a failover or a switchover: no primary behind this connection, nothing was written.
  if (code.startsWith('08') || ['25006', '57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) {
    return true;
  }
  const msg = typeof err?.message === 'string' ? err.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Connection ended unexpectedly|the database system is (starting up|shutting down)|terminating connection|Query read timeout|timeout expired|Client was closed and is not queryable/i.test(
    msg,
  );
}

/**
 * The server refused a write as read-only (SQLSTATE 25006: a standby, or a primary demoted
 * in a switchover): an error answered for a statement, so the transaction is aborted and a
 * COMMIT sent after it in the same message did not happen. Nothing was written.
 */
export function isReadOnlyRefusal(e: unknown): boolean {
  return sqlStateOf(e) === '25006';
}

/** The SQLSTATE (or driver code) of a failure: the driver's error's, when it came wrapped (StatementFailed, TypeORM's errors). */
export function sqlStateOf(e: unknown): string | undefined {
  const err = e as { code?: string; driverError?: { code?: string } };
  return err?.driverError?.code ?? err?.code;
}

/** A connection that failed before the statement could be sent: nothing of it reached the server. */
export function neverSent(e: unknown): boolean {
  const msg = (e as { message?: unknown })?.message;
  return typeof msg === 'string' && /is not queryable/.test(msg);
}

/**
 * The connection was lost (or stopped answering) after the COMMIT of a command had been
 * sent, or the COMMIT stopped waiting for the synchronous standby: PostgreSQL may have
 * committed it or not (or only on the primary), and the app cannot tell. Answered 503
 * COMMIT_OUTCOME_UNKNOWN, never DATABASE_UNAVAILABLE (which promises nothing was written).
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown, message = 'The connection to the database was lost after COMMIT was sent.') {
    super(message, { cause });
    this.name = 'CommitOutcomeUnknown';
  }
}

/**
 * A guarded write touched another number of rows than it must (`expected`, `touched`):
 * the row moved on since it was read, another command changed it in between. Raised by
 * Tx.guardedReturning, or at the COMMIT when bg_expect_rows refused a deferred write
 * (SQLSTATE BG409, `cause`), so nothing was written. `what`: the write that missed ("game
 * update", or the statement's label). Answered 409 CONFLICT.
 */
export class WriteConflict extends Error {
  constructor(
    public readonly what: string,
    public readonly expected: number | null,
    public readonly touched: number | null,
    cause?: unknown,
  ) {
    super(`a guarded write missed its rows (${what}: expected ${expected ?? '?'}, touched ${touched ?? '?'})`, { cause });
    this.name = 'WriteConflict';
  }
}

/**
 * A transaction refused again and again as a serialization failure or a deadlock (40001,
 * 40P01): the unit of work ran it `attempts` times, and gave up. The last refusal is
 * `cause`. Nothing was written. Answered 503 DATABASE_BUSY, with Retry-After.
 */
export class DatabaseBusy extends Error {
  constructor(
    public readonly attempts: number,
    cause: unknown,
  ) {
    super(`gave up after ${attempts} attempts, each refused as a serialization failure or a deadlock`, { cause });
    this.name = 'DatabaseBusy';
  }
}

/**
 * A statement that failed (PostgreSQL refused it, or the connection failed): its text and
 * values are kept for the log serializer (which prints neither), the driver's error as
 * `driverError`. Answered by problem.ts by its SQLSTATE (or as the database being unavailable).
 */
export class StatementFailed extends Error {
  constructor(
    public readonly query: string,
    public readonly parameters: readonly unknown[],
    public readonly driverError: Error & { code?: string; constraint?: string },
  ) {
    super(driverError.message);
    this.name = 'StatementFailed';
  }
}

/**
 * A statement's failure as StatementFailed, so that the log can say which statement
 * (a SQLSTATE PostgreSQL answered, or a driver failure: a timeout, a lost connection).
 */
export function asStatementFailed(e: unknown, text: string, values: readonly unknown[]): unknown {
  if (e instanceof StatementFailed || !(e instanceof Error)) return e;
  return new StatementFailed(text, values, e);
}

/**
 * What PostgreSQL says when a COMMIT stopped waiting for the synchronous standby (a
 * statement timeout or a cancel while the standby was gone): the transaction committed on
 * the primary but may not be on any standby, so a failover could still lose it. The text
 * is PostgreSQL's (English: lc_messages left at its default); the SQLSTATE is the generic
 * 01000, so the words are what tells it apart.
 */
export function isUnreplicatedCommitNotice(notice: { message?: string; detail?: string }): boolean {
  return /wait for synchronous replication|committed locally, but might not have been replicated/i.test(`${notice.message ?? ''} ${notice.detail ?? ''}`);
}
