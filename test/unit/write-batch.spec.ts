import type { EntityManager } from 'typeorm';
import { defer, openBatch, takeBatch } from '../../src/db/write-batch';

/** The command's deferred writes as one statement (src/db/write-batch.ts). */
describe('takeBatch', () => {
  const m = () => ({}) as EntityManager;
  const insert = (id: number) => ({ what: 'row insert', sql: 'INSERT INTO t (id, v) VALUES ($1, $2)', params: [id, `v${id}`], expectRows: 1 });
  const bump = (id: number, version: number) => ({ what: "t's update", sql: 'UPDATE t SET v = v WHERE id = $1 AND version = $2', params: [id, version], expectRows: 1 });
  const counter = (id: number) => ({ what: 'counter', sql: 'INSERT INTO c (id) VALUES ($1) ON CONFLICT DO NOTHING', params: [id] });

  async function batchOf(...writes: Array<{ what: string; sql: string; params: unknown[]; expectRows?: number }>) {
    const mgr = m();
    openBatch(mgr);
    for (const w of writes) await defer(mgr, w);
    return takeBatch(mgr);
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
    const moreParams = await batchOf({ ...insert(1), params: [1, 'v1', 'extra'] }, bump(1, 3));
    expect(moreParams!.text).toContain('WHERE id = $4 AND version = $5');
    const unchecked = await batchOf({ ...insert(1), expectRows: undefined }, bump(1, 3));
    expect(unchecked!.text).not.toContain("'row insert'");
    expect(a!.text).toContain("'row insert'");
    const noChecks = await batchOf(counter(1));
    expect(noChecks!.text).toBe('WITH w0 AS (INSERT INTO c (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1) SELECT 1');
  });

  it('answers null when the command wrote nothing', async () => {
    expect(await batchOf()).toBeNull();
  });
});
