import { WriteConflict } from '../common/db-failures';
import { statementLabel } from '../common/sql-names';
import { Connection, Result } from './connection';
import { Decoder, Row } from './decode';
import { quote } from './sql';

/**
 * What every statement of a unit of work may be given: its SQL text with $1, $2, …
 * placeholders and their values. `prepare`: a hot statement, planned once per
 * connection (session mode) instead of on every call; use it for statements whose
 * plan cannot depend on their values (lookups by whole keys).
 */
export interface StatementOptions {
  prepare?: boolean;
}

/** Reads: every statement runs now, in the order of the calls. */
export interface Reads {
  /** The rows of a query, each decoded. */
  rows<T>(text: string, values: readonly unknown[], decode: Decoder<T>, options?: StatementOptions): Promise<T[]>;
  /** The one row of a query, or null when there is none. */
  maybeOne<T>(text: string, values: readonly unknown[], decode: Decoder<T>, options?: StatementOptions): Promise<T | null>;
}

/**
 * A write sent with the COMMIT (Tx.defer). `guard`: the number of rows it must touch (a
 * guarded update of a row read and locked: 1); any other number rolls the whole command
 * back with a WriteConflict (answered 409 CONFLICT), the one outcome of every guarded write.
 */
export interface DeferredWrite {
  /** What it writes, for the message of a missed guard ("game update"). */
  what: string;
  text: string;
  values: readonly unknown[];
  guard?: number;
}

/**
 * A Tx past its reads: what `tx` is, to the compiler, after `tx.defer(…)` in the same
 * function (defer's assertion signature). Its reads and immediate writes are `never`, so
 * calling one there does not compile; a call the compiler cannot follow (in a function
 * given the Tx, after deferMerged) is refused at run time instead (see the class comment).
 * A call of `tx.defer` needs `tx` declared with its type (`tx: Tx`), as every assertion does.
 */
export interface DeferringTx {
  rows: never;
  maybeOne: never;
  write: never;
  guardedReturning: never;
}

/** A write sent now (Tx.write, Tx.guardedReturning). */
export interface ImmediateWrite {
  text: string;
  values: readonly unknown[];
}

/**
 * The statements of one command's transaction, in three kinds of call whose order is
 * the order they reach PostgreSQL:
 *
 * 1. `rows`/`maybeOne` (reads) and `write`/`guardedReturning` (immediate writes) run at once, in
 *    the order called; a read sees the immediate writes before it.
 * 2. `defer` queues a write (an INSERT, or an UPDATE of a row already read and locked)
 *    and returns at once; the queue goes to PostgreSQL as one statement with the COMMIT.
 *    `deferMerged` queues one write per key that later calls of the command merge into.
 *
 * A deferred write is never seen by a read of the same command, so once a command has
 * deferred a write it may not read or write immediately any more. In the function that
 * called `defer`, such a call does not compile (defer asserts DeferringTx;
 * test/unit/tx-phases.typecheck.ts); one the compiler cannot follow (in a function given
 * the Tx afterwards, after deferMerged) throws at run time (a programming error, caught by
 * every test that runs the path). Reads and immediate writes come first, deferred writes last.
 */
export class Tx implements Reads {
  /** The queue; a merged write's slot is null while its state has nothing to write. */
  private readonly deferred: Array<DeferredWrite | null> = [];
  /** Each merged write's state and its slot in the queue (none until it first writes). */
  private readonly merged = new Map<string, { state: unknown; slot: number | null }>();
  private readonly committed = new Map<string, () => void>();
  /** The locks the batch takes first (lockFirst), by key. */
  private readonly locks = new Map<string, { rank: number; state: unknown; render: (state: never) => ImmediateWrite }>();

  constructor(private readonly conn: Connection) {}

  async rows<T>(text: string, values: readonly unknown[], decode: Decoder<T>, options?: StatementOptions): Promise<T[]> {
    const res = await this.now(text, values, options);
    return res.rows.map((r) => decode(r as Row));
  }

  async maybeOne<T>(text: string, values: readonly unknown[], decode: Decoder<T>, options?: StatementOptions): Promise<T | null> {
    const res = await this.now(text, values, options);
    return res.rows.length ? decode(res.rows[0]) : null;
  }

  /** An immediate write; answers the number of rows it touched. */
  async write(w: ImmediateWrite, options?: StatementOptions): Promise<number> {
    return (await this.now(w.text, w.values, options)).rowCount;
  }

  /**
   * An immediate guarded write with RETURNING (`UPDATE … WHERE <key> AND version = <read
   * version> RETURNING …`): it must touch exactly one row, decoded, or the row moved on
   * since it was read: a WriteConflict (answered 409 CONFLICT).
   */
  async guardedReturning<T>(w: ImmediateWrite, decode: Decoder<T>, options?: StatementOptions): Promise<T> {
    const rows = (await this.now(w.text, w.values, options)).rows;
    if (rows.length !== 1) throw new WriteConflict(statementLabel(w.text), 1, rows.length);
    return decode(rows[0]);
  }

  /** Queues a write for the COMMIT (see the class comment); from here on `this` is a DeferringTx to the compiler. */
  defer(w: DeferredWrite): asserts this is DeferringTx {
    this.deferred.push(w);
  }

