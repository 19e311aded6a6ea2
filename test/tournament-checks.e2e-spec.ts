import { startApp, TestApp } from './support/app';
import { clubWith, finish } from './support/club';

/**
 * Tournaments (R9) checked black-box, through the HTTP API only: every expected value
 * below (bracket positions, pairings, byes, rankings, Buchholz, lateness points, places,
 * prizes to the minor unit) is worked out by hand from the rule book, with the arithmetic
 * in the comments. Each refusal is checked to write nothing: the tournament as read and
 * the club's event log are the same before and after it.
 */
describe('tournament checks (R9)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
  });

  type Club = Awaited<ReturnType<typeof clubWith>>;
  type Pairing = {
    no: number;
    sides: string[][] | null;
    bye: string | null;
    matchId: string | null;
    winnerSide: number | null;
    endedBy: { kind: string; side?: number; reason?: string } | null;
  };
  type Round = { no: number; target: number; scheduledAt: string | null; pairings: Pairing[] };
  type Standing = { playerId: string; place: number | null; wins: number; buchholz: number; pointsFor: number; pointsAgainst: number };

  /** A club of its own for each check, so its event log holds only what the check did. */
  const club = () => clubWith(t, []);

  const player = async (c: Club, name: string, rating = 1500) => {
    const res = await c.post('/v1/players', { name, rating });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const create = async (c: Club, body: object) => {
    const res = await c.post('/v1/tournaments', body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const enter = async (c: Club, id: string, playerId: string, extra: object = {}) => {
    const res = await c.post(`/v1/tournaments/${id}/entries`, { playerId, ...extra });
    expect(res.status).toBe(201);
  };
  const draw = async (c: Club, id: string, body: object) => {
    const res = await c.post(`/v1/tournaments/${id}/draw`, body);
    expect(res.status).toBe(200);
    return res.body;
  };
  const get = async (c: Club, id: string) => {
    const res = await c.get(`/v1/tournaments/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const rounds = async (c: Club, id: string) => (await get(c, id)).flights[0].rounds as Round[];
  const pairingAt = async (c: Club, id: string, round: number, no: number) => (await rounds(c, id))[round - 1].pairings[no - 1];
  /** A round as R9 states it: each pairing's two players (in either order), or its bye. */
  const shape = (r: Round) => r.pairings.map((p) => (p.bye !== null ? { bye: p.bye } : { players: p.sides ? [p.sides[0][0], p.sides[1][0]].sort() : null }));
  const pair = (a: string, b: string) => ({ players: [a, b].sort() });
  /** A Swiss round: its pairs in order (R9.4 pairs from the top down) and, apart, its bye. */
  const swiss = (r: Round) => ({ pairs: shape(r).filter((x) => !('bye' in x)), byes: r.pairings.filter((p) => p.bye !== null).map((p) => p.bye) });
  const swissOf = (pairs: Array<[string, string]>, bye: string | null) => ({ pairs: pairs.map(([a, b]) => pair(a, b)), byes: bye === null ? [] : [bye] });
  const getMatch = async (c: Club, matchId: string) => {
    const res = await c.get(`/v1/matches/${matchId}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** The side a player sits on in a match. */
  const sideOf = async (c: Club, matchId: string, playerId: string) => {
    const m = await getMatch(c, matchId);
    return (m.sides as string[][]).findIndex((s) => s.includes(playerId));
  };
  /** Games recorded whole (R1.1: single 1, gammon 2, backgammon 3 with the cube at 1), in order. */
  const games = async (c: Club, matchId: string, results: Array<[string, 'single' | 'gammon' | 'backgammon']>) => {
    for (const [winner, result] of results) {
      const res = await c.post(`/v1/matches/${matchId}/games`, { actions: [finish(winner, result)] });
      expect(res.status).toBe(201);
    }
  };
  /**
   * Every event of the club's log (a change is announced; a refusal must add none), counted in
   * the database: the API's event pages hold back events while any transaction is still open.
   */
  const eventCount = async (c: Club) => {
    const clubId = (await c.get('/v1/club')).body.id as string;
    return Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM events WHERE club_id = $1', [clubId]))[0].n);
  };
  /** What a refusal must leave as it was: the tournament, some matches, the event log. */
  const snapshot = async (c: Club, id: string, matchIds: string[]) => ({
    tournament: await get(c, id),
    matches: await Promise.all(matchIds.map((m) => getMatch(c, m))),
    events: await eventCount(c),
  });
  /** Every match of the tournament in a round, through the match list. */
  const matchesOfRound = async (c: Club, id: string, round: number) => {
    const out: Array<{ id: string; sides: string[][] }> = [];
    let cursor: string | null = null;
    for (;;) {
      const res = await c.get(`/v1/matches?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      for (const m of res.body.items as Array<{ id: string; sides: string[][]; tournament: { id: string; round: number } | null }>) {
        if (m.tournament?.id === id && m.tournament.round === round) out.push(m);
      }
      cursor = res.body.nextCursor as string | null;
      if (!cursor) return out;
    }
  };
  const placesOf = (standings: Standing[]) => Object.fromEntries(standings.map((s) => [s.playerId, s.place]));

  // ---- 1. a 6-player knockout ---------------------------------------------------------

  /**
   * Six players entered in the order F, C, A, E, B, D, rated A 1900, B 1800, C 1800, D 1700,
   * E 1650, F 1500. R9.3: seeds by rating, higher first, ties by entry order: A 1, then B and
   * C tie at 1800 and C entered before B, so C 2 and B 3; D 4, E 5, F 6.
   * The bracket is the next power of two ≥ 6: 8. From the top, 1–8, 4–5, 3–6, 2–7; seeds 7
   * and 8 do not exist, so 8 − 6 = 2 byes go to the top seeds 1 (A) and 2 (C).
   * Targets [3, 5]: round 1 to 3, the semi-finals and the final to 5 (R9.1: the last repeats).
   * Results: E beats D, B beats F; E beats A, C beats B; E beats C in the final.
   * R9.5 places: E 1st, C 2nd, the semi-final losers A and B 3rd equal; the round-1 losers
   * D and F are out in a round of 4 pairings (5th equal, as docs/rules.md R9.5 words it).
   */
  const knockoutOfSix = async (c: Club, body: object) => {
    const p = {
      F: await player(c, 'F', 1500),
      C: await player(c, 'C', 1800),
      A: await player(c, 'A', 1900),
      E: await player(c, 'E', 1650),
      B: await player(c, 'B', 1800),
      D: await player(c, 'D', 1700),
    };
    const session = await c.session();
    const id = await create(c, { name: 'Six', format: 'knockout', targets: [3, 5], sessionId: session, entryFeeMinor: 1234, housePercent: 10, ...body });
    for (const k of ['F', 'C', 'A', 'E', 'B', 'D'] as const) await enter(c, id, p[k]);
    const drawn = await draw(c, id, { seeding: 'rating' });
    expect(drawn.status).toBe('running');
    const f = drawn.flights[0];
    const seeds = Object.fromEntries((f.entries as Array<{ playerId: string; seed: number }>).map((e) => [e.playerId, e.seed]));
    expect(seeds).toEqual({ [p.A]: 1, [p.C]: 2, [p.B]: 3, [p.D]: 4, [p.E]: 5, [p.F]: 6 });
    // Round 1 from the top: 1–8 (bye A), 4–5 (D–E), 3–6 (B–F), 2–7 (bye C); a semi-final round of 2, a final of 1.
    const r: Round[] = f.rounds;
    expect(r.map((x) => x.pairings.length)).toEqual([4, 2, 1]);
    expect(r.map((x) => x.target)).toEqual([3, 5, 5]);
    expect(shape(r[0])).toEqual([{ bye: p.A }, pair(p.D, p.E), pair(p.B, p.F), { bye: p.C }]);
    // A bye wins its round without a match; the two real pairings have their matches, at the round's target.
    expect(r[0].pairings.map((x) => x.matchId === null)).toEqual([true, false, false, true]);
    const mDE = r[0].pairings[1].matchId as string;
    const mBF = r[0].pairings[2].matchId as string;
    expect(await getMatch(c, mDE)).toMatchObject({ target: 3, status: 'in-progress', score: [0, 0], tournament: { id, round: 1, pairing: 2 } });
    // Nothing in the semi-finals is playable yet: each waits for its round-1 pairing.
    expect(r[1].pairings.map((x) => [x.sides, x.matchId])).toEqual([
      [null, null],
      [null, null],
    ]);

    // E beats D 3-0 (a backgammon). A winner meets the winner of the neighbouring pairing as
    // soon as both are known: A (bye) and E are known, so semi-final 1 is made now, to 5.
    await games(c, mDE, [[p.E, 'backgammon']]);
    const semi1 = await pairingAt(c, id, 2, 1);
    expect(shape({ no: 2, target: 5, scheduledAt: null, pairings: [semi1] })).toEqual([pair(p.A, p.E)]);
    expect(semi1.matchId).toEqual(expect.any(String));
    expect(await getMatch(c, semi1.matchId as string)).toMatchObject({ target: 5, score: [0, 0], tournament: { id, round: 2, pairing: 1 } });
    // Semi-final 2 still waits for B–F.
    expect((await pairingAt(c, id, 2, 2)).matchId).toBeNull();

    // B beats F 3-1: F wins a single (0-1 for B), B a backgammon (3-1).
    await games(c, mBF, [
      [p.F, 'single'],
      [p.B, 'backgammon'],
    ]);
    const semi2 = await pairingAt(c, id, 2, 2);
    expect(semi2.sides!.map((s) => s[0]).sort()).toEqual([p.B, p.C].sort());
    // E beats A 6-0 and C beats B 6-0 (two backgammons each; the real total is kept, R3.2).
    await games(c, semi1.matchId as string, [
      [p.E, 'backgammon'],
      [p.E, 'backgammon'],
    ]);
    expect((await pairingAt(c, id, 3, 1)).matchId).toBeNull();
    await games(c, semi2.matchId as string, [
      [p.C, 'backgammon'],
      [p.C, 'backgammon'],
    ]);
    const final = await pairingAt(c, id, 3, 1);
    expect(final.sides!.map((s) => s[0]).sort()).toEqual([p.C, p.E].sort());
    expect(await getMatch(c, final.matchId as string)).toMatchObject({ target: 5, tournament: { id, round: 3, pairing: 1 } });
    const before = await get(c, id);
    expect(before.status).toBe('running');
    expect(before.flights[0].prizes).toEqual([]);
    await games(c, final.matchId as string, [
      [p.E, 'backgammon'],
      [p.E, 'backgammon'],
    ]);
    const done = await get(c, id);
    expect(done.status).toBe('finished');
    expect(placesOf(done.flights[0].standings)).toEqual({ [p.E]: 1, [p.C]: 2, [p.A]: 3, [p.B]: 3, [p.D]: 5, [p.F]: 5 });
    // Pool 6 × 12.34 = 74.04 (7404); the house 10 % of it, 740.4 rounded down: 740.
    expect(done.flights[0].prizePoolMinor).toBe(7404);
    expect(done.flights[0].houseMinor).toBe(740);
    return { c, p, id, session, done };
  };

  it('1. a 6-player knockout: byes to seeds 1 and 2, the bracket, winners advanced, places, 70/30 prizes after 10 % to the minor unit (R9.3, R9.5, R9.9)', async () => {
    const { c, p, session, done } = await knockoutOfSix(await club(), { payouts: [70, 30] });
    // The rest, 7404 − 740 = 6664, paid 70/30: 70 % is 4664.8 → 4664, 30 % is 1999.2 → 1999;
    // 4664 + 1999 = 6663, the remaining 1 to 1st: E 4665, C 1999. The 3rd places have no share.
    const prizes = Object.fromEntries((done.flights[0].prizes as Array<{ playerId: string; place: number; amountMinor: number }>).map((x) => [x.playerId, [x.place, x.amountMinor]]));
    expect(prizes).toEqual({ [p.E]: [1, 4665], [p.C]: [2, 1999] });
    // In the session: everyone paid 1234; E +4665 − 1234 = +3431, C +1999 − 1234 = +765, the others −1234;
    // the house keeps 740. 3431 + 765 − 4 × 1234 + 740 = 0.
    const statement = (await c.get(`/v1/sessions/${session}/settlement`)).body;
    const net = Object.fromEntries((statement.players as Array<{ playerId: string; netMinor: number }>).map((x) => [x.playerId, x.netMinor]));
    expect(net).toEqual({ [p.E]: 3431, [p.C]: 765, [p.A]: -1234, [p.B]: -1234, [p.D]: -1234, [p.F]: -1234 });
    expect(statement.houseMinor).toBe(740);
  });

  it('1b. the same knockout paid 60/25/15: the two 3rd-equal share the 3rd prize, the odd unit to the better seed (R9.9)', async () => {
    const { p, done } = await knockoutOfSix(await club(), { payouts: [60, 25, 15] });
    // Rest 6664: 60 % 3998.4 → 3998; 25 % 1666; 15 % 999.6 → 999; 3998 + 1666 + 999 = 6663, +1 to 1st: 3999.
    // A and B are 3rd equal: 999 shared evenly is 499.5, so 500 to the better seed A (seed 1), 499 to B (seed 3).
    const prizes = Object.fromEntries((done.flights[0].prizes as Array<{ playerId: string; place: number; amountMinor: number }>).map((x) => [x.playerId, [x.place, x.amountMinor]]));
    expect(prizes).toEqual({ [p.E]: [1, 3999], [p.C]: [2, 1666], [p.A]: [3, 500], [p.B]: [3, 499] });
  });

  // ---- 2. a 7-player Swiss ------------------------------------------------------------

  it('2. a 7-player Swiss over 3 rounds: pairings, a bye each round to the right player, no rematch, the ranking with Buchholz (R9.4, R9.5)', async () => {
    const c = await club();
    const s: string[] = [];
    for (let i = 1; i <= 7; i++) s.push(await player(c, `S${i}`));
    const [s1, s2, s3, s4, s5, s6, s7] = s;
    const id = await create(c, { name: 'Swiss of seven', format: 'swiss', rounds: 3, targets: [3] });
    // Entered in reverse, seeded by the seeds given.
    for (let i = 7; i >= 1; i--) await enter(c, id, s[i - 1], { seed: i });
    const drawn = await draw(c, id, { seeding: 'given' });
    // Round 1: 7 players, odd: the lowest-ranked (by seed) without a bye, s7, has it. The other
    // 2k = 6: 1 v k+1, 2 v k+2, 3 v k+3 with k = 3: s1–s4, s2–s5, s3–s6.
    let r: Round[] = drawn.flights[0].rounds;
    expect(r).toHaveLength(1);
    expect(swiss(r[0])).toEqual(
      swissOf(
        [
          [s1, s4],
          [s2, s5],
          [s3, s6],
        ],
        s7,
      ),
    );
    const matchOf = (round: Round, a: string) => round.pairings.find((x) => x.sides?.some((side) => side[0] === a))!.matchId as string;

    // Round 1 results: s4 beats s1 3-1 (s1 single, s4 backgammon); s2 beats s5 3-0; s6 beats s3 3-2 (s3 gammon, s6 backgammon).
    await games(c, matchOf(r[0], s1), [
      [s1, 'single'],
      [s4, 'backgammon'],
    ]);
    await games(c, matchOf(r[0], s2), [[s2, 'backgammon']]);
    // Round 2 is paired only once every match of round 1 has ended.
    expect(await rounds(c, id)).toHaveLength(1);
    await games(c, matchOf(r[0], s3), [
      [s3, 'gammon'],
      [s6, 'backgammon'],
    ]);
    // After round 1 — wins: s2, s4, s6, s7 (bye) 1; s1, s3, s5 0.
    // Buchholz (wins of opponents met, a bye adds nothing): s2 = s5's 0, s4 = s1's 0, s6 = s3's 0, s7 none = 0;
    // s1 = s4's 1, s3 = s6's 1, s5 = s2's 1.
    // Points won − lost: s2 3−0 = +3, s4 3−1 = +2, s6 3−2 = +1, s7 0; s3 2−3 = −1, s1 1−3 = −2, s5 0−3 = −3.
    // Ranking: s2, s4, s6, s7 (1 win, Buchholz 0, by points), s3, s1, s5 (0 wins, Buchholz 1, by points).
    // Round 2: 7 still in, odd: the lowest-ranked without a bye is s5. The rest top down, each with the
    // highest-ranked unpaired player below him he has not met: s2 (met s5) takes s4; s6 (met s3) takes s7;
    // s3 (met s6) takes s1.
    let state = await get(c, id);
    // The standings read now already count round 2's bye (a win without a match, decided at the pairing):
    // s5 has 1 win, so s2's Buchholz is s5's 1 and s5's is s2's 1. 1 win: s2 (B 1, +3), s5 (B 1, −3), s4 (B 0, +2),
    // s6 (B 0, +1), s7 (B 0, 0); 0 wins: s3 (B 1, −1), s1 (B 1, −2).
    expect(state.flights[0].standings.map((x: Standing) => [x.playerId, x.wins, x.buchholz, x.pointsFor - x.pointsAgainst])).toEqual([
      [s2, 1, 1, 3],
      [s5, 1, 1, -3],
      [s4, 1, 0, 2],
      [s6, 1, 0, 1],
      [s7, 1, 0, 0],
      [s3, 0, 1, -1],
      [s1, 0, 1, -2],
    ]);
    r = state.flights[0].rounds;
    expect(r).toHaveLength(2);
    expect(swiss(r[1])).toEqual(
      swissOf(
        [
          [s2, s4],
          [s6, s7],
          [s3, s1],
        ],
        s5,
      ),
    );

    // Round 2 results: s4 beats s2 3-2 (s2 gammon, s4 backgammon); s7 beats s6 3-0; s1 beats s3 3-1 (s3 single, s1 backgammon).
    await games(c, matchOf(r[1], s2), [
      [s2, 'gammon'],
      [s4, 'backgammon'],
    ]);
    await games(c, matchOf(r[1], s6), [[s7, 'backgammon']]);
    await games(c, matchOf(r[1], s3), [
      [s3, 'single'],
      [s1, 'backgammon'],
    ]);
    // After round 2 — wins: s4 2 (s1, s2), s7 2 (bye, s6); s2 1, s6 1, s1 1, s5 1 (bye); s3 0.
    // Buchholz: s4 = s1 1 + s2 1 = 2; s7 = s6 1 = 1; s2 = s5 1 + s4 2 = 3; s1 = s4 2 + s3 0 = 2;
    // s6 = s3 0 + s7 2 = 2; s5 = s2 1 = 1; s3 = s6 1 + s1 1 = 2.
    // Points: s1 (1+3)−(3+1) = 0; s6 (3+0)−(2+3) = −2: s1 goes above s6 on points.
    // Ranking: s4, s7 (2 wins, Buchholz 2, 1); s2 (1 win, B 3), s1 (B 2, 0), s6 (B 2, −2), s5 (B 1); s3.
    // Round 3: the bye to the lowest-ranked who has had none: s3 (s7 and s5 have had theirs).
    // Top down: s4 (met s1, s2) takes s7; s2 (met s5, s4) takes s1; s6 (met s3, s7) takes s5.
    // (Had s6 ranked above s1, s2 would have taken s6: the points tie-break decides this round.)
    state = await get(c, id);
    // Read now, with round 3's bye counted: s3 has 1 win, so s1 = s4 2 + s3 1 = 3 and s6 = s3 1 + s7 2 = 3, s3 = 2.
    // 2 wins: s4 (B 2), s7 (B 1); 1 win: s2 (B 3, +2), s1 (B 3, 0), s6 (B 3, −2), s3 (B 2, −3), s5 (B 1, −3).
    expect(state.flights[0].standings.map((x: Standing) => [x.playerId, x.wins, x.buchholz, x.pointsFor - x.pointsAgainst])).toEqual([
      [s4, 2, 2, 3],
      [s7, 2, 1, 3],
      [s2, 1, 3, 2],
      [s1, 1, 3, 0],
      [s6, 1, 3, -2],
      [s3, 1, 2, -3],
      [s5, 1, 1, -3],
    ]);
    r = state.flights[0].rounds;
    expect(r).toHaveLength(3);
    expect(swiss(r[2])).toEqual(
      swissOf(
        [
          [s4, s7],
          [s2, s1],
          [s6, s5],
        ],
        s3,
      ),
    );

    // Round 3 results: s7 beats s4 3-0; s2 beats s1 3-1 (s1 single, s2 backgammon); s5 beats s6 3-2 (s6 gammon, s5 backgammon).
    await games(c, matchOf(r[2], s4), [[s7, 'backgammon']]);
    await games(c, matchOf(r[2], s2), [
      [s1, 'single'],
      [s2, 'backgammon'],
    ]);
    expect((await get(c, id)).status).toBe('running');
    await games(c, matchOf(r[2], s6), [
      [s6, 'gammon'],
      [s5, 'backgammon'],
    ]);
    state = await get(c, id);
    expect(state.status).toBe('finished');
    expect(state.flights[0].rounds).toHaveLength(3);
    // Final wins: s7 3 (bye, s6, s4); s4 2 (s1, s2); s2 2 (s5, s1); s5 2 (bye, s6); s1 1 (s3); s6 1 (s3); s3 1 (bye).
    // Opponents met: s1 s4, s3, s2; s2 s5, s4, s1; s3 s6, s1; s4 s1, s2, s7; s5 s2, s6; s6 s3, s7, s5; s7 s6, s4.
    // Buchholz: s7 = s6 1 + s4 2 = 3; s4 = s1 1 + s2 2 + s7 3 = 6; s2 = s5 2 + s4 2 + s1 1 = 5; s5 = s2 2 + s6 1 = 3;
    // s6 = s3 1 + s7 3 + s5 2 = 6; s1 = s4 2 + s3 1 + s2 2 = 5; s3 = s6 1 + s1 1 = 2.
    // Points for/against: s7 3+3 / 0+0; s4 3+3+0 / 1+2+3; s2 3+2+3 / 0+3+1; s5 0+3 / 3+2;
    // s6 3+0+2 / 2+3+3; s1 1+3+1 / 3+1+3; s3 2+1 / 3+3.
    // Ranking: s7 (3 wins); s4 (2, B 6), s2 (2, B 5), s5 (2, B 3); s6 (1, B 6), s1 (1, B 5), s3 (1, B 2).
    expect(state.flights[0].standings.map((x: Standing) => [x.playerId, x.place, x.wins, x.buchholz, x.pointsFor, x.pointsAgainst])).toEqual([
      [s7, 1, 3, 3, 6, 0],
      [s4, 2, 2, 6, 6, 6],
      [s2, 3, 2, 5, 8, 4],
      [s5, 4, 2, 3, 3, 5],
      [s6, 5, 1, 6, 5, 8],
      [s1, 6, 1, 5, 5, 7],
      [s3, 7, 1, 2, 3, 6],
    ]);
    // Nobody met anybody twice; one bye a round, to three different players.
    const met = (state.flights[0].rounds as Round[]).flatMap((x) => x.pairings.flatMap((q) => (q.sides ? [[q.sides[0][0], q.sides[1][0]].sort().join('|')] : [])));
    expect(met).toHaveLength(9);
    expect(new Set(met).size).toBe(9);
    expect((state.flights[0].rounds as Round[]).map((x) => x.pairings.filter((q) => q.bye !== null).map((q) => q.bye))).toEqual([[s7], [s5], [s3]]);
  });

  // ---- 3. lateness ------------------------------------------------------------------------

  it('3. lateness from the scheduled start: 4:59 nothing, 5:00 one point, 14:59 two, 15:00 three, a forfeit past half the target (R9.6, R3.6, R3.9)', async () => {
    const c = await club();
    const [s1, s2, s3, s4] = [await player(c, 'L1', 1900), await player(c, 'L2', 1800), await player(c, 'L3', 1700), await player(c, 'L4', 1600)];
    const startsAt = '2026-12-11T19:30:00.000Z';
    // Targets [5, 7]: round 1 to 5 (half is 2.5), the final to 7 (half is 3.5).
    const id = await create(c, { name: 'Late', format: 'knockout', targets: [5, 7], startsAt });
    for (const x of [s1, s2, s3, s4]) await enter(c, id, x);
    const drawn = await draw(c, id, { seeding: 'rating' });
    // A bracket of 4: 1–4, 2–3.
    const r1 = (drawn.flights[0].rounds as Round[])[0];
    expect(shape(r1)).toEqual([pair(s1, s4), pair(s2, s3)]);
    expect(r1.scheduledAt).toBe(startsAt);
    const [m14, m23] = r1.pairings.map((x) => x.matchId as string);
    expect(await getMatch(c, m14)).toMatchObject({ scheduledAt: startsAt, target: 5 });
    const at = (base: string, min: number, sec: number) => new Date(Date.parse(base) + (min * 60 + sec) * 1000).toISOString();
    const arrive = async (matchId: string, playerId: string, arrivedAt: string) => {
      const res = await c.post(`/v1/matches/${matchId}/arrivals`, { side: await sideOf(c, matchId, playerId), arrivedAt });
      expect(res.status).toBe(201);
      return res.body;
    };

    // s1 arrives 4:59 late: under 5 minutes, nothing.
    const a1 = await arrive(m14, s1, at(startsAt, 4, 59));
    expect(a1.penalty ?? null).toBeNull();
    expect(await getMatch(c, m14)).toMatchObject({ score: [0, 0], penalties: [], status: 'in-progress' });

    // In the other match s2 arrives 5:00 late: one full 5 minutes, 1 point to s3; s3 arrives 14:59 late:
    // two full 5 minutes (14:59 < 15:00), 2 points to s2. Neither exceeds 2.5.
    const i2 = await sideOf(c, m23, s2);
    const i3 = 1 - i2;
    await arrive(m23, s2, at(startsAt, 5, 0));
    let m = await getMatch(c, m23);
    expect(m.score[i3]).toBe(1);
    expect(m.score[i2]).toBe(0);
    expect(m.penalties).toHaveLength(1);
    expect(m.penalties[0]).toMatchObject({ side: i3, points: 1, voided: false });
    expect(m.penalties[0].reason).toMatch(/lateness/);
    expect(m.penalties[0].reason).toMatch(/\b5\b/);
    await arrive(m23, s3, at(startsAt, 14, 59));
    m = await getMatch(c, m23);
    expect(m.score[i2]).toBe(2);
    expect(m.score[i3]).toBe(1);
    expect(m.penalties[1]).toMatchObject({ side: i2, points: 2 });
    expect(m.penalties[1].reason).toMatch(/lateness/);
    expect(m.penalties[1].reason).toMatch(/\b14\b/);
    expect(m.status).toBe('in-progress');

    // s4 arrives 15:00 late: three full 5 minutes, 3 points, more than half of 5: the match is forfeited
    // for lateness; s1 wins, the score stays as played (0-0), and s1 goes through.
    await arrive(m14, s4, at(startsAt, 15, 0));
    const i4 = await sideOf(c, m14, s4);
    expect(await getMatch(c, m14)).toMatchObject({ status: 'finished', winnerSide: 1 - i4, score: [0, 0], endedBy: { kind: 'forfeit', side: i4, reason: 'lateness' } });
    const p1 = await pairingAt(c, id, 1, 1);
    expect(p1.endedBy).toMatchObject({ kind: 'forfeit', reason: 'lateness' });
    expect(p1.sides![p1.winnerSide as number][0]).toBe(s1);

    // s2 wins the other match on the board: 2-1 after the penalties, a backgammon makes 5-1.
    await games(c, m23, [[s2, 'backgammon']]);
    m = await getMatch(c, m23);
    expect(m.score[i2]).toBe(5);
    expect(m.score[i3]).toBe(1);

    // The final, to 7 (the last target repeats), scheduled at its round's start.
    const final = await pairingAt(c, id, 2, 1);
    expect(final.sides!.map((x) => x[0]).sort()).toEqual([s1, s2].sort());
    const fm = await getMatch(c, final.matchId as string);
    expect(fm.target).toBe(7);
    expect(fm.scheduledAt).toEqual(expect.any(String));
    const f1 = await sideOf(c, fm.id, s1);
    // s2 arrives 15:00 late: 3 points to s1; 3 is not more than 3.5, so play goes on at 3-0.
    await arrive(fm.id, s2, at(fm.scheduledAt, 15, 0));
    m = await getMatch(c, fm.id);
    expect(m.status).toBe('in-progress');
    expect(m.score[f1]).toBe(3);
    expect(m.score[1 - f1]).toBe(0);
    expect(m.penalties[0]).toMatchObject({ side: f1, points: 3 });
    expect(m.penalties[0].reason).toMatch(/15/);
    // s1 arrives 20:00 late: 4 points, more than 3.5: s1 forfeits for lateness and s2 wins the event.
    await arrive(fm.id, s1, at(fm.scheduledAt, 20, 0));
    m = await getMatch(c, fm.id);
    expect(m).toMatchObject({ status: 'finished', winnerSide: 1 - f1, endedBy: { kind: 'forfeit', side: f1, reason: 'lateness' } });
    const done = await get(c, id);
    expect(done.status).toBe('finished');
    expect(placesOf(done.flights[0].standings)).toEqual({ [s2]: 1, [s1]: 2, [s3]: 3, [s4]: 3 });

    // An arrival naming its time twice (`at` is the older name of `arrivedAt`) is malformed: 400, nothing written.
    const plain = (await c.post('/v1/matches', { sides: [[s1], [s2]], target: 5, scheduledAt: startsAt })).body.id as string;
    const before = await snapshot(c, id, [plain]);
    const twice = await c.post(`/v1/matches/${plain}/arrivals`, { side: 0, arrivedAt: at(startsAt, 6, 0), at: at(startsAt, 6, 0) });
    expect(twice.status).toBe(400);
    expect(await snapshot(c, id, [plain])).toEqual(before);
  });

  // ---- 4. a withdrawal --------------------------------------------------------------------

  it('4. withdrawals mid-event: the current match forfeited (its game abandoned), no later pairing, the next opponent through by forfeit (R9.8, R3.9)', async () => {
    const c = await club();
    const p: string[] = [];
    for (let i = 1; i <= 6; i++) p.push(await player(c, `W${i}`));
    const [s1, s2, s3, s4, s5, s6] = p;
    const id = await create(c, { name: 'Withdrawals', format: 'knockout', targets: [3] });
    for (let i = 0; i < 6; i++) await enter(c, id, p[i], { seed: i + 1 });
    const drawn = await draw(c, id, { seeding: 'given' });
    // A bracket of 8 for 6: 1–8 (bye s1), 4–5, 3–6, 2–7 (bye s2).
    const r1 = (drawn.flights[0].rounds as Round[])[0];
    expect(shape(r1)).toEqual([{ bye: s1 }, pair(s4, s5), pair(s3, s6), { bye: s2 }]);
    const m45 = r1.pairings[1].matchId as string;
    const m36 = r1.pairings[2].matchId as string;

    // s2 (through on his bye) is disqualified while his semi-final opponent is not known yet: nothing to forfeit now.
    const w2 = await c.post(`/v1/tournaments/${id}/entries/${s2}/withdraw`, { reason: 'disqualification' });
    expect(w2.status).toBe(200);
    let state = await get(c, id);
    expect(state.flights[0].entries.find((e: { playerId: string }) => e.playerId === s2).status).toBe('disqualified');
    expect(state.flights[0].rounds[1].pairings[1].matchId).toBeNull();

    // s5 withdraws in the middle of a game of his match with s4: the game is abandoned, the match forfeited
    // for withdrawal, s4 wins it with the score as played (s5 had won a single: 0-1 stays 0-1) and meets s1.
    await games(c, m45, [[s5, 'single']]);
    expect((await c.post(`/v1/matches/${m45}/games`)).status).toBe(201);
    const i5 = await sideOf(c, m45, s5);
    const w5 = await c.post(`/v1/tournaments/${id}/entries/${s5}/withdraw`, { reason: 'withdrawal', note: 'Called away' });
    expect(w5.status).toBe(200);
    const m = await getMatch(c, m45);
    expect(m).toMatchObject({ status: 'finished', winnerSide: 1 - i5, endedBy: { kind: 'forfeit', side: i5, reason: 'withdrawal' } });
    expect(m.score[i5]).toBe(1);
    expect(m.score[1 - i5]).toBe(0);
    expect((await c.get(`/v1/matches/${m45}/games/2`)).body.status).toBe('abandoned');
    const semi1 = await pairingAt(c, id, 2, 1);
    expect(semi1.sides!.map((x) => x[0]).sort()).toEqual([s1, s4].sort());
    expect(semi1.matchId).toEqual(expect.any(String));

    // s6 beats s3: s6 would meet s2, who has left, so s6 goes through by forfeit without a match.
    // (R9.8 names no reason for that forfeit; the service records it as `withdrawal`, whatever s2 left for.)
    await games(c, m36, [[s6, 'backgammon']]);
    const semi2 = await pairingAt(c, id, 2, 2);
    expect(semi2.matchId).toBeNull();
    expect(semi2.sides!.map((x) => x[0]).sort()).toEqual([s2, s6].sort());
    expect(semi2.sides![semi2.winnerSide as number][0]).toBe(s6);
    expect(semi2.endedBy).toMatchObject({ kind: 'forfeit', side: 1 - (semi2.winnerSide as number) });
    // Nobody who left is paired again: no match of either of them after he left.
    const later = [...(await matchesOfRound(c, id, 2)), ...(await matchesOfRound(c, id, 3))];
    expect(later.flatMap((x) => x.sides.flat()).filter((x) => x === s2 || x === s5)).toEqual([]);

    // Leaving twice is refused and writes nothing.
    const before = await snapshot(c, id, [m45]);
    const again = await c.post(`/v1/tournaments/${id}/entries/${s5}/withdraw`, { reason: 'withdrawal' });
    expect(again.status).toBe(422);
    expect(again.body.rule).toBe('R9.8');
    expect(await snapshot(c, id, [m45])).toEqual(before);

    // s1 beats s4; the final s1–s6, s6 wins. Places: s6 1st, s1 2nd, the semi-final losers s4 and s2 3rd equal.
    await games(c, semi1.matchId as string, [[s1, 'backgammon']]);
    const final = await pairingAt(c, id, 3, 1);
    expect(final.sides!.map((x) => x[0]).sort()).toEqual([s1, s6].sort());
    await games(c, final.matchId as string, [[s6, 'backgammon']]);
    state = await get(c, id);
    expect(state.status).toBe('finished');
    const places = placesOf(state.flights[0].standings);
    expect([places[s6], places[s1], places[s4], places[s2]]).toEqual([1, 2, 3, 3]);
  });

  it('4b. a Swiss player who withdraws forfeits his match and is paired no more; the bye goes among those still in (R9.8, R9.4)', async () => {
    const c = await club();
    const p: string[] = [];
    for (let i = 1; i <= 6; i++) p.push(await player(c, `X${i}`));
    const [s1, s2, s3, s4, s5, s6] = p;
    const id = await create(c, { name: 'Swiss withdrawal', format: 'swiss', rounds: 2, targets: [3] });
    for (let i = 0; i < 6; i++) await enter(c, id, p[i], { seed: i + 1 });
    const drawn = await draw(c, id, { seeding: 'given' });
    // Six, even: no bye; 1–4, 2–5, 3–6.
    const r1 = (drawn.flights[0].rounds as Round[])[0];
    expect(swiss(r1)).toEqual(
      swissOf(
        [
          [s1, s4],
          [s2, s5],
          [s3, s6],
        ],
        null,
      ),
    );
    await games(c, r1.pairings[0].matchId as string, [[s1, 'backgammon']]);
    await games(c, r1.pairings[1].matchId as string, [[s2, 'backgammon']]);
    // s6 leaves during his match (no game yet): forfeited for withdrawal, s3 wins it 0-0.
    expect((await c.post(`/v1/tournaments/${id}/entries/${s6}/withdraw`, { reason: 'withdrawal' })).status).toBe(200);
    const m36 = await getMatch(c, r1.pairings[2].matchId as string);
    expect(m36).toMatchObject({ status: 'finished', score: [0, 0], endedBy: { kind: 'forfeit', reason: 'withdrawal' } });
    // After round 1 — wins: s1, s2, s3 1; s4, s5, s6 0. Buchholz: s1, s2, s3 0 (their opponents have none);
    // s4, s5, s6 1. Points: s1 +3, s2 +3, s3 0; s4 −3, s5 −3, s6 0.
    // Ranking: s1, s2 (+3, by seed), s3; s6 (0), s4, s5 (−3, by seed). s6 has left: five still in, odd:
    // the bye to the lowest-ranked of them, s5. Then s1 takes s2; s3 takes s4.
    const state = await get(c, id);
    // Read now, with round 2's bye counted (s5 1 win): s2's Buchholz is 1, s5's is s2's 1.
    // 1 win: s2 (B 1, +3), s5 (B 1, −3), s1 (B 0, +3), s3 (B 0, 0); 0 wins: s4 (B 1, −3).
    // (Whether a player who left still shows in the ranking R9 does not say: only those still in are checked.)
    expect(state.flights[0].standings.map((x: Standing) => x.playerId).filter((x: string) => x !== s6)).toEqual([s2, s5, s1, s3, s4]);
    expect(swiss(state.flights[0].rounds[1])).toEqual(
      swissOf(
        [
          [s1, s2],
          [s3, s4],
        ],
        s5,
      ),
    );
    expect(state.flights[0].entries.find((e: { playerId: string }) => e.playerId === s6).status).toBe('withdrawn');
  });

  it('4c. a player who withdraws before the draw is not drawn and pays no fee; entries stay open for the others (R9.2, R9.8, R9.9)', async () => {
    const c = await club();
    const p: string[] = [];
    for (let i = 1; i <= 6; i++) p.push(await player(c, `Y${i}`, 2000 - 100 * i));
    const [y1, y2, y3, y4, y5, y6] = p;
    const session = await c.session();
    const id = await create(c, { name: 'Early leaver', format: 'knockout', targets: [3], sessionId: session, entryFeeMinor: 1000, housePercent: 10, payouts: [70, 30] });
    for (const x of [y1, y2, y3, y4, y5]) await enter(c, id, x);
    // y3 withdraws before the draw (R9.2: at any time); the tournament is still open for entries.
    const w = await c.post(`/v1/tournaments/${id}/entries/${y3}/withdraw`, { reason: 'withdrawal' });
    expect(w.status).toBe(200);
    expect(w.body.status).toBe('open');
    await enter(c, id, y6);
    const drawn = await draw(c, id, { seeding: 'rating' });
    // Five players are drawn: y1 1, y2 2, y4 3, y5 4, y6 5 (by rating). A bracket of 8, 8 − 5 = 3 byes to seeds 1, 2, 3.
    // From the top, 1–8 (bye y1), 4–5 (y5–y6), 3–6 (bye y4), 2–7 (bye y2).
    const f = drawn.flights[0];
    expect(shape(f.rounds[0])).toEqual([{ bye: y1 }, pair(y5, y6), { bye: y4 }, { bye: y2 }]);
    const seeds = Object.fromEntries((f.entries as Array<{ playerId: string; seed: number | null; status: string }>).map((e) => [e.playerId, [e.seed, e.status]]));
    expect(seeds).toEqual({ [y1]: [1, 'in'], [y2]: [2, 'in'], [y3]: [null, 'withdrawn'], [y4]: [3, 'in'], [y5]: [4, 'in'], [y6]: [5, 'in'] });
    // The pool is the five drawn entries' fees: 5 × 1000 = 5000; the house 10 %, 500. y3 paid nothing.
    expect(f.prizePoolMinor).toBe(5000);
    expect(f.houseMinor).toBe(500);
    const statement = (await c.get(`/v1/sessions/${session}/settlement`)).body;
    const net = Object.fromEntries((statement.players as Array<{ playerId: string; netMinor: number }>).map((x) => [x.playerId, x.netMinor]));
    expect(net[y3] ?? 0).toBe(0);
    expect([net[y1], net[y2], net[y4], net[y5], net[y6]]).toEqual([-1000, -1000, -1000, -1000, -1000]);
  });

  // ---- 5. corrections ---------------------------------------------------------------------

  it('5. a correction is allowed before a later match of its players has started a game, refused after, and a refusal writes nothing (R9.10)', async () => {
    const c = await club();
    const [s1, s2, s3, s4] = [await player(c, 'K1', 1900), await player(c, 'K2', 1800), await player(c, 'K3', 1700), await player(c, 'K4', 1600)];
    const session = await c.session();
    const id = await create(c, { name: 'Corrections', format: 'knockout', targets: [3], sessionId: session, entryFeeMinor: 1000, housePercent: 10, payouts: [70, 30] });
    for (const x of [s1, s2, s3, s4]) await enter(c, id, x);
    const drawn = await draw(c, id, { seeding: 'rating' });
    const [m14, m23] = (drawn.flights[0].rounds as Round[])[0].pairings.map((x) => x.matchId as string);

    // s4 recorded as the winner by mistake; voided at once: the pairing is undecided again.
    await games(c, m14, [[s4, 'backgammon']]);
    const void1 = await c.post(`/v1/matches/${m14}/void`, { reason: 'Wrong winner' });
    expect(void1.status).toBe(200);
    expect(await pairingAt(c, id, 1, 1)).toMatchObject({ winnerSide: null, endedBy: null });
    expect((await pairingAt(c, id, 2, 1)).sides).toBeNull();
    await games(c, m14, [[s1, 'backgammon']]);
    await games(c, m23, [[s2, 'backgammon']]);
    const final1 = (await pairingAt(c, id, 2, 1)).matchId as string;
    expect(final1).toEqual(expect.any(String));

    // The final exists, no game of it has started: m23 can still be corrected; the final it fed is withdrawn.
    expect((await c.post(`/v1/matches/${m23}/void`, { reason: 'Scoresheet misread' })).status).toBe(200);
    expect((await pairingAt(c, id, 2, 1)).matchId).toBeNull();
    expect(await matchesOfRound(c, id, 2)).toEqual([]);
    await games(c, m23, [[s3, 'backgammon']]);
    const final = await pairingAt(c, id, 2, 1);
    expect(final.sides!.map((x) => x[0]).sort()).toEqual([s1, s3].sort());
    expect(await matchesOfRound(c, id, 2)).toHaveLength(1);

    // A game of the final starts: neither semi-final can be corrected any more.
    expect((await c.post(`/v1/matches/${final.matchId}/games`)).status).toBe(201);
    const before = await snapshot(c, id, [m14, m23, final.matchId as string]);
    for (const x of [m14, m23]) {
      const refused = await c.post(`/v1/matches/${x}/void`, { reason: 'Too late' });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'CORRECTION_CLOSED', rule: 'R9.10' });
    }
    // A result for a finished match is refused too.
    const late = await c.post(`/v1/matches/${m14}/games`, { actions: [finish(s4, 'backgammon')] });
    expect(late.status).toBe(422);
    const forfeit = await c.post(`/v1/matches/${m23}/forfeit`, { side: 0, reason: 'concession' });
    expect(forfeit.status).toBe(422);
    expect(await snapshot(c, id, [m14, m23, final.matchId as string])).toEqual(before);

    // The final's game is played out: s3 wins it with a backgammon. Pool 4 × 1000 = 4000; house 10 %, 400;
    // 3600 paid 70/30: 2520 and 1080.
    expect((await c.post(`/v1/matches/${final.matchId}/games/1/actions`, finish(s3, 'backgammon'))).status).toBe(200);
    let state = await get(c, id);
    expect(state.status).toBe('finished');
    const prizesOf = (x: { flights: Array<{ prizes: Array<{ playerId: string; amountMinor: number }> }> }) => Object.fromEntries(x.flights[0].prizes.map((q) => [q.playerId, q.amountMinor]));
    expect(prizesOf(state)).toEqual({ [s3]: 2520, [s1]: 1080 });
    // The final itself is the last match: no later match exists, so it can be corrected; the prizes come back.
    expect((await c.post(`/v1/matches/${final.matchId}/void`, { reason: 'Wrong winner' })).status).toBe(200);
    state = await get(c, id);
    expect(state.status).toBe('running');
    expect(state.flights[0].prizes).toEqual([]);
    const net = async () =>
      Object.fromEntries(((await c.get(`/v1/sessions/${session}/settlement`)).body.players as Array<{ playerId: string; netMinor: number }>).map((q) => [q.playerId, q.netMinor]));
    expect(await net()).toEqual({ [s1]: -1000, [s2]: -1000, [s3]: -1000, [s4]: -1000 });
    // s1 wins it instead: s1 2520 − 1000 = +1520, s3 1080 − 1000 = +80.
    await games(c, final.matchId as string, [[s1, 'backgammon']]);
    state = await get(c, id);
    expect(prizesOf(state)).toEqual({ [s1]: 2520, [s3]: 1080 });
    expect(await net()).toEqual({ [s1]: 1520, [s2]: -1000, [s3]: 80, [s4]: -1000 });
  });

  it('5b. a lateness forfeit is a result that can be corrected before the next match starts (R9.10, R9.6)', async () => {
    const c = await club();
    const [s1, s2, s3, s4] = [await player(c, 'J1', 1900), await player(c, 'J2', 1800), await player(c, 'J3', 1700), await player(c, 'J4', 1600)];
    const startsAt = '2026-12-11T19:30:00.000Z';
    const id = await create(c, { name: 'Late correction', format: 'knockout', targets: [3], startsAt });
    for (const x of [s1, s2, s3, s4]) await enter(c, id, x);
    const [m14, m23] = ((await draw(c, id, { seeding: 'rating' })).flights[0].rounds as Round[])[0].pairings.map((x) => x.matchId as string);
    await games(c, m23, [[s2, 'backgammon']]);
    // s4 recorded 10:00 late: 2 points, more than half of 3 (1.5): s1 wins by forfeit, and the final s1–s2 is made.
    const i4 = await sideOf(c, m14, s4);
    const arrived = await c.post(`/v1/matches/${m14}/arrivals`, { side: i4, arrivedAt: '2026-12-11T19:40:00.000Z' });
    expect(arrived.status).toBe(201);
    expect(await getMatch(c, m14)).toMatchObject({ status: 'finished', endedBy: { kind: 'forfeit', side: i4, reason: 'lateness' } });
    expect((await pairingAt(c, id, 2, 1)).matchId).toEqual(expect.any(String));
    // The time was wrong: the forfeit is voided before the final has a game; the match reopens, the final is withdrawn.
    expect((await c.post(`/v1/matches/${m14}/void`, { reason: 'Wrong clock' })).status).toBe(200);
    expect(await getMatch(c, m14)).toMatchObject({ status: 'in-progress', endedBy: null });
    expect((await pairingAt(c, id, 2, 1)).matchId).toBeNull();
    // 4:00 late is under 5 minutes: nothing; s4 then wins on the board and meets s2.
    expect((await c.post(`/v1/matches/${m14}/arrivals`, { side: i4, arrivedAt: '2026-12-11T19:34:00.000Z' })).status).toBe(201);
    expect(await getMatch(c, m14)).toMatchObject({ status: 'in-progress', score: [0, 0] });
    await games(c, m14, [[s4, 'backgammon']]);
    const final = await pairingAt(c, id, 2, 1);
    expect(final.sides!.map((x) => x[0]).sort()).toEqual([s2, s4].sort());
  });

  it('5c. a Swiss result corrected before the next round has begun: that round is paired again from the corrected ranking (R9.10, R9.4)', async () => {
    const c = await club();
    const p: string[] = [];
    for (let i = 1; i <= 6; i++) p.push(await player(c, `Q${i}`));
    const [s1, s2, s3, s4, s5, s6] = p;
    const id = await create(c, { name: 'Swiss correction', format: 'swiss', rounds: 3, targets: [3] });
    for (let i = 0; i < 6; i++) await enter(c, id, p[i], { seed: i + 1 });
    const r1 = ((await draw(c, id, { seeding: 'given' })).flights[0].rounds as Round[])[0];
    // Round 1: 1–4, 2–5, 3–6; the top three win 3-0.
    expect(swiss(r1)).toEqual(
      swissOf(
        [
          [s1, s4],
          [s2, s5],
          [s3, s6],
        ],
        null,
      ),
    );
    const m14 = r1.pairings[0].matchId as string;
    await games(c, m14, [[s1, 'backgammon']]);
    await games(c, r1.pairings[1].matchId as string, [[s2, 'backgammon']]);
    await games(c, r1.pairings[2].matchId as string, [[s3, 'backgammon']]);
    // Ranking: s1, s2, s3 (1 win, Buchholz 0, +3, by seed), s4, s5, s6 (0 wins, Buchholz 1, −3, by seed).
    // Round 2: s1 takes s2; s3 (met s6) takes s4; s5–s6.
    let rs = await rounds(c, id);
    expect(swiss(rs[1])).toEqual(
      swissOf(
        [
          [s1, s2],
          [s3, s4],
          [s5, s6],
        ],
        null,
      ),
    );
    // s1–s4 was really won by s4. Voided before any game of round 2: round 2 is withdrawn whole.
    expect((await c.post(`/v1/matches/${m14}/void`, { reason: 'Wrong winner' })).status).toBe(200);
    rs = await rounds(c, id);
    expect(rs.slice(1).flatMap((r) => r.pairings)).toEqual([]);
    expect(await matchesOfRound(c, id, 2)).toEqual([]);
    await games(c, m14, [[s4, 'backgammon']]);
    // Corrected ranking: s2, s3, s4 (1 win; Buchholz: s2 = s5 0, s3 = s6 0, s4 = s1 0; +3 each; by seed),
    // then s1, s5, s6 (0 wins, Buchholz 1, −3, by seed). Round 2 by R9.4: s2 takes s3; s4 (met s1) takes s5; s1–s6.
    rs = await rounds(c, id);
    expect(swiss(rs[1])).toEqual(
      swissOf(
        [
          [s2, s3],
          [s4, s5],
          [s1, s6],
        ],
        null,
      ),
    );
    expect(await matchesOfRound(c, id, 2)).toHaveLength(3);
    // A game of s2–s3 begins; s4–s1 is corrected again (their own round-2 matches have no game): only their
    // two pairings are withdrawn, s2–s3 stays, and the four are paired again among themselves.
    const m23 = rs[1].pairings[0].matchId as string;
    expect((await c.post(`/v1/matches/${m23}/games`)).status).toBe(201);
    expect((await c.post(`/v1/matches/${m14}/void`, { reason: 'Wrong again' })).status).toBe(200);
    rs = await rounds(c, id);
    expect(swiss(rs[1])).toEqual(swissOf([[s2, s3]], null));
    await games(c, m14, [[s1, 'backgammon']]);
    // Ranking again s1, s2, s3, s4, s5, s6 as after round 1; the four to pair: s1, s4, s5, s6.
    // s1 (met s4) takes s5; s4 takes s6.
    rs = await rounds(c, id);
    expect(swiss(rs[1])).toEqual(
      swissOf(
        [
          [s2, s3],
          [s1, s5],
          [s4, s6],
        ],
        null,
      ),
    );
    expect((await getMatch(c, m23)).currentGameNo).toBe(1);
  });

  // ---- 6. racing results ------------------------------------------------------------------

  it('6. two semi-final results sent at the same moment make exactly one final (R9.3, R9.5)', async () => {
    const c = await club();
    for (let attempt = 0; attempt < 3; attempt++) {
      const [s1, s2, s3, s4] = [
        await player(c, `R1.${attempt}`, 1900),
        await player(c, `R2.${attempt}`, 1800),
        await player(c, `R3.${attempt}`, 1700),
        await player(c, `R4.${attempt}`, 1600),
      ];
      const id = await create(c, { name: `Race ${attempt}`, format: 'knockout', targets: [3] });
      for (const x of [s1, s2, s3, s4]) await enter(c, id, x);
      const [m14, m23] = ((await draw(c, id, { seeding: 'rating' })).flights[0].rounds as Round[])[0].pairings.map((x) => x.matchId as string);
      // s4 and s3 win, both at once.
      const both = await Promise.all([
        c.post(`/v1/matches/${m14}/games`, { actions: [finish(s4, 'backgammon')] }),
        c.post(`/v1/matches/${m23}/games`, { actions: [finish(s3, 'backgammon')] }),
      ]);
      expect(both.map((x) => x.status)).toEqual([201, 201]);
      const finals = await matchesOfRound(c, id, 2);
      expect(finals).toHaveLength(1);
      expect(finals[0].sides.flat().sort()).toEqual([s3, s4].sort());
      const pairing = await pairingAt(c, id, 2, 1);
      expect(pairing.matchId).toBe(finals[0].id);
    }
  });
});
