// What GET /ready looks at, without Nest: readiness.ts runs it on the app's pool.

/** What GET /ready found: nothing missing, or what the instance still waits for. */
export interface Readiness {
  /** `database` when it did not answer in time; `primary` when it answered as a standby; `migration:<name>` per migration of this build not applied. */
  missing: string[];
}

/**
 * Whether the server is a standby (in recovery: it takes no write), and the migrations
 * applied. A standby answers where the primary should (a failover in progress, a proxy
 * not yet moved): the instance is not ready, since every command would be refused.
 */
export const READY_SQL = 'SELECT pg_is_in_recovery() AS standby, ARRAY(SELECT name::text FROM migrations) AS names';

/**
 * What is missing, from the answer to READY_SQL (`probe`): `primary` first when the server
 * is a standby, then each migration of `expected` not applied. A missing migrations table
 * means that none is applied; any other failure, that the database did not answer.
 */
export async function lookReady(expected: readonly string[], probe: (sql: string) => Promise<ReadonlyArray<Readonly<Record<string, unknown>>>>): Promise<Readiness> {
  let applied: Set<string>;
  let standby = false;
  try {
    const [row] = await probe(READY_SQL);
    standby = row.standby === true;
    applied = new Set((row.names as unknown[]).map(String));
  } catch (e) {
    if ((e as { code?: unknown }).code !== '42P01') return { missing: ['database'] };
    applied = new Set();
  }
  const migrations = expected.filter((name) => !applied.has(name)).map((name) => `migration:${name}`);
  return { missing: standby ? ['primary', ...migrations] : migrations };
}
