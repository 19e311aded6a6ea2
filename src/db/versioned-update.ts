import type { ImmediateWrite } from './tx';

/** A versioned row's guarded update (Tx.guardedReturning runs it). Table and column names come from the code, never from a request. */
export interface VersionedUpdate {
  table: string;
  /** The row's key columns and values (club_id first). */
  key: Readonly<Record<string, unknown>>;
  /** The version the command read: the update touches the row only while it is still that one. */
  version: number;
  /** Columns to set; an undefined value leaves its column alone, null writes NULL. */
  set?: Readonly<Record<string, unknown>>;
  /** Assignments written out (`closed_at = now()`), for values the database computes. */
  setSql?: readonly string[];
  /** The columns to return (the row as it is after the update). */
  returning: string;
}

/**
 * `UPDATE <table> SET <changes>, version = version + 1, updated_at = now() WHERE <key>
 * AND version = <read version> RETURNING <columns>`: the one shape of a guarded update of
 * a versioned row (clubs, players, sessions).
 */
export function versionedUpdate(u: VersionedUpdate): ImmediateWrite {
  const values: unknown[] = [];
  const where = Object.entries(u.key).map(([column, value]) => `${column} = $${values.push(value)}`);
  where.push(`version = $${values.push(u.version)}`);
  const set: string[] = [];
  for (const [column, value] of Object.entries(u.set ?? {})) {
    if (value !== undefined) set.push(`${column} = $${values.push(value)}`);
  }
  set.push(...(u.setSql ?? []), 'version = version + 1', 'updated_at = now()');
  return { text: `UPDATE ${u.table} SET ${set.join(', ')} WHERE ${where.join(' AND ')} RETURNING ${u.returning}`, values };
}
