import { EntityManager } from 'typeorm';
import { prepared } from './prepared';

/**
 * Writes of one command, sent to PostgreSQL together as one statement just before
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

/** Sends every deferred write as one statement and checks the guarded ones. */
export async function flushBatch(m: EntityManager): Promise<void> {
  const batch = batches.get(m) ?? [];
  batches.delete(m);
  if (batch.length === 0) return;
  if (batch.length === 1) {
    const rows = await prepared(m, `${batch[0].sql} RETURNING 1`, batch[0].params);
    checkRows(batch[0], rows.length);
    return;
  }
  const params: unknown[] = [];
  const ctes = batch.map((w, i) => {
    const offset = params.length;
    params.push(...w.params);
    const sql = w.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    return `w${i} AS (${sql} RETURNING 1)`;
  });
  const counts = batch.map((_, i) => `(SELECT count(*) FROM w${i})::int AS n${i}`).join(', ');
  const [row] = await prepared(m, `WITH ${ctes.join(', ')} SELECT ${counts}`, params);
  batch.forEach((w, i) => checkRows(w, row[`n${i}`] as number));
}

function checkRows(w: Write, n: number): void {
  if (w.expectRows !== undefined && n !== w.expectRows) {
    throw new Error(`${w.what}: expected ${w.expectRows} row(s), touched ${n}`);
  }
}

/** TypeORM answers UPDATE … RETURNING as [rows, count] and INSERT … RETURNING as rows. */
function rowsOf(res: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res) as Array<Record<string, unknown>>;
}
