import { EntityManager } from 'typeorm';
import { nameOf } from '../common/sql-names';
import { asQueryFailed, clientOf, PgClient } from './pg-client';
import { withPendingBegin } from './transaction';

/**
 * Runs a hot statement as a named prepared statement on the transaction's own
 * connection: PostgreSQL parses and plans it once per connection, and the SQL text
 * no longer travels with every execution. Errors come back as TypeORM's
 * QueryFailedError, like every other query, so they are answered the same way.
 * When the command's BEGIN has not been sent yet (transaction.ts), it travels with
 * this statement, in one round trip. Outside a transaction (no query runner) it
 * falls back to a plain query.
 */
export async function prepared(m: EntityManager, text: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
  const client = clientOf(m);
  if (!client) return m.query(text, values);
  const withBegin = await withPendingBegin(m, client, text, values);
  if (withBegin) return withBegin;
  try {
    return (await client.query({ name: nameOf(text, 'bg'), text, values })).rows;
  } catch (e) {
    throw asQueryFailed(e, text, values);
  }
}

/** The same for a pg Pool (the rate-limit counters' own pool). */
export async function preparedOnPool(pool: { query: PgClient['query'] }, text: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
  return (await pool.query({ name: nameOf(text, 'bg'), text, values })).rows;
}
