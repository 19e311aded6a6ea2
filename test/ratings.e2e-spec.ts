import { startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * R7.1 club ratings over HTTP. Expected values are worked out by hand from the FIBS
 * formula of docs/rules.md (P_upset = 1 / (10^(D·√n/2000) + 1), K = max(1, 5 − exp/100),
 * ±4·K·√n·P), shown in the comments; ratings are answered to two decimals.
 */
describe('club ratings (R7) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan']);
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const player = async (id: string) => (await c.get(`/v1/players/${id}`)).body as { rating: number; experience: number; version: number };
  const newPlayer = async (name: string, rating?: number, experience?: number) =>
    (await c.post('/v1/players', { name, ...(rating === undefined ? {} : { rating, experience }) })).body.id as string;
  const match = async (sides: string[][], target: number) => (await c.post('/v1/matches', { sides, target })).body.id as string;

  it('R7.1 example: 1850 beats 1750 over 5 points with K = 1: +3.90 / −3.90', async () => {
    // Experience 400 → K = max(1, 5 − 4) = 1. D = 100, P_upset = 1/(10^(100·√5/2000) + 1) = 0.43584;
    // the favourite wins, P = 0.43584; 4·1·√5·0.43584 = 3.8996.
    const fav = await newPlayer('Favourite', 1850, 400);
    const dog = await newPlayer('Underdog', 1750, 400);
    const id = await match([[fav], [dog]], 5);
    await c.post(`/v1/matches/${id}/games`, { actions: [double(fav), take(dog), finish(fav, 'gammon')] }); // 4 points
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(fav)] }); // 5, Crawford game
    expect(await player(fav)).toMatchObject({ rating: 1853.9, experience: 405 });
    expect(await player(dog)).toMatchObject({ rating: 1746.1, experience: 405 });
  });

  it('R7.1 a chain: two newcomers over 7 (+26.46), then the underdog wins over 3; a void takes it back', async () => {
    const { Anna: A, Ben: B } = c.ids;
    // Match 1: both 1500, K = 5, P = 0.5: 4·5·√7·0.5 = 26.4575.
    const m1 = await match([[A], [B]], 7);
    await c.post(`/v1/matches/${m1}/games`, { actions: [double(A), take(B), finish(A, 'backgammon')] }); // 2 × 3 = 6
    await c.post(`/v1/matches/${m1}/games`, { actions: [finish(A)] }); // 7
    const a1 = await player(A);
    expect(a1).toMatchObject({ rating: 1526.46, experience: 7 });
    expect(await player(B)).toMatchObject({ rating: 1473.54, experience: 7 });

    // Match 2 over 3: D = 52.915, P_upset = 1/(10^(52.915·√3/2000) + 1) = 0.47365; Ben (the underdog)
    // wins, so P = 1 − 0.47365 = 0.52635; K = 5 − 7/100 = 4.93 for both: 4·4.93·√3·0.52635 = 17.9782.
    const m2 = await match([[A], [B]], 3);
    await c.post(`/v1/matches/${m2}/games`, { actions: [finish(B, 'gammon')] }); // 0–2
    await c.post(`/v1/matches/${m2}/games`, { actions: [finish(B)] }); // 0–3
    expect(await player(B)).toMatchObject({ rating: 1491.52, experience: 10 });
    expect(await player(A)).toMatchObject({ rating: 1508.48, experience: 10 });

    // Voiding the match's last game reopens it and takes its change back (R7.1, R6.3).
    const v = await c.post(`/v1/matches/${m2}/games/2/void`, { reason: 'misrecorded' });
    expect(v.status).toBe(200);
    expect((await c.get(`/v1/matches/${m2}`)).body).toMatchObject({ status: 'in-progress', score: [0, 2] });
    expect(await player(A)).toMatchObject({ rating: 1526.46, experience: 7 });
    expect(await player(B)).toMatchObject({ rating: 1473.54, experience: 7 });
    // Replayed with Anna winning instead: now the favourite wins, P = 0.47365: 4·4.93·√3·0.47365 = 16.178.
    // 0–2 makes game 3 the Crawford game (no double); Anna's backgammon is worth 3: 3–2.
    const g3 = await c.post(`/v1/matches/${m2}/games`, { actions: [finish(A, 'backgammon')] });
    expect(g3.body).toMatchObject({ crawford: true, points: 3 });
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
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(p3, 'backgammon')] });
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
    await c.post(`/v1/matches/${f}/penalties`, { side: 0, points: 2, reason: 'Late' });
    const last = await c.post(`/v1/matches/${f}/penalties`, { side: 0, points: 2, reason: 'Late again' });
    expect(last.body).toMatchObject({ status: 'finished', winnerSide: 0 });
    expect(await player(p1)).toMatchObject({ rating: 1508.98, experience: 10 });
    expect(await player(p2)).toMatchObject({ rating: 1456.38, experience: 10 });
  });

  it('GET /v1/ratings lists best first with matches played, paged', async () => {
    const first = await c.get('/v1/ratings?limit=3');
    expect(first.status).toBe(200);
    const all = [...first.body.items];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const next = await c.get(`/v1/ratings?limit=3&cursor=${cursor}`);
      all.push(...next.body.items);
      cursor = next.body.nextCursor;
    }
    const ratings = all.map((r: { rating: number }) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(all[0]).toMatchObject({ name: 'Favourite', rating: 1853.9, experience: 405, matches: 1 });
    expect(all.find((r: { name: string }) => r.name === 'Anna')).toMatchObject({ rating: 1542.64, experience: 10, matches: 2 });
    expect(all.find((r: { name: string }) => r.name === 'Cleo')).toMatchObject({ rating: 1500, experience: 0, matches: 0 });
    expect(all).toHaveLength(10);
  });
});
