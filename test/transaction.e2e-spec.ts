import fc from 'fast-check';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { CommandContext, UnitOfWork } from '../src/db/unit-of-work';
import { dataSourceOptions } from '../src/data-source';
import { clientOf, MAX_SQL_STATEMENTS, PgClient, sqlStatement } from '../src/db/pg-client';
import { prepared } from '../src/db/prepared';
import { defer } from '../src/db/write-batch';
import { Client } from 'pg';
import { cloneDatabase } from './support/app';

/**
 * The unit of work's transaction (src/db/transaction.ts): BEGIN travels with the
 * command's first hot statement and COMMIT with its batched writes, and nothing about
 * what commits or rolls back changes. One connection, so every command reuses it.
 */
describe('one transaction per command, in two round trips', () => {
  let ds: DataSource;
  let db: UnitOfWork;
  let url: string;
  const ctx: CommandContext = { auth: { kind: 'operator' }, idempotency: null };

  beforeAll(async () => {
    ({ url } = await cloneDatabase());
    ds = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
    await ds.initialize();
    await ds.query(`CREATE TABLE probe (id integer PRIMARY KEY, s text, j jsonb, a uuid[], b bytea, at timestamptz, n bigint, flag boolean, v integer NOT NULL DEFAULT 1)`);
    db = new UnitOfWork(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
  });

  const row = async (id: number) => (await ds.query('SELECT * FROM probe WHERE id = $1', [id]))[0];
  const lock = (m: EntityManager, id: number) => prepared(m, 'SELECT id, v FROM probe WHERE id = $1 FOR UPDATE', [id]);
  const insert = (m: EntityManager, id: number, values: Record<string, unknown> = {}) =>
    defer(m, {
      what: 'probe insert',
      sql: 'INSERT INTO probe (id, s, j, a, b, at, n, flag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      params: [id, values.s ?? null, values.j ?? null, values.a ?? null, values.b ?? null, values.at ?? null, values.n ?? null, values.flag ?? null],
      expectRows: 1,
    });
  const bump = (m: EntityManager, id: number, v: number) =>
    defer(m, { what: 'probe update (under its lock)', sql: 'UPDATE probe SET v = v + 1 WHERE id = $1 AND v = $2', params: [id, v], expectRows: 1 });

  /** Runs a command, answering what it sent on its connection (one entry per round trip). */
  async function traced<T>(work: (m: EntityManager) => Promise<T>): Promise<{ result: T; sent: string[] }> {
    const sent: string[] = [];
    let restore = () => undefined as void;
    try {
      const result = await db.command(ctx, 200, async (m) => {
        const client = clientOf(m) as unknown as { query: (...args: unknown[]) => unknown };
        const original = client.query;
        client.query = function (this: unknown, ...args: unknown[]) {
          const q = args[0] as string | { text: string };
          sent.push(typeof q === 'string' ? q : `[prepared] ${q.text}`);
          return original.apply(this, args);
        };
        restore = () => void (client.query = original);
        return work(m);
      });
      return { result: result as T, sent };
    } finally {
      restore();
    }
  }

  it('sends BEGIN with the first statement and COMMIT with the writes: two round trips', async () => {
    await ds.query('INSERT INTO probe (id) VALUES (1)');
    // The first command on the connection also PREPAREs its two statements.
    await db.command(ctx, 200, async (m) => {
      const [p] = await lock(m, 1);
      await bump(m, 1, p.v as number);
      await insert(m, 100);
    });
    const { sent } = await traced(async (m) => {
      const [p] = await lock(m, 1);
      await bump(m, 1, p.v as number);
      await insert(m, 101);
    });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^BEGIN; EXECUTE bgs_\w+\('1'\)$/);
    expect(sent[1]).toMatch(/^EXECUTE bgs_\w+\(.*\); COMMIT$/);
    expect((await row(1)).v).toBe(3);
    expect(await row(101)).toMatchObject({ id: 101 });
  });

  it('writes values sent as literals exactly as parameters would be', async () => {
    const values = {
      s: `it's a "quote", a back\\slash, ${'\u00e9\u4e2d\ud83c\udfb2'} and '' two`,
      j: JSON.stringify({ note: 'O\'Brien \\ "x"', n: [1, 2.5, null], nested: { emoji: '\ud83c\udfb2' } }),
      a: ['01a22fba-b1f0-7506-af8d-6c3d089ddc58', '01a22fba-b22e-7679-a500-d7f9fa3c3833'],
      b: Buffer.from([0, 1, 2, 39, 92, 255]),
      at: new Date('2026-12-01T03:51:38.522Z'),
      n: '9007199254740993',
      flag: false,
    };
    await ds.query('INSERT INTO probe (id) VALUES (2)');
    await db.command(ctx, 200, async (m) => {
      await lock(m, 2);
      await insert(m, 200, values);
    });
    const got = await row(200);
    expect(got.s).toBe(values.s);
    expect(got.j).toEqual(JSON.parse(values.j));
    expect(got.a).toEqual(values.a);
    expect(Buffer.compare(got.b, values.b)).toBe(0);
    expect((got.at as Date).toISOString()).toBe('2026-12-01T03:51:38.522Z');
    expect(got.n).toBe('9007199254740993');
    expect(got.flag).toBe(false);
  });

  it('any string and any JSON travel as literals unchanged (generated)', async () => {
    await ds.query('INSERT INTO probe (id) VALUES (7)');
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
          await db.command(ctx, 200, async (m) => {
            await lock(m, 7);
            await insert(m, n, { s, j });
          });
          const got = await row(n);
          expect(got.s).toBe(s);
          expect(got.j).toEqual(JSON.parse(j));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a guarded write that touches no row rolls the whole command back, and the connection is clean after', async () => {
    await ds.query('INSERT INTO probe (id) VALUES (3)');
    const attempt = db.command(ctx, 200, async (m) => {
      await lock(m, 3);
      await insert(m, 300);
      await bump(m, 3, 99); // v is 1: touches nothing
    });
    await expect(attempt).rejects.toThrow(/probe update \(under its lock\): expected 1 row\(s\), touched 0/);
    expect(await row(300)).toBeUndefined();
    expect((await row(3)).v).toBe(1);
    // Not left inside a transaction: SAVEPOINT outside one is refused.
    await expect(ds.query('SAVEPOINT x')).rejects.toThrow(/only be used in transaction blocks/);
  });

  it('a failing first statement rolls back; statements TypeORM sends run inside the same transaction', async () => {
    const failing = db.command(ctx, 200, async (m) => {
      await m.query('INSERT INTO probe (id) VALUES (4)');
      await prepared(m, 'SELECT 1 / $1::int AS x', [0]);
    });
    await expect(failing).rejects.toBeInstanceOf(QueryFailedError);
    await expect(failing).rejects.toMatchObject({ driverError: { code: '22012' } });
    expect(await row(4)).toBeUndefined();
    const lockedFirst = db.command(ctx, 200, async (m) => {
      await prepared(m, 'SELECT 1 / $1::int AS x', [0]);
    });
    await expect(lockedFirst).rejects.toMatchObject({ driverError: { code: '22012' } });
    await expect(ds.query('SAVEPOINT x')).rejects.toThrow(/only be used in transaction blocks/);
    // A thrown rule error after writes were batched: nothing is sent for them.
    const refused = db.command(ctx, 200, async (m) => {
      await m.query('INSERT INTO probe (id) VALUES (5)');
      await insert(m, 500);
      throw new Error('refused by a rule');
    });
    await expect(refused).rejects.toThrow('refused by a rule');
    expect(await row(5)).toBeUndefined();
    expect(await row(500)).toBeUndefined();
  });

  it('keeps at most MAX_SQL_STATEMENTS prepared per connection, dropping the least recently used', async () => {
    const qr = ds.createQueryRunner();
    await qr.connect();
    try {
      const client = (qr as unknown as { databaseConnection: PgClient }).databaseConnection;
      const texts = Array.from({ length: MAX_SQL_STATEMENTS + 10 }, (_, i) => `SELECT ${i} + $1::int AS n`);
      const first = await sqlStatement(client, texts[0]);
      for (const text of texts.slice(1)) {
        await sqlStatement(client, text);
        await sqlStatement(client, texts[0]); // used again and again: never the oldest
      }
      const [{ n }] = (await qr.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'bgs\\_%'`)) as Array<{ n: number }>;
      expect(n).toBe(MAX_SQL_STATEMENTS);
      expect(await qr.query(`EXECUTE ${first}(1)`)).toEqual([{ n: 1 }]);
      // One that was dropped is made again when it is needed.
      const again = await sqlStatement(client, texts[1]);
      expect(await qr.query(`EXECUTE ${again}(1)`)).toEqual([{ n: 2 }]);
    } finally {
      await qr.release();
    }
  });

  it('a read is one REPEATABLE READ transaction opened by one statement: every query sees the same snapshot', async () => {
    await ds.query('INSERT INTO probe (id, n) VALUES (8, 1)');
    const seen = await db.read(async (m) => {
      const [iso] = await m.query('SHOW transaction_isolation');
      const before = (await m.query('SELECT n FROM probe WHERE id = 8'))[0].n;
      // Committed by another connection meanwhile (the pool has one: a separate client).
      const other = new Client({ connectionString: url });
      await other.connect();
      await other.query('UPDATE probe SET n = 2 WHERE id = 8');
      await other.end();
      const after = (await m.query('SELECT n FROM probe WHERE id = 8'))[0].n;
      return { iso: iso.transaction_isolation, before, after };
    });
    expect(seen).toEqual({ iso: 'repeatable read', before: '1', after: '1' });
    expect((await row(8)).n).toBe('2');
    await expect(ds.query('SAVEPOINT x')).rejects.toThrow(/only be used in transaction blocks/);
  });

  it('a value that cannot travel as a literal (NUL) is sent as a parameter: the same answer as ever, nothing written', async () => {
    await ds.query('INSERT INTO probe (id) VALUES (6)');
    const nul = db.command(ctx, 200, async (m) => {
      await lock(m, 6);
      await insert(m, 600, { s: 'a\u0000b' });
    });
    // PostgreSQL refuses NUL in text however it is sent (22021), never a syntax error.
    await expect(nul).rejects.toMatchObject({ driverError: { code: '22021' } });
    expect(await row(600)).toBeUndefined();
    // The same as the first statement of a command (BEGIN then goes on its own).
    const first = db.command(ctx, 200, async (m) => {
      await prepared(m, 'SELECT id FROM probe WHERE id = $1 AND s IS DISTINCT FROM $2', [6, 'x\u0000']);
    });
    await expect(first).rejects.toMatchObject({ driverError: { code: '22021' } });
    await expect(ds.query('SAVEPOINT x')).rejects.toThrow(/only be used in transaction blocks/);
  });
});
