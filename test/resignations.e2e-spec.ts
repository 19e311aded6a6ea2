import type { components } from '../openapi/schema';
import { newClub, startApp, TestApp } from './support/app';
import { readModelDifferences } from './support/read-models';
import { Api, typedClient } from './support/typed-client';

type Action = components['schemas']['ActionDto'];

/**
 * Resignation records (R3.10) over HTTP: who offered an accepted resignation
 * (`offeredBy`), offers refused (`resign-refused`), and each player's counts of offers
 * made, accepted and refused. A refused offer changes no score, cube or money. Through
 * the typed client (openapi/schema.d.ts).
 */
describe('resignations: offers accepted and refused', () => {
  let t: TestApp;
  let api: Api;
  let A: string, B: string, C: string, D: string;

  beforeAll(async () => {
    t = await startApp();
    api = typedClient(t.url, (await newClub(t)).owner);
    const add = async (name: string) => (await api.POST('/v1/players', { body: { name } })).data!.id;
    [A, B, C, D] = [await add('Anna'), await add('Ben'), await add('Carl'), await add('Dora')];
  });
  afterAll(async () => {
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const stats = async (id: string) => (await api.GET('/v1/players/{id}', { params: { path: { id } } })).data!.stats;
  const refused = (by: string, result: Action['result']): Action => ({ type: 'resign-refused', by, result });
  const newMatch = async (sides: string[][], target: number) => (await api.POST('/v1/matches', { body: { sides, target } })).data!.id;
  const matchGame = (id: string, actions?: Action[]) => api.POST('/v1/matches/{id}/games', { params: { path: { id } }, body: actions ? { actions } : {} });
  const matchAction = (id: string, gameNo: number, body: Action) => api.POST('/v1/matches/{id}/games/{gameNo}/actions', { params: { path: { id, gameNo } }, body });
  const events = async () => Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM events'))[0].n);

  it('records a refused offer and an accepted one, and counts both for the player who offered them (R3.10)', async () => {
    const session = (await api.POST('/v1/sessions', { body: { name: 'Club night' } })).data!.id;
    const table = (await api.POST('/v1/money-games', { body: { sessionId: session, players: [A, B], stakeMinor: 100 } })).data!.id;
    const action = (body: Action) => api.POST('/v1/money-games/{id}/games/{gameNo}/actions', { params: { path: { id: table, gameNo: 1 } }, body });
    // Anna doubles, Ben takes (cube 2). Ben offers a gammon: Anna refuses. Then he offers a single: accepted.
    const g = await api.POST('/v1/money-games/{id}/games', {
      params: { path: { id: table } },
      body: {
        actions: [
          { type: 'double', by: A },
          { type: 'take', by: B },
        ],
      },
    });
    expect(g.response.status).toBe(201);
    const r = await action(refused(B, 'gammon'));
    expect(r.response.status).toBe(200);
    expect(r.data).toMatchObject({ status: 'in-progress', points: null, cubes: [{ value: 2, owner: B, status: 'in-play' }] });
    expect(r.data!.actions.map((a) => a.type)).toEqual(['double', 'take', 'resign-refused']);
    expect(r.data!.actions[2]).toMatchObject({ type: 'resign-refused', by: B, result: 'gammon' });
    expect(r.data!.payouts).toEqual([]);

    const end = await action({ type: 'finish', winner: A, result: 'single', resigned: true, offeredBy: B });
    expect(end.response.status).toBe(200);
    // R1.4: a resigned single on a 2-cube Ben owns: 2 points, 200 at 100 a point.
    expect(end.data).toMatchObject({ status: 'finished', points: 2, winnerSide: 0, result: { winner: A, result: 'single', resigned: true, offeredBy: B } });
    expect(end.data!.payouts).toEqual([{ from: B, to: A, amountMinor: 200, kind: 'game' }]);

    expect(await stats(B)).toMatchObject({ resignationsOffered: 2, resignationsAccepted: 1, resignationsRefused: 1, gamesPlayed: 1, gamesWon: 0 });
    expect(await stats(A)).toMatchObject({ resignationsOffered: 0, resignationsAccepted: 0, resignationsRefused: 0, gamesWon: 1 });
  });

  it('takes the counts back with the void of the game, and keeps them out of an abandoned one', async () => {
    const id = await newMatch([[C], [D]], 5);
    await matchGame(id, [refused(D, 'single'), { type: 'finish', winner: C, result: 'gammon', resigned: true, offeredBy: D }]);
    expect(await stats(D)).toMatchObject({ resignationsOffered: 2, resignationsAccepted: 1, resignationsRefused: 1 });
    expect((await api.POST('/v1/matches/{id}/void', { params: { path: { id } }, body: { reason: 'Wrong match' } })).response.status).toBe(200);
    expect(await stats(D)).toMatchObject({ resignationsOffered: 0, resignationsAccepted: 0, resignationsRefused: 0 });
    // Only finished games count: a refused offer in a game later abandoned is not counted.
    await matchGame(id, [refused(C, 'gammon')]);
    await api.POST('/v1/matches/{id}/games/{gameNo}/abandon', { params: { path: { id, gameNo: 2 } } });
    expect(await stats(C)).toMatchObject({ resignationsOffered: 0, resignationsRefused: 0 });
  });

  it('refuses an offer by the winning side, offeredBy without resigned, and a draw offered; nothing is written', async () => {
    const id = await newMatch(
      [
        [A, C],
        [B, D],
      ],
      3,
    );
    await matchGame(id);
    const gameOne = async () => (await api.GET('/v1/matches/{id}/games/{gameNo}', { params: { path: { id, gameNo: 1 } } })).data;
    const before = await gameOne();
    const eventsBefore = await events();
    for (const body of [
      { type: 'finish', winner: A, result: 'single', resigned: true, offeredBy: C },
      { type: 'finish', winner: A, result: 'single', offeredBy: B },
      refused(B, 'draw'),
    ] satisfies Action[]) {
      const res = await matchAction(id, 1, body);
      expect(res.response.status).toBe(422);
      expect(res.error).toMatchObject({ code: 'INVALID_RESIGNATION', rule: 'R3.10' });
    }
    // A refused offer by someone not at the table, and a field that belongs to another action.
    expect((await matchAction(id, 1, refused('01a24800-0000-7000-8000-000000000000', 'single'))).error).toMatchObject({ code: 'NOT_IN_GAME' });
    expect((await matchAction(id, 1, { type: 'resign-refused', by: B, result: 'single', winner: A })).response.status).toBe(400);
    expect(await gameOne()).toEqual(before);
    expect(await events()).toBe(eventsBefore);
    // The pair's second player may offer for his side.
    const ok = await matchAction(id, 1, { type: 'finish', winner: A, result: 'single', resigned: true, offeredBy: D });
    expect(ok.data).toMatchObject({ status: 'finished', result: { offeredBy: D } });
  });
});
