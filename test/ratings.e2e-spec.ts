import type { components } from '../openapi/schema';
import { newClub, startApp, TestApp } from './support/app';
import { readModelDifferences } from './support/read-models';
import { Api, typedClient } from './support/typed-client';

type Action = components['schemas']['ActionDto'];
const double = (by: string): Action => ({ type: 'double', by });
const take = (by: string): Action => ({ type: 'take', by });
const finish = (winner: string, result: Action['result'] = 'single'): Action => ({ type: 'finish', winner, result, resigned: false });

/**
 * R7.1 club ratings over HTTP. Expected values are worked out by hand from the FIBS
 * formula of docs/rules.md (P_upset = 1 / (10^(D·√n/2000) + 1), K = max(1, 5 − exp/100),
 * ±4·K·√n·P), shown in the comments; ratings are answered to two decimals. Through the
 * typed client (openapi/schema.d.ts).
 */
describe('club ratings (R7) over HTTP', () => {
  let t: TestApp;
  let api: Api;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startApp();
    api = typedClient(t.url, (await newClub(t)).owner);
    for (const name of ['Anna', 'Ben', 'Cleo', 'Dan']) ids[name] = (await api.POST('/v1/players', { body: { name } })).data!.id;
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const player = async (id: string) => (await api.GET('/v1/players/{id}', { params: { path: { id } } })).data!;
  const newPlayer = async (name: string, rating?: number, experience?: number) =>
    (await api.POST('/v1/players', { body: { name, ...(rating === undefined ? {} : { rating, experience }) } })).data!.id;
  const match = async (sides: string[][], target: number) => (await api.POST('/v1/matches', { body: { sides, target } })).data!.id;
  const game = (id: string, actions: Action[]) => api.POST('/v1/matches/{id}/games', { params: { path: { id } }, body: { actions } });
  const penalty = (id: string, side: 0 | 1, points: number, reason: string) => api.POST('/v1/matches/{id}/penalties', { params: { path: { id } }, body: { side, points, reason } });

  it('R7.1 example: 1850 beats 1750 over 5 points with K = 1: +3.90 / −3.90', async () => {
    // Experience 400 → K = max(1, 5 − 4) = 1. D = 100, P_upset = 1/(10^(100·√5/2000) + 1) = 0.43584;
    // the favourite wins, P = 0.43584; 4·1·√5·0.43584 = 3.8996.
    const fav = await newPlayer('Favourite', 1850, 400);
    const dog = await newPlayer('Underdog', 1750, 400);
    const id = await match([[fav], [dog]], 5);
    await game(id, [double(fav), take(dog), finish(fav, 'gammon')]); // 4 points
    await game(id, [finish(fav)]); // 5, Crawford game
    expect(await player(fav)).toMatchObject({ rating: 1853.9, experience: 405 });
    expect(await player(dog)).toMatchObject({ rating: 1746.1, experience: 405 });
  });

  it('R7.1 a chain: two newcomers over 7 (+26.46), then the underdog wins over 3; a void takes it back', async () => {
    const { Anna: A, Ben: B } = ids;
    // Match 1: both 1500, K = 5, P = 0.5: 4·5·√7·0.5 = 26.4575.
    const m1 = await match([[A], [B]], 7);
    await game(m1, [double(A), take(B), finish(A, 'backgammon')]); // 2 × 3 = 6
    await game(m1, [finish(A)]); // 7
    const a1 = await player(A);
    expect(a1).toMatchObject({ rating: 1526.46, experience: 7 });
    expect(await player(B)).toMatchObject({ rating: 1473.54, experience: 7 });

    // Match 2 over 3: D = 52.915, P_upset = 1/(10^(52.915·√3/2000) + 1) = 0.47365; Ben (the underdog)
    // wins, so P = 1 − 0.47365 = 0.52635; K = 5 − 7/100 = 4.93 for both: 4·4.93·√3·0.52635 = 17.9782.
    const m2 = await match([[A], [B]], 3);
    await game(m2, [finish(B, 'gammon')]); // 0–2
    await game(m2, [finish(B)]); // 0–3
    expect(await player(B)).toMatchObject({ rating: 1491.52, experience: 10 });
    expect(await player(A)).toMatchObject({ rating: 1508.48, experience: 10 });

    // Voiding the match's last game reopens it and takes its change back (R7.1, R6.3).
    const v = await api.POST('/v1/matches/{id}/games/{gameNo}/void', { params: { path: { id: m2, gameNo: 2 } }, body: { reason: 'misrecorded' } });
    expect(v.response.status).toBe(200);
    expect((await api.GET('/v1/matches/{id}', { params: { path: { id: m2 } } })).data).toMatchObject({ status: 'in-progress', score: [0, 2] });
    expect(await player(A)).toMatchObject({ rating: 1526.46, experience: 7 });
    expect(await player(B)).toMatchObject({ rating: 1473.54, experience: 7 });
    // Replayed with Anna winning instead: now the favourite wins, P = 0.47365: 4·4.93·√3·0.47365 = 16.178.
    // 0–2 makes game 3 the Crawford game (no double); Anna's backgammon is worth 3: 3–2.
    const g3 = await game(m2, [finish(A, 'backgammon')]);
    expect(g3.data).toMatchObject({ crawford: true, points: 3 });
    expect(await player(A)).toMatchObject({ rating: 1542.64, experience: 10 });
    expect(await player(B)).toMatchObject({ rating: 1457.36, experience: 10 });
  });

  it("R7.1/R3.7 pairs: each player against the other side's average; a forfeit by penalty counts", async () => {
    const [p1, p2, p3, p4] = await Promise.all(['P1', 'P2', 'P3', 'P4'].map((n) => newPlayer(n)));
    // All 1500 and new: every winner +4·5·√3·0.5 = 17.32, every loser −17.32.
    const id = await match(
      [
        [p1, p2],
        [p3, p4],
      ],
      3,
    );
    await game(id, [finish(p3, 'backgammon')]);
    for (const [p, r] of [
      [p1, 1482.68],
      [p2, 1482.68],
      [p3, 1517.32],
      [p4, 1517.32],
    ] as const) {
      expect(await player(p)).toMatchObject({ rating: r, experience: 3 });
    }
    // R3.6: 2 + 2 penalty points against one side of a 7-point match forfeit it; R7.1 rates it.
    // p1 (1482.68, exp 3) beats p2 (1482.68, exp 3): D = 0, P = 0.5, K = 4.97: 4·4.97·√7·0.5 = 26.2987.
    const f = await match([[p1], [p2]], 7);
    await penalty(f, 0, 2, 'Late');
    const last = await penalty(f, 0, 2, 'Late again');
    expect(last.data).toMatchObject({ status: 'finished', winnerSide: 0 });
    expect(await player(p1)).toMatchObject({ rating: 1508.98, experience: 10 });
    expect(await player(p2)).toMatchObject({ rating: 1456.38, experience: 10 });
  });

  it('GET /v1/ratings lists best first with matches played, paged', async () => {
    const first = await api.GET('/v1/ratings', { params: { query: { limit: 3 } } });
    expect(first.response.status).toBe(200);
    const all = [...first.data!.items];
    let cursor = first.data!.nextCursor;
    while (cursor) {
      const next = await api.GET('/v1/ratings', { params: { query: { limit: 3, cursor } } });
      all.push(...next.data!.items);
      cursor = next.data!.nextCursor;
    }
    const ratings = all.map((r) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(all[0]).toMatchObject({ name: 'Favourite', rating: 1853.9, experience: 405, matches: 1 });
    expect(all.find((r) => r.name === 'Anna')).toMatchObject({ rating: 1542.64, experience: 10, matches: 2 });
    expect(all.find((r) => r.name === 'Cleo')).toMatchObject({ rating: 1500, experience: 0, matches: 0 });
    expect(all).toHaveLength(10);
  });
});
