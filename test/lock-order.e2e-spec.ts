import { startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { waitFor } from './support/concurrency';

/**
 * A regular at several tables of two sessions at once, as on a busy club night: every
 * game he finishes writes his row, his statistics, his money and the house's rake, and a
 * match that ends also locks the players for their ratings (R7.1) before anything else.
 * Commands that write the same rows must take their locks in one order, or PostgreSQL
 * finds a deadlock, kills one of them and the scorer waits for a retry (or gets a 503
 * after five). The check is PostgreSQL's own count of deadlocks in the test's database.
 */
describe('lock order: concurrent games sharing a player never deadlock', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Regular', 'A', 'B', 'C', 'D', 'E', 'F']);
  });
  afterAll(() => t.close());

  const deadlocks = async () => Number((await t.sql<{ n: string }>(`SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()`))[0].n);

  it('plays 2 sessions × (2 money tables + a run of matches to 1) at once: every game 201, no deadlock counted', async () => {
    const R = c.ids.Regular;
    const before = await deadlocks();
    const GAMES = 12;
    const lanes: Array<Promise<number[]>> = [];
    const others = ['A', 'B', 'C', 'D', 'E', 'F'].map((n) => c.ids[n]);
    for (let s = 0; s < 2; s++) {
      const session = await c.session({ rakePercent: 2.5 });
      for (let m = 0; m < 2; m++) {
        const other = others[s * 3 + m];
        const table = await c.post('/v1/money-games', { sessionId: session, players: [R, other], stakeMinor: 100 });
        expect(table.status).toBe(201);
        lanes.push(
          (async () => {
            const statuses: number[] = [];
            for (let k = 0; k < GAMES; k++) {
              const body = k % 2 === 0 ? { actions: [double(R), take(other), finish(R)] } : { actions: [finish(other)] };
              statuses.push((await c.post(`/v1/money-games/${table.body.id}/games`, body)).status);
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
            const match = await c.post('/v1/matches', { sessionId: session, sides: [[R], [opponent]], target: 1, stakeMinor: 200 });
            statuses.push(match.status);
            statuses.push((await c.post(`/v1/matches/${match.body.id}/games`, { actions: [finish(k % 2 === 0 ? R : opponent)] })).status);
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
    const page = await c.get(`/v1/players/${R}`);
    expect(page.status).toBe(200);
    expect(page.body.stats).toMatchObject({ gamesPlayed: 48 + 24, gamesWon: 24 + 12, matchesPlayed: 24, matchesWon: 12, doubles: 24 });

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
