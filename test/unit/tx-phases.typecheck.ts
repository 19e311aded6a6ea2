// Never run: `npm run typecheck` compiles it (tsconfig.check.json takes test/**), and each
// `@ts-expect-error` below fails the typecheck if the error it expects goes away. What it
// proves: once a command has deferred a write (Tx.defer), a read or an immediate write in
// the same function does not compile (Tx.defer asserts DeferringTx, src/db/tx.ts). The
// cases the compiler cannot follow are refused at run time (test/unit/deferred-writes.spec.ts).
import type { DeferredWrite, Tx } from '../../src/db/tx';
import type { UnitOfWork } from '../../src/db/unit-of-work';

const insert: DeferredWrite = { what: 'row insert', text: 'INSERT INTO t (id) VALUES ($1)', values: [1] };
const one = () => 1;

/** Reads and immediate writes first, then deferred writes: compiles. */
export async function inOrder(tx: Tx): Promise<number | null> {
  const read = await tx.maybeOne('SELECT 1', [], one);
  await tx.rows('SELECT 1', [], one);
  await tx.write({ text: 'UPDATE t SET v = 1', values: [] });
  await tx.guardedReturning({ text: 'UPDATE t SET v = 2 WHERE v = 1 RETURNING v', values: [] }, one);
  tx.defer(insert);
  tx.defer(insert);
  tx.deferMerged<number>(
    'k',
    (n = 0) => n + 1,
    () => insert,
  );
  tx.lockFirst<number>(
    0,
    'k',
    () => 1,
    () => ({ text: 'SELECT 1', values: [] }),
  );
  tx.afterCommit('k', () => undefined);
  return read;
}

/** Each read or immediate write after a defer, in the same function: a compile error. */
export async function readAfterDefer(tx: Tx): Promise<void> {
  tx.defer(insert);
  // @ts-expect-error a read after a deferred write would not see it
  await tx.rows('SELECT 1', [], one);
  // @ts-expect-error a read after a deferred write would not see it
  await tx.maybeOne('SELECT 1', [], one);
  // @ts-expect-error an immediate write after a deferred write would run before it
  await tx.write({ text: 'UPDATE t SET v = 1', values: [] });
  // @ts-expect-error an immediate write after a deferred write would run before it
  await tx.guardedReturning({ text: 'UPDATE t SET v = 2 WHERE v = 1 RETURNING v', values: [] }, one);
}

/** The same in a command's callback, after an await, and in a branch that deferred. */
export function inACommand(db: UnitOfWork, late: boolean): Promise<void> {
  return db.transaction(async (tx: Tx) => {
    await tx.rows('SELECT 1', [], one);
    if (late) {
      tx.defer(insert);
      await Promise.resolve();
      // @ts-expect-error a read after a deferred write would not see it
      await tx.rows('SELECT 2', [], one);
    }
  });
}

/**
 * What the compiler cannot see, left to the run-time check: a read in a function given
 * the Tx after the defer (the Tx still passes as a Tx), and a read after deferMerged
 * (which answers the merged state, so it cannot be an assertion).
 */
export async function leftToRunTime(tx: Tx, read: (tx: Tx) => Promise<unknown>): Promise<void> {
  tx.deferMerged<number>(
    'k',
    (n = 0) => n + 1,
    () => insert,
  );
  await tx.rows('SELECT 1', [], one);
  tx.defer(insert);
  await read(tx);
}
