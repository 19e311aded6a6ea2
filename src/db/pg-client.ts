import { EntityManager, QueryFailedError } from 'typeorm';
import { nameOf } from '../common/sql-names';

// The node-postgres client under a command, and the two ways a statement is sent on it:
// protocol-level named statements (prepared.ts) and SQL-level PREPARE/EXECUTE, which can
// share a round trip with BEGIN or COMMIT (transaction.ts).

export interface PgResult {
  rows: Array<Record<string, unknown>>;
  rowCount: number | null;
}

/** The node-postgres client under a TypeORM query runner. */
export interface PgClient {
  query(q: { name: string; text: string; values: unknown[] }): Promise<PgResult>;
  query(text: string): Promise<PgResult | PgResult[]>;
}

/** The pg client of the manager's query runner, while it holds one. */
export function clientOf(m: EntityManager): PgClient | undefined {
  const qr = m.queryRunner as unknown as { databaseConnection?: PgClient; isReleased?: boolean } | undefined;
  return qr && !qr.isReleased ? qr.databaseConnection : undefined;
}

/** A PostgreSQL error (it has a SQLSTATE) as TypeORM's QueryFailedError, so that every query's errors are answered alike. */
export function asQueryFailed(e: unknown, text: string, values: unknown[]): unknown {
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((e as { code: string }).code)) {
    return new QueryFailedError(text, values, e as unknown as Error);
  }
  return e;
}

/** SQL-level prepared statements (PREPARE) made on each connection, oldest first. */
const sqlPrepared = new WeakMap<PgClient, Set<string>>();

/**
 * At most this many per connection: a command's batch has as many shapes as it has
 * combinations of writes, so the oldest statement is deallocated to make room (in the
 * same round trip as the new PREPARE) and a backend's memory stays bounded.
 */
export const MAX_SQL_STATEMENTS = 256;

/**
 * The name of `text` as an SQL-level prepared statement on this connection, made
 * with PREPARE (one round trip) the first time. Such a statement can be EXECUTEd in
 * a multi-statement simple query, with BEGIN or COMMIT in the same round trip.
 */
export async function sqlStatement(client: PgClient, text: string): Promise<string> {
  const name = nameOf(text, 'bgs');
  let made = sqlPrepared.get(client);
  if (!made) sqlPrepared.set(client, (made = new Set()));
  if (made.has(name)) {
    // Most recently used last.
    made.delete(name);
    made.add(name);
    return name;
  }
  const oldest = made.size >= MAX_SQL_STATEMENTS ? (made.values().next().value as string) : null;
  // Whether the DEALLOCATE runs or not, the oldest is no longer to be relied on.
  if (oldest) made.delete(oldest);
  try {
    await client.query(`${oldest ? `DEALLOCATE ${oldest}; ` : ''}PREPARE ${name} AS ${text}`);
  } catch (e) {
    // 42P05: made already (a DEALLOCATE that failed earlier left it): the name is the text's.
    if ((e as { code?: string }).code !== '42P05') throw asQueryFailed(e, text, []);
  }
  made.add(name);
  return name;
}

/**
 * `EXECUTE name(…)` with the values written as SQL literals, converted as
 * node-postgres converts parameters; null when a value cannot travel as a literal
 * (a NUL character: the caller then sends it as a parameter).
 */
export function executeText(name: string, values: unknown[]): string | null {
  const literals: string[] = [];
  for (const v of values) {
    const lit = literal(v);
    if (lit === null) return null;
    literals.push(lit);
  }
  return literals.length ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`;
}

function literal(v: unknown): string | null {
  if (v === null || v === undefined) return 'NULL';
  let text: string;
  if (Buffer.isBuffer(v)) text = `\\x${v.toString('hex')}`;
  else if (typeof v === 'string') text = v;
  else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') text = String(v);
  else if (v instanceof Date) text = v.toISOString();
  else if (Array.isArray(v)) return arrayLiteral(v);
  else text = JSON.stringify(v);
  if (text.includes('\u0000')) return null;
  return quote(text);
}

/**
 * A string as an SQL literal: quotes doubled, and with backslashes the E'' form with
 * them doubled too, so the literal means the same whatever standard_conforming_strings is.
 */
function quote(text: string): string {
  const body = text.includes("'") ? text.replace(/'/g, "''") : text;
  return text.includes('\\') ? ` E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}

/** A one-dimensional array of strings or numbers as an array literal ('{"a","b"}'). */
function arrayLiteral(values: unknown[]): string | null {
  const items: string[] = [];
  for (const v of values) {
    if (v === null || v === undefined) items.push('NULL');
    else if (typeof v === 'number' || typeof v === 'bigint') items.push(String(v));
    else if (typeof v === 'string') {
      if (v.includes('\u0000')) return null;
      items.push(`"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
    } else return null;
  }
  return quote(`{${items.join(',')}}`);
}
