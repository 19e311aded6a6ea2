import type { Row } from '../../src/db/decode';
import { rebuildReadModels, type SqlClient } from '../../src/player-stats/rebuild';
import type { TestApp } from './app';

/**
 * The read models the commands kept (statistics, money per party, rated matches, session
 * totals, table nets, party sessions) of every club of the app's database, compared with a rebuild from the games, the
 * ledger and the payments: the differences found (none expected).
 */
export async function readModelDifferences(t: TestApp): Promise<string[]> {
  const found: string[] = [];
  for (const { club_id } of await t.sql<{ club_id: string }>('SELECT club_id FROM clubs ORDER BY club_id')) {
    found.push(...(await rebuildReadModels({ query: (text, values) => t.sql(text, values) }, club_id, 'check')));
  }
  return found;
}

/** A TypeORM QueryRunner (whose query answers a SELECT's rows) as an SqlClient. */
export const queryRunnerSqlClient = (q: { query(text: string, values?: unknown[]): Promise<unknown> }): SqlClient => ({
  query: async (text, values) => {
    const out = await q.query(text, values);
    return Array.isArray(out) && (out.length === 0 || !Array.isArray(out[0])) ? (out as Row[]) : [];
  },
});
