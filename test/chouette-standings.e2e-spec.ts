import type { components } from '../openapi/schema';
import { parseCsv } from './support/csv';
import { newClub, startApp, TestApp } from './support/app';
import { Api, typedClient } from './support/typed-client';

type Action = components['schemas']['ActionDto'];
const double = (by: string): Action => ({ type: 'double', by });
const take = (by: string): Action => ({ type: 'take', by });
const pass = (by: string): Action => ({ type: 'pass', by });
const finish = (winner: string): Action => ({ type: 'finish', winner, result: 'single', resigned: false });

/**
 * Who won a chouette game, as the standings, the session's games (JSON and CSV) and
 * the player statistics count it. In a chouette each member's game is his own cube's
 * (R5.4, R5.5): a member who passed a box double lost, whatever the team did after.
 * The box's game is won when his cubes net him points. Worked out by hand:
 *
 * Chouette, 100 per point, no rake, order Anna (box), Ben (captain), Cleo, Dan.
 *   g1 Anna doubles every cube; Ben and Dan take (cube 2), Cleo passes: she pays Anna
 *      1 × 100 and is out (R5.4). Ben wins a single for the team: Anna pays Ben and Dan
 *      2 × 100 each. Anna: +1 − 2 − 2 = −3 points, she lost. Winners: Ben, Dan.
 *      Captain beats box (R5.7): Ben box, line Cleo, Dan, Anna.
 *   g2 Dan doubles box Ben, who passes: Ben pays Dan 1 × 100 (R5.4). Ben wins a single
 *      against Cleo and Anna: 100 each. Ben: +1 + 1 − 1 = +1 point, he won. Winners:
 *      Ben, Dan.
 *   Nets: Anna −300 − 100 = −400; Ben +200 + 100 = +300; Cleo −100 − 100 = −200;
 *   Dan +200 + 100 = +300. Games won: Ben 2, Dan 2, Cleo 0, Anna 0 (two played each).
 *   Board: Ben and Dan (300, 2) share rank 1 (Ben first by name), Cleo 3, Anna 4.
 *
 * Through the typed client (openapi/schema.d.ts).
 */
describe('chouette results in standings, the games list and CSV, and player statistics (R5.4, R5.5)', () => {
  let t: TestApp;
  let api: Api;
  let A: string, B: string, C: string, D: string;
  let S: string;
  let id: string;

  beforeAll(async () => {
    t = await startApp();
    api = typedClient(t.url, (await newClub(t)).owner);
    const add = async (name: string) => (await api.POST('/v1/players', { body: { name } })).data!.id;
    [A, B, C, D] = [await add('Anna'), await add('Ben'), await add('Cleo'), await add('Dan')];
    S = (await api.POST('/v1/sessions', { body: { name: 'Club night' } })).data!.id;
    const res = await api.POST('/v1/chouettes', { body: { sessionId: S, stakeMinor: 100, seating: { order: [A, B, C, D] } } });
    expect(res.response.status).toBe(201);
    id = res.data!.id;
    const game = (actions: Action[]) => api.POST('/v1/chouettes/{id}/games', { params: { path: { id } }, body: { actions } });
    const g1 = await game([double(A), take(B), pass(C), take(D), finish(B)]);
    expect(g1.response.status).toBe(201);
    expect(g1.data!.payouts).toEqual([
      { from: A, to: B, amountMinor: 200, kind: 'game' },
      { from: C, to: A, amountMinor: 100, kind: 'game' },
      { from: A, to: D, amountMinor: 200, kind: 'game' },
    ]);
    const g2 = await game([double(D), pass(B), finish(B)]);
    expect(g2.response.status).toBe(201);
    expect(g2.data!.payouts).toEqual([
      { from: C, to: B, amountMinor: 100, kind: 'game' },
      { from: B, to: D, amountMinor: 100, kind: 'game' },
      { from: A, to: B, amountMinor: 100, kind: 'game' },
    ]);
  });
  afterAll(() => t.close());

  it('standings: the member who passed has not won the game; the box is judged by his net over his cubes', async () => {
    // A chouette is not a match: no one has a match record (R3.9).
    const noMatches = { matchesWon: 0, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 };
    const res = await api.GET('/v1/sessions/{id}/standings', { params: { path: { id: S } } });
    expect(res.response.status).toBe(200);
    expect(res.data!.items).toEqual([
      { rank: 1, playerId: B, name: 'Ben', netMinor: 300, gamesPlayed: 2, gamesWon: 2, ...noMatches },
      { rank: 1, playerId: D, name: 'Dan', netMinor: 300, gamesPlayed: 2, gamesWon: 2, ...noMatches },
      { rank: 3, playerId: C, name: 'Cleo', netMinor: -200, gamesPlayed: 2, gamesWon: 0, ...noMatches },
      { rank: 4, playerId: A, name: 'Anna', netMinor: -400, gamesPlayed: 2, gamesWon: 0, ...noMatches },
    ]);
  });

  it("the session's games (JSON): the winners are Ben and Dan in both games, never Cleo", async () => {
    const res = await api.GET('/v1/sessions/{id}/games', { params: { path: { id: S } } });
    expect(res.response.status).toBe(200);
    // The route answers JSON or CSV (its document lists both), so the body is narrowed to the JSON page.
    const page = res.data!;
    if (typeof page === 'string') throw new Error(`a CSV answer to a JSON request: ${page.slice(0, 80)}`);
    expect(page.items.map((g) => ({ gameNo: g.gameNo, players: g.players, winnerSide: g.winnerSide, winners: g.winners, endedBy: g.endedBy }))).toEqual([
      { gameNo: 1, players: [A, B, C, D], winnerSide: 1, winners: [B, D], endedBy: 'finish' },
      { gameNo: 2, players: [B, C, D, A], winnerSide: 0, winners: [B, D], endedBy: 'finish' },
    ]);
  });

  it("the session's games (CSV): the passer is not among the winners", async () => {
    const res = await api.GET('/v1/sessions/{id}/games', { params: { path: { id: S } }, headers: { accept: 'text/csv' }, parseAs: 'text' });
    expect(res.response.status).toBe(200);
    const text: unknown = res.data;
    if (typeof text !== 'string') throw new Error('a CSV request answered something else');
    const [header, ...rows] = parseCsv(text);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    expect(rows.map((r) => [col(r, 'gameNo'), col(r, 'players'), col(r, 'winnerSide'), col(r, 'winners'), col(r, 'winnerIds'), col(r, 'result')])).toEqual([
      ['1', 'Anna / Ben / Cleo / Dan', '1', 'Ben / Dan', `${B} ${D}`, 'single'],
      ['2', 'Ben / Cleo / Dan / Anna', '0', 'Ben / Dan', `${B} ${D}`, 'single'],
    ]);
  });

  it('player statistics count the same: Cleo passed and lost, Dan won his cube both times', async () => {
    const stats = async (p: string) => (await api.GET('/v1/players/{id}', { params: { path: { id: p } } })).data!.stats;
    expect(await stats(C)).toMatchObject({ gamesPlayed: 2, gamesWon: 0, passes: 1 });
    expect(await stats(D)).toMatchObject({ gamesPlayed: 2, gamesWon: 2, takes: 1, doubles: 1 });
    expect(await stats(A)).toMatchObject({ gamesPlayed: 2, gamesWon: 0, doubles: 1 });
    expect(await stats(B)).toMatchObject({ gamesPlayed: 2, gamesWon: 2, takes: 1, passes: 1 });
  });
});
