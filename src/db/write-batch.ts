import { EntityManager } from 'typeorm';

/**
 * Writes of one command, sent to PostgreSQL together as one statement with the
 * COMMIT (data-modifying CTEs), instead of one round trip each. Every write of the
 * batch sees the snapshot the command started with, so only writes that nothing in the
 * same command reads back are deferred (inserts of new rows, guarded updates of rows
 * already read and locked, counters).
 */
interface Write {
  sql: string;
  params: unknown[];
  /** Rows the write must touch (a guarded update: exactly 1), checked at flush. */
  expectRows?: number;
  what: string;
}

const batches = new WeakMap<EntityManager, Write[]>();

/** Starts collecting the deferred writes of a command's transaction. */
export function openBatch(m: EntityManager): void {
  batches.set(m, []);
}

/**
 * Defers one INSERT/UPDATE/DELETE (without RETURNING) to the command's flush; outside a
 * command it runs at once.
 */
export async function defer(m: EntityManager, write: Write): Promise<void> {
  const batch = batches.get(m);
  if (batch) {
    batch.push(write);
    return;
  }
  const res = await m.query(`${write.sql} RETURNING 1`, write.params);
  checkRows(write, rowsOf(res).length);
}

/**
 * Takes the command's deferred writes as one statement (data-modifying CTEs), or null
 * when there are none. The guarded writes are checked inside the statement
 * (bg_expect_rows raises, so the transaction cannot commit), which lets COMMIT travel
 * in the same round trip (transaction.ts).
 */
export function takeBatch(m: EntityManager): { text: string; values: unknown[] } | null {
  const batch = batches.get(m) ?? [];
  batches.delete(m);
  if (batch.length === 0) return null;
  const values: unknown[] = [];
  for (const w of batch) for (const v of w.params) values.push(v);
  return { text: shapeText(batch), values };
}

/**
 * The statement text of a batch, built once per shape (the same writes in the same
 * order, with the same checks): a command's batch has few shapes, and the text is then
 * the same string each time, so its prepared statement is found without rebuilding it.
 */
interface Shape {
  next: Map<string, Shape>;
  params?: number;
  expectRows?: number;
  what?: string;
  text?: string;
}

const shapes: Shape = { next: new Map() };
let shapeCount = 0;
const MAX_SHAPES = 2000;

function shapeText(batch: Write[]): string {
  let node = shapes;
  for (const w of batch) {
    let next = node.next.get(w.sql);
    if (!next) {
      // A full cache: the text is simply built again each time.
      if (shapeCount >= MAX_SHAPES) return buildText(batch);
      shapeCount++;
      next = { next: new Map(), params: w.params.length, expectRows: w.expectRows, what: w.what };
      node.next.set(w.sql, next);
    } else if (next.params !== w.params.length || next.expectRows !== w.expectRows || next.what !== w.what) {
      return buildText(batch);
    }
    node = next;
  }
  return (node.text ??= buildText(batch));
}

function buildText(batch: Write[]): string {
  const ctes: string[] = [];
  let offset = 0;
  batch.forEach((w, i) => {
    const sql = offset === 0 ? w.sql : w.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    offset += w.params.length;
    ctes.push(`w${i} AS (${sql} RETURNING 1)`);
  });
  const checks = batch.map((w, i) => (w.expectRows === undefined ? null : `bg_expect_rows((SELECT count(*) FROM w${i}), ${w.expectRows}, ${quote(w.what)})`)).filter((c) => c !== null);
  return `WITH ${ctes.join(', ')} SELECT ${checks.length ? checks.join(', ') : '1'}`;
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

function checkRows(w: Write, n: number): void {
  if (w.expectRows !== undefined && n !== w.expectRows) {
    throw new Error(`${w.what}: expected ${w.expectRows} row(s), touched ${n}`);
  }
}

/** TypeORM answers UPDATE … RETURNING as [rows, count] and INSERT … RETURNING as rows. */
function rowsOf(res: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res) as Array<Record<string, unknown>>;
}
