import { bearer, startApp, TestApp } from './support/app';
import { clubWith, finish } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * The seats a chouette answers while a game is in progress and after it (R5.7–R5.9,
 * R6.3). Five players, box partner from 4 seated (`partnerFrom: 4`). Every seating
 * below is worked out by hand from docs/rules.md:
 *
 * - R5.9: the partner is taken when a game starts (at least 4 seated, the box has
 *   none): the player after the captain becomes partner and leaves the team.
 * - R5.7/R5.9: captain beats box: the old box goes to the end of the line, the
 *   partner becomes captain, the captain becomes box, the next in line partner.
 *   Box beats captain: the captain goes to the end of the line; box and partner stay.
 * - R6.3: an abandoned or voided game changes nothing: seats and partner as before it.
 */
describe('chouette seats during and after a game (R5.7–R5.9, R6.3)', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string, E: string, F: string;
  let session: string;
  let id: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve', 'Finn']);
    ({ Anna: A, Ben: B, Cleo: C, Dan: D, Eve: E, Finn: F } = c.ids);
    session = await c.session();
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  type Seats = { box: string; partner: string | null; captain: string | null; team: string[] };
  const pick = (s: Seats & Record<string, unknown>): Seats => ({ box: s.box, partner: s.partner, captain: s.captain, team: s.team });
  /** The seats as GET /v1/chouettes/{id} and the list route answer them (they must agree). */
  const seats = async (): Promise<Seats> => {
    const one = await c.get(`/v1/chouettes/${id}`);
    expect(one.status).toBe(200);
    const listed = (await c.get(`/v1/chouettes?sessionId=${session}`)).body.items.find((x: { id: string }) => x.id === id);
    expect(pick(listed)).toEqual(pick(one.body));
    return pick(one.body);
  };
  const start = () => c.post(`/v1/chouettes/${id}/games`, {});
  const act = (gameNo: number, action: object) => c.post(`/v1/chouettes/${id}/games/${gameNo}/actions`, action);

  // Before game 1 (and after voiding it): Anna box, no partner, Ben captain.
  const beforeGame1: () => Seats = () => ({ box: A, partner: null, captain: B, team: [B, C, D, E] });
  // Game 1 as played: 5 seated ≥ 4, Cleo (after the captain) partners Anna.
  const atGame1: () => Seats = () => ({ box: A, partner: C, captain: B, team: [B, D, E] });
  // After game 1 (captain Ben beats box Anna): Ben box, Cleo captain, Anna to the end,
  // line [Cleo, Dan, Eve, Anna], Dan (after the captain) partners Ben.
  const afterGame1: () => Seats = () => ({ box: B, partner: D, captain: C, team: [C, E, A] });
  // After game 2 (box Ben beats captain Cleo): Cleo to the end; Ben and Dan stay.
  const afterGame2: () => Seats = () => ({ box: B, partner: D, captain: E, team: [E, A, C] });

  it('before the first game there is no partner: R5.9 applies when a game starts', async () => {
    const res = await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [A, B, C, D, E] }, rules: { partnerFrom: 4 } });
    expect(res.status).toBe(201);
    id = res.body.id;
    expect(pick(res.body)).toEqual(beforeGame1());
    expect(await seats()).toEqual(beforeGame1());
  });

  it('while game 1 is in progress the chouette shows the seats it is played with: partner set, not on the team', async () => {
    const g = await start();
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ gameNo: 1, status: 'in-progress' });
    // The game's cubes are the team's as played: Ben, Dan, Eve (Cleo is the partner).
    expect(g.body.cubes.map((x: { member: string }) => x.member)).toEqual([B, D, E]);
    expect(await seats()).toEqual(atGame1());
    const s = (await c.get(`/v1/chouettes/${id}`)).body;
    expect(s.currentGameNo).toBe(1);
    // Seated players first, as seated in the game: box, partner, then the team.
    expect(s.players.map((p: { playerId: string }) => p.playerId)).toEqual([A, C, B, D, E]);
  });

  it('joining and leaving are still refused during the game and move no seat (R5.8)', async () => {
    const join = await c.post(`/v1/chouettes/${id}/players`, { playerId: F });
    expect(join.status).toBe(422);
    expect(join.body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R5.8' });
    const leave = await t.http().delete(`/v1/chouettes/${id}/players/${C}`).set(bearer(c.owner));
    expect(leave.status).toBe(422);
    expect(leave.body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R5.8' });
    expect(await seats()).toEqual(atGame1());
  });

  it('after game 1 (the captain beats the box) the seats rotate with the partner (R5.7, R5.9)', async () => {
    const g = await act(1, finish(B));
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ status: 'finished', winnerSide: 1 });
    expect(await seats()).toEqual(afterGame1());
  });

  it('game 2 in progress keeps the partner; the box beats the captain and keeps him (R5.7, R5.9)', async () => {
    const g = await start();
    expect(g.body).toMatchObject({ gameNo: 2, status: 'in-progress' });
    expect(g.body.cubes.map((x: { member: string }) => x.member)).toEqual([C, E, A]);
    expect(await seats()).toEqual(afterGame1());
    expect((await act(2, finish(B))).body).toMatchObject({ status: 'finished', winnerSide: 0 });
    expect(await seats()).toEqual(afterGame2());
  });

  it('game 3 started then abandoned: the seats are as before it (R6.3)', async () => {
    expect((await start()).body).toMatchObject({ gameNo: 3, status: 'in-progress' });
    expect(await seats()).toEqual(afterGame2());
    expect((await c.post(`/v1/chouettes/${id}/games/3/abandon`)).body.status).toBe('abandoned');
    expect(await seats()).toEqual(afterGame2());
  });

  it('voiding game 2, then game 1, brings back the seats from before each (R6.3)', async () => {
    const v2 = await c.post(`/v1/chouettes/${id}/games/2/void`, { reason: 'Wrong winner' });
    expect(v2.status).toBe(200);
    expect(await seats()).toEqual(afterGame1());
    const v1 = await c.post(`/v1/chouettes/${id}/games/1/void`, { reason: 'Wrong winner' });
    expect(v1.status).toBe(200);
    expect(await seats()).toEqual(beforeGame1());
  });

  it('a game started from there takes the partner again while it runs; abandoned, the partner is gone again (R5.9, R6.3)', async () => {
    expect((await start()).body).toMatchObject({ gameNo: 4, status: 'in-progress' });
    expect(await seats()).toEqual(atGame1());
    expect((await c.post(`/v1/chouettes/${id}/games/4/abandon`)).body.status).toBe('abandoned');
    expect(await seats()).toEqual(beforeGame1());
    // Between games again: a join is accepted, at the end of the line (R5.8).
    const join = await c.post(`/v1/chouettes/${id}/players`, { playerId: F });
    expect(join.status).toBe(201);
    expect(pick(join.body)).toEqual({ box: A, partner: null, captain: B, team: [B, C, D, E, F] });
  });
});
