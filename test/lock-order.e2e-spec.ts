import { newClub, startApp, TestApp } from './support/app';
import { waitFor } from './support/concurrency';
import { Api, typedClient } from './support/typed-client';

type Action = { type: 'double' | 'take' | 'finish'; by?: string; winner?: string; result?: 'single'; resigned?: boolean };
const double = (by: string): Action => ({ type: 'double', by });
const take = (by: string): Action => ({ type: 'take', by });
const finish = (winner: string): Action => ({ type: 'finish', winner, result: 'single', resigned: false });

/**
 * A regular at several tables of two sessions at once, as on a busy club night: every
 * game he finishes writes his row, his statistics, his money and the house's rake, and a
 * match that ends also locks the players for their ratings (R7.1) before anything else.
 * Commands that write the same rows must take their locks in one order, or PostgreSQL
 * finds a deadlock, kills one of them and the scorer waits for a retry (or gets a 503
 * after five). The check is PostgreSQL's own count of deadlocks in the test's database.
 * Through the typed client (openapi/schema.d.ts).
 */
describe('lock order: concurrent games sharing a player never deadlock', () => {
  let t: TestApp;
  let api: Api;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startApp();
    api = typedClient(t.url, (await newClub(t)).owner);
    for (const name of ['Regular', 'A', 'B', 'C', 'D', 'E', 'F']) {
      const { data } = await api.POST('/v1/players', { body: { name } });
      ids[name] = data!.id;
    }
  });
  afterAll(() => t.close());

  const deadlocks = async () => Number((await t.sql<{ n: string }>(`SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()`))[0].n);

  it('plays 2 sessions × (2 money tables + a run of matches to 1) at once: every game 201, no deadlock counted', async () => {
    const R = ids.Regular;
    const before = await deadlocks();
    const GAMES = 12;
    const lanes: Array<Promise<number[]>> = [];
    const others = ['A', 'B', 'C', 'D', 'E', 'F'].map((n) => ids[n]);
    for (let s = 0; s < 2; s++) {
      const session = (await api.POST('/v1/sessions', { body: { name: `Club night ${s + 1}`, rakePercent: 2.5 } })).data!.id;
      for (let m = 0; m < 2; m++) {
        const other = others[s * 3 + m];
        const table = await api.POST('/v1/money-games', { body: { sessionId: session, players: [R, other], stakeMinor: 100 } });
        expect(table.response.status).toBe(201);
        const id = table.data!.id;
        lanes.push(
          (async () => {
            const statuses: number[] = [];
            for (let k = 0; k < GAMES; k++) {
              const actions = k % 2 === 0 ? [double(R), take(other), finish(R)] : [finish(other)];
              statuses.push((await api.POST('/v1/money-games/{id}/games', { params: { path: { id } }, body: { actions } })).response.status);
            }
            return statuses;
          })(),
        );
      }
      const opponent = others[s * 3 + 2];
      lanes.push(
        (async () => {
          const statuses: number[] = [];
          for (let k = 0; k < GAMES; k++) {
            const match = await api.POST('/v1/matches', { body: { sessionId: session, sides: [[R], [opponent]], target: 1, stakeMinor: 200 } });
            statuses.push(match.response.status);
            const game = await api.POST('/v1/matches/{id}/games', { params: { path: { id: match.data!.id } }, body: { actions: [finish(k % 2 === 0 ? R : opponent)] } });
            statuses.push(game.response.status);
          }
          return statuses;
        })(),
      );
    }
    const results = (await Promise.all(lanes)).flat();
    expect(results.filter((s) => s !== 201)).toEqual([]);
    expect(results).toHaveLength(2 * (2 * GAMES + 2 * GAMES));

    // R played 2 × 2 × 12 money games (he doubled and won the even ones) and 2 × 12
    // matches of one game (he won the even ones): all of them count on his page, once.
    const page = await api.GET('/v1/players/{id}', { params: { path: { id: R } } });
    expect(page.response.status).toBe(200);
    expect(page.data!.stats).toMatchObject({ gamesPlayed: 48 + 24, gamesWon: 24 + 12, matchesPlayed: 24, matchesWon: 12, doubles: 24 });

    // PostgreSQL's statistics reach pg_stat_database once the backends report them (at
    // most a second or so after their transactions): wait for the counter to settle.
    let last = -1;
    const settled = await waitFor(
      'the deadlock counter to settle',
      async () => {
        await new Promise((r) => setTimeout(r, 1200));
        const now = await deadlocks();
        const same = now === last;
        last = now;
        return same ? { now } : null;
      },
      20000,
      0,
    );
    expect(settled.now - before).toBe(0);
  });
});
