import fc from 'fast-check';
import { Pool, PoolClient } from 'pg';
import { StatementFailed, WriteConflict } from '../src/common/db-failures';
import { render } from '../src/common/problem';
import { MAX_SQL_STATEMENTS, sqlStatementsOn } from '../src/db/connection';
import { cols } from '../src/db/decode';
import { createPool, PoolMode } from '../src/db/pool';
import { Tx } from '../src/db/tx';
import { UnitOfWork } from '../src/db/unit-of-work';
import { cloneDatabase } from './support/app';

/**
 * The unit of work's transaction (src/db/connection.ts): BEGIN travels with the
 * command's first statement and COMMIT with its deferred writes, and nothing about what
 * commits or rolls back changes. One connection, so every command reuses it. In
 * transaction mode (behind a pooler) nothing is prepared: values are inlined as literals.
 */
describe.each<PoolMode>(['session', 'transaction'])('one transaction per command, in two round trips (%s mode)', (mode) => {
  let pool: Pool;
  let db: UnitOfWork;
  let url: string;
  /** Each entry: one message sent on the connection. */
  let sent: string[] | null = null;

  beforeAll(async () => {
    ({ url } = await cloneDatabase());
    pool = createPool({ url, size: 1, mode, timeoutMs: 10000 });
    pool.on('acquire', (client: PoolClient) => {
      const c = client as unknown as { query: (...args: unknown[]) => unknown; traced?: boolean };
      if (c.traced) return;
      c.traced = true;
      const original = c.query;
      c.query = function (this: unknown, ...args: unknown[]) {
        // A message of text alone goes by the simple protocol (as a plain string would).
        const q = args[0] as string | { text: string; name?: string; values?: unknown[] };
        sent?.push(typeof q === 'string' ? q : q.name ? `[prepared] ${q.text}` : q.values ? `[parameters] ${q.text}` : q.text);
        return original.apply(this, args);
      };
    });
    await pool.query(`CREATE TABLE probe (id integer PRIMARY KEY, s text, j jsonb, a uuid[], b bytea, at timestamptz, n bigint, flag boolean, v integer NOT NULL DEFAULT 1)`);
    db = new UnitOfWork(pool, mode, 10000);
  });
  afterAll(async () => {
    await pool?.end();
  });

  const row = async (id: number) => (await pool.query('SELECT * FROM probe WHERE id = $1', [id])).rows[0] as Record<string, unknown> | undefined;
  const outsideTransaction = () => expect(pool.query('SAVEPOINT x')).rejects.toThrow(/only be used in transaction blocks/);
  const lock = (tx: Tx, id: number) => tx.rows('SELECT id, v FROM probe WHERE id = $1 FOR UPDATE', [id], (r) => ({ v: cols(r).int('v') }), { prepare: true });
  const insert = (tx: Tx, id: number, values: Record<string, unknown> = {}) =>
    tx.defer({
      what: 'probe insert',
      text: 'INSERT INTO probe (id, s, j, a, b, at, n, flag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      values: [id, values.s ?? null, values.j ?? null, values.a ?? null, values.b ?? null, values.at ?? null, values.n ?? null, values.flag ?? null],
      guard: 1,
    });
  const bump = (tx: Tx, id: number, v: number) => tx.defer({ what: 'probe update (under its lock)', text: 'UPDATE probe SET v = v + 1 WHERE id = $1 AND v = $2', values: [id, v], guard: 1 });

  /** Runs a command, answering what it sent on its connection (one entry per round trip). */
  async function traced<T>(work: (tx: Tx) => Promise<T>): Promise<{ result: T; sent: string[] }> {
    const mine: string[] = [];
    sent = mine;
    try {
      return { result: await db.transaction(work), sent: mine };
    } finally {
      sent = null;
    }
  }

  it('sends BEGIN with the first statement and COMMIT with the writes: two round trips', async () => {
    await pool.query('INSERT INTO probe (id) VALUES (1)');
    // The first command on the connection also PREPAREs its two statements (session mode).
    await db.transaction(async (tx) => {
      const [p] = await lock(tx, 1);
      bump(tx, 1, p.v);
      insert(tx, 100);
    });
    const { sent } = await traced(async (tx) => {
      const [p] = await lock(tx, 1);
      bump(tx, 1, p.v);
      insert(tx, 101);
    });
    expect(sent).toHaveLength(2);
    if (mode === 'session') {
      expect(sent[0]).toMatch(/^BEGIN; EXECUTE bgs_\w+\('1'\)$/);
      expect(sent[1]).toMatch(/^EXECUTE bgs_\w+\(.*\); COMMIT$/);
    } else {
      expect(sent[0]).toMatch(
        /^BEGIN; SET LOCAL statement_timeout = \d+; SET LOCAL lock_timeout = \d+; SET LOCAL idle_in_transaction_session_timeout = \d+; SELECT id, v FROM probe WHERE id = '1' FOR UPDATE$/,
      );
      expect(sent[1]).toMatch(/^WITH w0 AS \(UPDATE probe SET v = v \+ 1 WHERE id = '1' AND v = '2' RETURNING 1\).*; COMMIT$/);
    }
    expect((await row(1))?.v).toBe(3);
    expect(await row(101)).toMatchObject({ id: 101 });
  });

  it('writes values sent as literals exactly as parameters would be', async () => {
    const values = {
      s: `it's a "quote", a back\\slash, ${'\u00e9\u4e2d\ud83c\udfb2'} and '' two, and $1 and $$`,
      j: JSON.stringify({ note: 'O\'Brien \\ "x" $2', n: [1, 2.5, null], nested: { emoji: '\ud83c\udfb2' } }),
      a: ['01a22fba-b1f0-7506-af8d-6c3d089ddc58', '01a22fba-b22e-7679-a500-d7f9fa3c3833'],
      b: Buffer.from([0, 1, 2, 39, 92, 255]),
      at: new Date('2026-12-01T03:51:38.522Z'),
      n: '9007199254740993',
      flag: false,
    };
    await pool.query('INSERT INTO probe (id) VALUES (2)');
    await db.transaction(async (tx) => {
      await lock(tx, 2);
      insert(tx, 200, values);
    });
    const got = (await row(200))!;
    expect(got.s).toBe(values.s);
    expect(got.j).toEqual(JSON.parse(values.j));
    expect(got.a).toEqual(values.a);
    expect(Buffer.compare(got.b as Buffer, values.b)).toBe(0);
    expect((got.at as Date).toISOString()).toBe('2026-12-01T03:51:38.522Z');
    expect(got.n).toBe('9007199254740993');
    expect(got.flag).toBe(false);
  });

  it('any string and any JSON travel as literals unchanged (generated)', async () => {
    await pool.query('INSERT INTO probe (id) VALUES (7)');
    let id = 7000;
    const noNul = (s: string) => !s.includes('\u0000');
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter(noNul),
        fc.array(fc.string({ unit: 'binary', maxLength: 12 }).filter(noNul), { maxLength: 4 }),
        fc.jsonValue({ maxDepth: 3 }),
        async (s, texts, json) => {
          const n = id++;
          const j = JSON.stringify({ v: json, texts });
          if (j.includes('\\u0000')) return; // jsonb refuses \u0000 however it is sent
          await db.transaction(async (tx) => {
            await lock(tx, 7);
            insert(tx, n, { s, j });
          });
          const got = (await row(n))!;
          expect(got.s).toBe(s);
          expect(got.j).toEqual(JSON.parse(j));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a guarded write that touches no row rolls the whole command back with 409 CONFLICT, and the connection is clean after', async () => {
    await pool.query('INSERT INTO probe (id) VALUES (3)');
    const deferred = db.transaction(async (tx) => {
      await lock(tx, 3);
      insert(tx, 300);
      bump(tx, 3, 99); // v is 1: touches nothing
    });
    await expect(deferred).rejects.toBeInstanceOf(WriteConflict);
    await expect(deferred).rejects.toMatchObject({ what: 'probe update (under its lock)', expected: 1, touched: 0 });
    expect(render(await deferred.catch((e: unknown) => e)).problem).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(await row(300)).toBeUndefined();
    expect((await row(3))?.v).toBe(1);
    await outsideTransaction();
    // The same write sent at once: the same answer.
    const immediate = db.transaction(async (tx) => {
      await tx.write({ text: 'INSERT INTO probe (id) VALUES ($1)', values: [301] });
      await tx.guardedReturning({ text: 'UPDATE probe SET v = v + 1 WHERE id = $1 AND v = $2 RETURNING v', values: [3, 99] }, () => null);
    });
    await expect(immediate).rejects.toBeInstanceOf(WriteConflict);
    await expect(immediate).rejects.toMatchObject({ what: 'UPDATE probe', expected: 1, touched: 0 });
    expect(render(await immediate.catch((e: unknown) => e)).problem).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(await row(301)).toBeUndefined();
    await outsideTransaction();
  });

  it('a failing first statement rolls back; so does a failing later one', async () => {
    const failing = db.transaction(async (tx) => {
      await tx.write({ text: 'INSERT INTO probe (id) VALUES (4)', values: [] });
      await tx.rows('SELECT 1 / $1::int AS x', [0], () => 0, { prepare: true });
    });
    await expect(failing).rejects.toBeInstanceOf(StatementFailed);
    await expect(failing).rejects.toMatchObject({ driverError: { code: '22012' } });
    expect(await row(4)).toBeUndefined();
    const lockedFirst = db.transaction(async (tx) => {
      await tx.rows('SELECT 1 / $1::int AS x', [0], () => 0, { prepare: true });
    });
    await expect(lockedFirst).rejects.toMatchObject({ driverError: { code: '22012' } });
    await outsideTransaction();
    // A thrown rule error after writes were deferred: nothing is sent for them.
    const refused = db.transaction(async (tx) => {
      await tx.write({ text: 'INSERT INTO probe (id) VALUES (5)', values: [] });
      insert(tx, 500);
      throw new Error('refused by a rule');
    });
    await expect(refused).rejects.toThrow('refused by a rule');
    expect(await row(5)).toBeUndefined();
    expect(await row(500)).toBeUndefined();
    await outsideTransaction();
  });

  it('a read is one REPEATABLE READ transaction opened by one statement: every query sees the same snapshot', async () => {
    await pool.query('INSERT INTO probe (id, n) VALUES (8, 1)');
    const n = (r: Readonly<Record<string, unknown>>) => cols(r).bigintText('n');
    const seen = await db.read(async (tx) => {
      const iso = await tx.maybeOne('SHOW transaction_isolation', [], (r) => cols(r).text('transaction_isolation'));
      const before = await tx.maybeOne('SELECT n FROM probe WHERE id = 8', [], n);
      // Committed by another connection meanwhile (the pool has one: a separate client).
      const other = new Pool({ connectionString: url, max: 1 });
      await other.query('UPDATE probe SET n = 2 WHERE id = 8');
      await other.end();
      const after = await tx.maybeOne('SELECT n FROM probe WHERE id = 8', [], n);
      return { iso, before, after };
    });
    expect(seen).toEqual({ iso: 'repeatable read', before: '1', after: '1' });
    expect((await row(8))?.n).toBe('2');
    await outsideTransaction();
  });

  it('a value that cannot travel as a literal (NUL) is sent as a parameter: the same answer as ever, nothing written', async () => {
    await pool.query('INSERT INTO probe (id) VALUES (6)');
    const nul = db.transaction(async (tx) => {
      await lock(tx, 6);
      insert(tx, 600, { s: 'a\u0000b' });
    });
    // PostgreSQL refuses NUL in text however it is sent (22021), never a syntax error.
    await expect(nul).rejects.toMatchObject({ driverError: { code: '22021' } });
    expect(await row(600)).toBeUndefined();
    // The same as the first statement of a command (BEGIN then goes on its own).
    const first = db.transaction(async (tx) => {
      await tx.rows('SELECT id FROM probe WHERE id = $1 AND s IS DISTINCT FROM $2', [6, 'x\u0000'], () => 0, { prepare: true });
    });
    await expect(first).rejects.toMatchObject({ driverError: { code: '22021' } });
    await outsideTransaction();
  });

  it('bounds the whole unit of work by the timeout: time spent waiting for a connection is taken from its statements', async () => {
    const small = createPool({ url, size: 1, mode, timeoutMs: 1000 });
    const bounded = new UnitOfWork(small, mode, 1000);
    try {
      const held = await small.connect();
      setTimeout(() => held.release(), 600);
      const started = Date.now();
      const slow = bounded.transaction((tx) => tx.rows('SELECT pg_sleep(3) AS s', [], () => 0));
      await expect(slow).rejects.toThrow(/Query read timeout/);
      // Not 600 ms of waiting plus a full second for the statement.
      expect(Date.now() - started).toBeLessThan(1400);
      const once = Date.now();
      const held2 = await small.connect();
      setTimeout(() => held2.release(), 600);
      await expect(bounded.once.rows('SELECT pg_sleep(3) AS s', [], () => 0)).rejects.toThrow(/Query read timeout/);
      expect(Date.now() - once).toBeLessThan(1400);
    } finally {
      await small.end();
    }
  });

  if (mode === 'session') {
    it('keeps at most MAX_SQL_STATEMENTS prepared per connection, dropping the least recently used', async () => {
      const texts = Array.from({ length: MAX_SQL_STATEMENTS + 10 }, (_, i) => `SELECT ${i} + $1::int AS n`);
      const n = (r: Readonly<Record<string, unknown>>) => cols(r).int('n');
      // Each command's first statement goes as BEGIN; EXECUTE: it is made an SQL-level statement.
      const run = (text: string) => db.transaction((tx) => tx.rows(text, [1], n, { prepare: true }));
      expect(await run(texts[0])).toEqual([1]);
      for (const text of texts.slice(1)) {
        await run(text);
        await run(texts[0]); // used again and again: never the oldest
      }
      const client = await pool.connect();
      try {
        expect(sqlStatementsOn(client)).toBe(MAX_SQL_STATEMENTS);
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'bgs\\_%'`);
        expect(rows[0].n).toBe(MAX_SQL_STATEMENTS);
      } finally {
        client.release();
      }
      // One that was dropped is made again when it is needed.
      expect(await run(texts[1])).toEqual([2]);
    });
  } else {
    it('prepares nothing on the server', async () => {
      await db.transaction((tx) => tx.rows('SELECT $1::int AS n', [1], (r) => cols(r).int('n'), { prepare: true }));
      await db.transaction(async (tx) => {
        await tx.rows('SELECT $1::int AS n', [1], (r) => cols(r).int('n'), { prepare: true });
        await tx.rows('SELECT $1::int AS n', [2], (r) => cols(r).int('n'), { prepare: true });
      });
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`);
      expect(rows[0].n).toBe(0);
    });
  }
});
