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
    const tx = new Tx(noConnection);
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
    const tx = new Tx(conn);
    await tx.rows('SELECT 1', [], () => 1);
    await tx.write({ text: 'UPDATE t SET v = 1', values: [] });
    tx.defer({ what: 'row insert', text: 'INSERT INTO t (id) VALUES ($1)', values: [1] });
    await expect(tx.rows('SELECT 2', [], () => 2)).rejects.toThrow(/after a deferred write \(row insert\)/);
    await expect(tx.write({ text: 'UPDATE t SET v = 2', values: [] })).rejects.toThrow(/after a deferred write/);
    expect(sent).toEqual(['SELECT 1', 'UPDATE t SET v = 1']);
  });
});
