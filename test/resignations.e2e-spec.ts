import { startApp, TestApp } from './support/app';
import { clubWith, double, take } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * Resignation records (R3.10) over HTTP: who offered an accepted resignation
 * (`offeredBy`), offers refused (`resign-refused`), and each player's counts of offers
 * made, accepted and refused. A refused offer changes no score, cube or money.
 */
describe('resignations: offers accepted and refused', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Carl', 'Dora']);
    ({ Anna: A, Ben: B, Carl: C, Dora: D } = c.ids);
  });
  afterAll(async () => {
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const stats = async (id: string) => (await c.get(`/v1/players/${id}`)).body.stats;
  const refused = (by: string, result: string) => ({ type: 'resign-refused', by, result });

  it('records a refused offer and an accepted one, and counts both for the player who offered them (R3.10)', async () => {
    const session = await c.session();
    const table = (await c.post('/v1/money-games', { sessionId: session, players: [A, B], stakeMinor: 100 })).body.id as string;
    // Anna doubles, Ben takes (cube 2). Ben offers a gammon: Anna refuses. Then he offers a single: accepted.
    const g = await c.post(`/v1/money-games/${table}/games`, { actions: [double(A), take(B)] });
    expect(g.status).toBe(201);
    const r = await c.post(`/v1/money-games/${table}/games/1/actions`, refused(B, 'gammon'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'in-progress', points: null, cubes: [{ value: 2, owner: B, status: 'in-play' }] });
    expect(r.body.actions.map((a: { type: string }) => a.type)).toEqual(['double', 'take', 'resign-refused']);
    expect(r.body.actions[2]).toMatchObject({ type: 'resign-refused', by: B, result: 'gammon' });
    expect(r.body.payouts).toEqual([]);

    const end = await c.post(`/v1/money-games/${table}/games/1/actions`, { type: 'finish', winner: A, result: 'single', resigned: true, offeredBy: B });
    expect(end.status).toBe(200);
    // R1.4: a resigned single on a 2-cube Ben owns: 2 points, 200 at 100 a point.
    expect(end.body).toMatchObject({ status: 'finished', points: 2, winnerSide: 0, result: { winner: A, result: 'single', resigned: true, offeredBy: B } });
    expect(end.body.payouts).toEqual([{ from: B, to: A, amountMinor: 200, kind: 'game' }]);

    expect(await stats(B)).toMatchObject({ resignationsOffered: 2, resignationsAccepted: 1, resignationsRefused: 1, gamesPlayed: 1, gamesWon: 0 });
    expect(await stats(A)).toMatchObject({ resignationsOffered: 0, resignationsAccepted: 0, resignationsRefused: 0, gamesWon: 1 });
  });

  it('takes the counts back with the void of the game, and keeps them out of an abandoned one', async () => {
    const id = (await c.post('/v1/matches', { sides: [[C], [D]], target: 5 })).body.id as string;
    await c.post(`/v1/matches/${id}/games`, { actions: [refused(D, 'single'), { type: 'finish', winner: C, result: 'gammon', resigned: true, offeredBy: D }] });
    expect(await stats(D)).toMatchObject({ resignationsOffered: 2, resignationsAccepted: 1, resignationsRefused: 1 });
    expect((await c.post(`/v1/matches/${id}/void`, { reason: 'Wrong match' })).status).toBe(200);
    expect(await stats(D)).toMatchObject({ resignationsOffered: 0, resignationsAccepted: 0, resignationsRefused: 0 });
    // Only finished games count: a refused offer in a game later abandoned is not counted.
    await c.post(`/v1/matches/${id}/games`, { actions: [refused(C, 'gammon')] });
    await c.post(`/v1/matches/${id}/games/2/abandon`);
    expect(await stats(C)).toMatchObject({ resignationsOffered: 0, resignationsRefused: 0 });
  });

  it('refuses an offer by the winning side, offeredBy without resigned, and a draw offered; nothing is written', async () => {
    const id = (
      await c.post('/v1/matches', {
        sides: [
          [A, C],
          [B, D],
        ],
        target: 3,
      })
    ).body.id as string;
    await c.post(`/v1/matches/${id}/games`);
    const before = (await c.get(`/v1/matches/${id}/games/1`)).body;
    const events = Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM events'))[0].n);
    for (const body of [{ type: 'finish', winner: A, result: 'single', resigned: true, offeredBy: C }, { type: 'finish', winner: A, result: 'single', offeredBy: B }, refused(B, 'draw')]) {
      const res = await c.post(`/v1/matches/${id}/games/1/actions`, body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'INVALID_RESIGNATION', rule: 'R3.10' });
    }
    // A refused offer by someone not at the table, and a field that belongs to another action.
    expect((await c.post(`/v1/matches/${id}/games/1/actions`, refused('01a24800-0000-7000-8000-000000000000', 'single'))).body).toMatchObject({ code: 'NOT_IN_GAME' });
    expect((await c.post(`/v1/matches/${id}/games/1/actions`, { type: 'resign-refused', by: B, result: 'single', winner: A })).status).toBe(400);
    expect((await c.get(`/v1/matches/${id}/games/1`)).body).toEqual(before);
    expect(Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM events'))[0].n)).toBe(events);
    // The pair's second player may offer for his side.
    const ok = await c.post(`/v1/matches/${id}/games/1/actions`, { type: 'finish', winner: A, result: 'single', resigned: true, offeredBy: D });
    expect(ok.body).toMatchObject({ status: 'finished', result: { offeredBy: D } });
  });
});
