import { startApp, TestApp } from './support/app';
import { clubWith, finish } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * Tournaments (R9) through the API, worked from the rules: the bracket positions of R9.3,
 * the Swiss pairing and ranking of R9.4, places (R9.5), walkovers (R9.8), prizes to the
 * minor unit (R9.9) and corrections (R9.10).
 */
describe('tournaments', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let n = 0;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, []);
  });
  afterAll(async () => {
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  /** Players rated from `top` down in steps of 50, so a draw by rating seeds them in the order made. */
  const players = async (count: number, top = 1800) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      n += 1;
      const res = await c.post('/v1/players', { name: `Seed ${i + 1} (${n})`, rating: top - 50 * i, experience: 500 });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    return ids;
  };
  const create = async (body: object) => {
    const res = await c.post('/v1/tournaments', body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const enter = async (id: string, ids: string[]) => {
    for (const playerId of ids) expect((await c.post(`/v1/tournaments/${id}/entries`, { playerId })).status).toBe(201);
  };
  const get = async (id: string) => (await c.get(`/v1/tournaments/${id}`)).body;
  /** The match of (round, pairing) of the first flight. */
  const matchOf = async (id: string, round: number, pairing: number) => (await get(id)).flights[0].rounds[round - 1].pairings[pairing - 1].matchId as string;
  /** Wins a match to 3 in one game (a backgammon is 3 points, R1.1). */
  const win = async (matchId: string, winner: string) => {
    const res = await c.post(`/v1/matches/${matchId}/games`, { actions: [finish(winner, 'backgammon')] });
    expect(res.status).toBe(201);
  };

  it('plays a 6-player knockout: byes to seeds 1 and 2, winners advanced, places and prizes to the cent (R9.3, R9.5, R9.9)', async () => {
    const [s1, s2, s3, s4, s5, s6] = await players(6);
    const session = await c.session();
    const id = await create({ name: 'Friday knockout', format: 'knockout', targets: [3], sessionId: session, entryFeeMinor: 2000, housePercent: 10, payouts: [70, 30] });
    // Entered in an order that is not the seeding: the draw goes by rating.
    await enter(id, [s6, s3, s1, s5, s2, s4]);
    const drawn = await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' });
    expect(drawn.status).toBe(200);
    const f = drawn.body.flights[0];
    expect(drawn.body.status).toBe('running');
    expect(f.entries.map((e: { playerId: string; seed: number }) => [e.playerId, e.seed])).toEqual([
      [s1, 1],
      [s2, 2],
      [s3, 3],
      [s4, 4],
      [s5, 5],
      [s6, 6],
    ]);
    // A bracket of 8 from the top: 1–8, 4–5, 3–6, 2–7; seeds 7 and 8 are byes for seeds 1 and 2.
    const r1 = f.rounds[0].pairings.map((p: { sides: string[][] | null; bye: string | null }) => [p.sides, p.bye]);
    expect(r1).toEqual([
      [null, s1],
      [[[s4], [s5]], null],
      [[[s3], [s6]], null],
      [null, s2],
    ]);
    expect(f.rounds.map((r: { pairings: unknown[] }) => r.pairings.length)).toEqual([4, 2, 1]);
    // The byes' winners wait in the semi-finals: seed 1 on top, seed 2 at the bottom.
    expect(f.rounds[1].pairings.map((p: { slots: unknown[]; matchId: unknown }) => [p.slots, p.matchId])).toEqual([
      [[s1, null], null],
      [[null, s2], null],
    ]);
    expect(f.prizePoolMinor).toBe(12000);
    expect(f.houseMinor).toBe(1200);
    const m45 = f.rounds[0].pairings[1].matchId as string;
    const m36 = f.rounds[0].pairings[2].matchId as string;
    const match = (await c.get(`/v1/matches/${m45}`)).body;
    expect(match).toMatchObject({ sides: [[s4], [s5]], target: 3, sessionId: session, tournament: { id, flight: 'main', bracket: 'main', round: 1, pairing: 2 } });

    await win(m45, s4);
    // Seed 4 goes through to meet seed 1: the semi-final's match is created at once.
    const semi1 = (await get(id)).flights[0].rounds[1].pairings[0];
    expect(semi1.sides).toEqual([[s1], [s4]]);
    expect(semi1.matchId).toEqual(expect.any(String));
    await win(m36, s6);
    await win(await matchOf(id, 2, 1), s1);
    await win(await matchOf(id, 2, 2), s2);
    const final = (await get(id)).flights[0].rounds[2].pairings[0];
    expect(final.sides).toEqual([[s1], [s2]]);
    await win(final.matchId, s2);

    const done = await get(id);
    expect(done.status).toBe('finished');
    const flight = done.flights[0];
    expect(flight.standings.map((s: { playerId: string; place: number }) => [s.playerId, s.place])).toEqual([
      [s2, 1],
      [s1, 2],
      [s4, 3],
      [s6, 3],
      [s3, 5],
      [s5, 5],
    ]);
    // Pool 6 × 20.00 = 120.00; the house keeps 12.00; 108.00 is shared 70/30: 75.60 and 32.40.
    expect(flight.prizes).toEqual([
      { playerId: s2, place: 1, bracket: 'main', amountMinor: 7560 },
      { playerId: s1, place: 2, bracket: 'main', amountMinor: 3240 },
    ]);
    const statement = (await c.get(`/v1/sessions/${session}/settlement`)).body;
    const net = Object.fromEntries(statement.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]));
    expect(net).toMatchObject({ [s2]: 5560, [s1]: 1240, [s3]: -2000, [s4]: -2000, [s5]: -2000, [s6]: -2000 });
    const ledger = await t.sql<{ kind: string; n: string; total: string }>(
      `SELECT kind, count(*)::text AS n, sum(amount_minor)::text AS total FROM ledger_entries WHERE tournament_id = $1 GROUP BY kind ORDER BY kind`,
      [id],
    );
    expect(ledger).toEqual([
      { kind: 'entry-fee', n: '6', total: '12000' },
      { kind: 'prize', n: '2', total: '10800' },
    ]);
  });
});
