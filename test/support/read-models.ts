import { rebuildReadModels } from '../../src/player-stats/rebuild';
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