  /**
   * Queues one write per `key` for the command, which each later call with that key
   * merges into: `merge` takes the state so far (undefined on the first call) and answers
   * the new one, and `render` turns it into the write (null: nothing to write), which
   * replaces the queued one in its place, where it was first queued. A statement may
   * change a row only once, so two writes of one row in the batch would keep only one.
   *
   * The key is the caller's ("party volumes:EUR"): one key, one type of state. `render`
   * should give the same text for the same shape of state (the batch text is cached by
   * shape and prepared). Answers the merged state.
   */
  deferMerged<S>(key: string, merge: (state: S | undefined) => S, render: (state: S) => DeferredWrite | null): S {
    const entry = this.merged.get(key);
    const state = merge(entry?.state as S | undefined);
    const write = render(state);
    if (!entry) {
      this.merged.set(key, { state, slot: write ? this.deferred.push(write) - 1 : null });
    } else {
      entry.state = state;
      if (entry.slot !== null) this.deferred[entry.slot] = write;
      else if (write) entry.slot = this.deferred.push(write) - 1;
    }
    return state;
  }

  /**
   * A lock the deferred writes take before any of them runs, sent in the COMMIT's round
   * trip ahead of the batch. The batch is one statement whose writes PostgreSQL runs in an
   * order of its own, so two commands writing the same shared rows (a player's row, his
   * statistics, his money, the house's) could lock them in opposite orders and deadlock;
   * taking these locks first, in one order for every command (by `rank`, then `key`),
   * makes the later row locks wait behind them instead. `merge` and `render` work as in
   * deferMerged (one lock statement per key). Nothing is sent when nothing is deferred.
   */
  lockFirst<S>(rank: number, key: string, merge: (state: S | undefined) => S, render: (state: S) => ImmediateWrite): void {
    const entry = this.locks.get(key);
    const state = merge(entry?.state as S | undefined);
    if (entry) entry.state = state;
    else this.locks.set(key, { rank, state, render });
  }

  /**
   * Something to do once this transaction has committed (never after a rollback, never
   * for an attempt that is run again), at most once per `key`. It must not throw; it
   * runs after the answer is decided and cannot change it.
   */
  afterCommit(key: string, fn: () => void): void {
    if (!this.committed.has(key)) this.committed.set(key, fn);
  }

  /** The afterCommit callbacks, run by the unit of work after its COMMIT. */
  runAfterCommit(): void {
    for (const fn of this.committed.values()) {
      try {
        fn();
      } catch {
        // A callback's failure is its own; the command has committed.
      }
    }
    this.committed.clear();
  }

  /** Whether a write has been deferred (the command is past its reads). */
  get deferring(): boolean {
    return this.deferred.length > 0;
  }

  private now(text: string, values: readonly unknown[], options?: StatementOptions): Promise<Result> {
    if (this.deferred.length > 0) {
      const what = this.deferred.find((w) => w !== null)?.what ?? 'a merged write';
      throw new Error(`a statement after a deferred write (${what}): reads and immediate writes come before deferred ones`);
    }
    return this.conn.run(text, values, options?.prepare === true);
  }

  /**
   * The deferred writes as one statement (data-modifying CTEs), or null, with the locks
   * to take before it (`lead`, in their order; absent when there are none); the queue is
   * emptied.
   */
  takeDeferred(): { text: string; values: unknown[]; lead?: ImmediateWrite[] } | null {
    const batch = this.deferred.splice(0).filter((w) => w !== null);
    this.merged.clear();
    const locks = [...this.locks].sort(([ka, a], [kb, b]) => a.rank - b.rank || (ka < kb ? -1 : ka > kb ? 1 : 0));
    this.locks.clear();
    if (batch.length === 0) return null;
    const values: unknown[] = [];
    for (const w of batch) for (const v of w.values) values.push(v);
    const text = shapeText(batch);
    return locks.length ? { text, values, lead: locks.map(([, l]) => l.render(l.state as never)) } : { text, values };
  }
}

/**
 * The statement text of a batch, built once per shape (the same writes in the same
 * order, with the same guards): a command's batch has few shapes, and the text is then
 * the same string each time, so its prepared statement is found without rebuilding it.
 */
interface Shape {
  next: Map<string, Shape>;
  params?: number;
  guard?: number;
  what?: string;
  text?: string;
}

const shapes: Shape = { next: new Map() };
let shapeCount = 0;
const MAX_SHAPES = 2000;

function shapeText(batch: DeferredWrite[]): string {
  let node = shapes;
  for (const w of batch) {
    let next = node.next.get(w.text);
    if (!next) {
      // A full cache: the text is simply built again each time.
      if (shapeCount >= MAX_SHAPES) return batchText(batch);
      shapeCount++;
      next = { next: new Map(), params: w.values.length, guard: w.guard, what: w.what };
      node.next.set(w.text, next);
    } else if (next.params !== w.values.length || next.guard !== w.guard || next.what !== w.what) {
      return batchText(batch);
    }
    node = next;
  }
  return (node.text ??= batchText(batch));
}

/** `WITH w0 AS (… RETURNING 1), w1 AS (…) SELECT bg_expect_rows(…), …`: every write runs, every guard is checked. */
export function batchText(batch: readonly DeferredWrite[]): string {
  const ctes: string[] = [];
  let offset = 0;
  batch.forEach((w, i) => {
    const sql = offset === 0 ? w.text : w.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    offset += w.values.length;
    ctes.push(`w${i} AS (${sql} RETURNING 1)`);
  });
  const checks = batch.map((w, i) => (w.guard === undefined ? null : `bg_expect_rows((SELECT count(*) FROM w${i}), ${w.guard}, ${quote(w.what)})`)).filter((c) => c !== null);
  return `WITH ${ctes.join(', ')} SELECT ${checks.length ? checks.join(', ') : '1'}`;
}
