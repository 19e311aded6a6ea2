import type { Connection } from '../../src/db/connection';
import { DeferredWrite, Tx } from '../../src/db/tx';

/** The command's deferred writes as one statement (src/db/tx.ts). */
describe('Tx.takeDeferred', () => {
  const insert = (id: number): DeferredWrite => ({ what: 'row insert', text: 'INSERT INTO t (id, v) VALUES ($1, $2)', values: [id, `v${id}`], guard: 1 });
  const bump = (id: number, version: number): DeferredWrite => ({ what: "t's update", text: 'UPDATE t SET v = v WHERE id = $1 AND version = $2', values: [id, version], guard: 1 });
  const counter = (id: number): DeferredWrite => ({ what: 'counter', text: 'INSERT INTO c (id) VALUES ($1) ON CONFLICT DO NOTHING', values: [id] });

  // Deferring sends nothing: the connection is never used.
  const noConnection = {} as Connection;

  function batchOf(...writes: DeferredWrite[]) {
    const tx: Tx = new Tx(noConnection);
    for (const w of writes) tx.defer(w);
    return Promise.resolve(tx.takeDeferred());
  }

  it("numbers every write's parameters after the ones before it and checks the guarded writes in SQL", async () => {
    const b = await batchOf(insert(1), counter(7), bump(1, 3));
    expect(b).toEqual({
      text:
        'WITH w0 AS (INSERT INTO t (id, v) VALUES ($1, $2) RETURNING 1), w1 AS (INSERT INTO c (id) VALUES ($3) ON CONFLICT DO NOTHING RETURNING 1), ' +
        'w2 AS (UPDATE t SET v = v WHERE id = $4 AND version = $5 RETURNING 1) ' +
        "SELECT bg_expect_rows((SELECT count(*) FROM w0), 1, 'row insert'), bg_expect_rows((SELECT count(*) FROM w2), 1, 't''s update')",
      values: [1, 'v1', 7, 1, 3],
    });
  });

  it("answers the very same text for the same shape, with that command's values", async () => {
    const a = await batchOf(insert(1), bump(1, 3));
    const b = await batchOf(insert(2), bump(2, 9));
    expect(b!.text).toBe(a!.text);
    expect(b!.values).toEqual([2, 'v2', 2, 9]);
  });

  it('tells shapes apart by order, parameter count and checks', async () => {
    const a = await batchOf(insert(1), bump(1, 3));
    const reordered = await batchOf(bump(1, 3), insert(1));
    expect(reordered!.text).toMatch(/^WITH w0 AS \(UPDATE t SET v = v WHERE id = \$1 AND version = \$2 RETURNING 1\), w1 AS \(INSERT INTO t \(id, v\) VALUES \(\$3, \$4\)/);
    const moreParams = await batchOf({ ...insert(1), values: [1, 'v1', 'extra'] }, bump(1, 3));
    expect(moreParams!.text).toContain('WHERE id = $4 AND version = $5');
    const unchecked = await batchOf({ ...insert(1), guard: undefined }, bump(1, 3));
    expect(unchecked!.text).not.toContain("'row insert'");
    expect(a!.text).toContain("'row insert'");
    const noChecks = await batchOf(counter(1));
    expect(noChecks!.text).toBe('WITH w0 AS (INSERT INTO c (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1) SELECT 1');
  });

  it('answers null when the command wrote nothing', async () => {
    expect(await batchOf()).toBeNull();
  });
});

describe('the order of a command', () => {
  it('refuses a read or an immediate write once a write is deferred: it would not see it', async () => {
    const sent: string[] = [];
    const conn = { run: (text: string) => (sent.push(text), Promise.resolve({ rows: [], rowCount: 0 })) } as unknown as Connection;
    // In the function that defers, such a call does not compile (test/unit/tx-phases.typecheck.ts);
    // in a function given the Tx after it, the run-time check refuses it.
    const readLater = (t: Tx) => t.rows('SELECT 2', [], () => 2);
    const writeLater = (t: Tx) => t.write({ text: 'UPDATE t SET v = 2', values: [] });
    const tx: Tx = new Tx(conn);
    await tx.rows('SELECT 1', [], () => 1);
    await tx.write({ text: 'UPDATE t SET v = 1', values: [] });
    tx.defer({ what: 'row insert', text: 'INSERT INTO t (id) VALUES ($1)', values: [1] });
    await expect(readLater(tx)).rejects.toThrow(/after a deferred write \(row insert\)/);
    await expect(writeLater(tx)).rejects.toThrow(/after a deferred write/);
    expect(sent).toEqual(['SELECT 1', 'UPDATE t SET v = 1']);
  });
});

/** One queued write per key that later calls merge into (Tx.deferMerged). */
describe('Tx.deferMerged', () => {
  const noConnection = {} as Connection;
  // A per-row counter: the upsert's text depends only on how many rows it has.
  const add = (tx: Tx, key: string, rows: Record<string, number>) =>
    tx.deferMerged<Map<string, number>>(
      key,
      (state = new Map()) => {
        for (const [id, n] of Object.entries(rows)) state.set(id, (state.get(id) ?? 0) + n);
        return state;
      },
      (state) => {
        const ids = [...state.keys()].filter((id) => state.get(id) !== 0).sort();
        if (ids.length === 0) return null;
        const values: unknown[] = [];
        const tuples = ids.map((id) => `($${values.push(id)}, $${values.push(state.get(id))})`).join(', ');
        return { what: `counters ${key}`, text: `INSERT INTO n (id, n) VALUES ${tuples} ON CONFLICT (id) DO UPDATE SET n = n.n + excluded.n`, values };
      },
    );
  const insert = (id: number): DeferredWrite => ({ what: 'row insert', text: 'INSERT INTO t (id) VALUES ($1)', values: [id] });

  it('merges later calls into the write where it was first queued, one write per key', () => {
    const tx: Tx = new Tx(noConnection);
    add(tx, 'a', { x: 1 });
    tx.defer(insert(1));
    add(tx, 'b', { y: 5 });
    expect(add(tx, 'a', { z: 2, x: 3 })).toEqual(
      new Map([
        ['x', 4],
        ['z', 2],
      ]),
    );
    expect(tx.takeDeferred()).toEqual({
      text:
        'WITH w0 AS (INSERT INTO n (id, n) VALUES ($1, $2), ($3, $4) ON CONFLICT (id) DO UPDATE SET n = n.n + excluded.n RETURNING 1), ' +
        'w1 AS (INSERT INTO t (id) VALUES ($5) RETURNING 1), ' +
        'w2 AS (INSERT INTO n (id, n) VALUES ($6, $7) ON CONFLICT (id) DO UPDATE SET n = n.n + excluded.n RETURNING 1) SELECT 1',
      values: ['x', 4, 'z', 2, 1, 'y', 5],
    });
  });

  it('keeps its state per transaction', () => {
    const a = new Tx(noConnection);
    const b = new Tx(noConnection);
    add(a, 'k', { x: 1 });
    add(b, 'k', { x: 10 });
    add(a, 'k', { x: 1 });
    expect(a.takeDeferred()!.values).toEqual(['x', 2]);
    expect(b.takeDeferred()!.values).toEqual(['x', 10]);
  });

  it('answers the same text for the same shape, whether merged or written at once', () => {
    const merged = new Tx(noConnection);
    add(merged, 'k', { x: 1 });
    add(merged, 'k', { y: 1 });
    const once = new Tx(noConnection);
    add(once, 'k', { p: 7, q: 8 });
    expect(merged.takeDeferred()!.text).toBe(once.takeDeferred()!.text);
  });

  it('queues nothing while there is nothing to write, and drops a write merged down to nothing', () => {
    const tx: Tx = new Tx(noConnection);
    add(tx, 'k', { x: 0 });
    expect(tx.deferring).toBe(false);
    tx.defer(insert(1));
    // Its place is where it first had something to write: after the insert.
    add(tx, 'k', { x: 2 });
    expect(tx.takeDeferred()!.text).toMatch(/^WITH w0 AS \(INSERT INTO t .* w1 AS \(INSERT INTO n /);

    const cancelled = new Tx(noConnection);
    add(cancelled, 'k', { x: 2 });
    add(cancelled, 'k', { x: -2 });
    expect(cancelled.takeDeferred()).toBeNull();
  });

  it('starts again after the queue was taken', () => {
    const tx: Tx = new Tx(noConnection);
    add(tx, 'k', { x: 1 });
    tx.takeDeferred();
    add(tx, 'k', { x: 1 });
    expect(tx.takeDeferred()!.values).toEqual(['x', 1]);
  });

  it('refuses a read once a merged write is queued, even one merged down to nothing', async () => {
    const conn = { run: () => Promise.resolve({ rows: [], rowCount: 0 }) } as unknown as Connection;
    const tx: Tx = new Tx(conn);
    add(tx, 'k', { x: 1 });
    await expect(tx.rows('SELECT 1', [], () => 1)).rejects.toThrow(/after a deferred write \(counters k\)/);
    add(tx, 'k', { x: -1 });
    await expect(tx.rows('SELECT 1', [], () => 1)).rejects.toThrow(/after a deferred write \(a merged write\)/);
  });
});

/** The locks a batch takes before it writes (Tx.lockFirst): one order for every command. */
describe('Tx.lockFirst', () => {
  const noConnection = {} as Connection;
  const write: DeferredWrite = { what: 'row insert', text: 'INSERT INTO t (id) VALUES ($1)', values: [1] };
  const lockIds = (tx: Tx, rank: number, key: string, ids: string[]) =>
    tx.lockFirst<Set<string>>(
      rank,
      key,
      (prior = new Set()) => {
        for (const id of ids) prior.add(id);
        return prior;
      },
      (all) => ({ text: `LOCK ${key}`, values: [[...all].sort()] }),
    );

  it('sends them ahead of the batch by rank, then key, each merged into one statement, whatever order the command asked in', () => {
    const tx: Tx = new Tx(noConnection);
    lockIds(tx, 1, 'house:c1', ['h']);
    lockIds(tx, 0, 'players:c2', ['b']);
    lockIds(tx, 0, 'players:c1', ['z', 'a']);
    tx.defer(write);
    lockIds(tx, 0, 'players:c1', ['m', 'a']);
    expect(tx.takeDeferred()!.lead).toEqual([
      { text: 'LOCK players:c1', values: [['a', 'm', 'z']] },
      { text: 'LOCK players:c2', values: [['b']] },
      { text: 'LOCK house:c1', values: [['h']] },
    ]);
  });

  it('sends nothing without a deferred write, and forgets the locks once taken', () => {
    const tx: Tx = new Tx(noConnection);
    lockIds(tx, 0, 'players:c1', ['a']);
    expect(tx.takeDeferred()).toBeNull();
    tx.defer(write);
    expect(tx.takeDeferred()).toEqual({ text: 'WITH w0 AS (INSERT INTO t (id) VALUES ($1) RETURNING 1) SELECT 1', values: [1] });
  });
});
