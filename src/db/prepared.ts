import { createHash } from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';

interface PgClient {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number | null }>;
}

const names = new Map<string, string>();

/** A stable statement name per SQL text. */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `bg_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (names.size < 5000) names.set(text, name);
  }
  return name;
}

/**
 * Runs a hot statement as a named prepared statement on the transaction's own
 * connection: PostgreSQL parses and plans it once per connection, and the SQL text
 * no longer travels with every execution. Errors come back as TypeORM's
 * QueryFailedError, like every other query, so they are answered the same way.
 * Outside a transaction (no query runner) it falls back to a plain query.
 */
export async function prepared(m: EntityManager, text: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
  const qr = m.queryRunner as unknown as { databaseConnection?: PgClient; isReleased?: boolean } | undefined;
  const client = qr && !qr.isReleased ? qr.databaseConnection : undefined;
  if (!client) return m.query(text, values);
  try {
    return (await client.query({ name: nameOf(text), text, values })).rows;
  } catch (e) {
    if (e && typeof e === 'object' && 'code' in e && typeof (e as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((e as { code: string }).code)) {
      throw new QueryFailedError(text, values, e as unknown as Error);
    }
    throw e;
  }
}

/** The same for a pg Pool (the rate-limit counters' own pool). */
export async function preparedOnPool(pool: { query: PgClient['query'] }, text: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
  return (await pool.query({ name: nameOf(text), text, values })).rows;
}
