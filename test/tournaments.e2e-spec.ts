import { startApp, TestApp } from './support/app';
import { clubWith, finish } from './support/club';
import { pdfText } from './support/pdf-text';
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
    // R9.7: 2 minutes a point of the target each, a 12 s delay; a clock brought in now, (3 + 3) × 2 minutes.
    expect(match.clock).toEqual({ perPlayerMinutes: 6, delaySeconds: 12, fromNowMinutes: 12 });

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
    // The statement shows the flight: entries, pool, the house's commission and each prize, in JSON, CSV and PDF.
    const name = async (p: string) => (await c.get(`/v1/players/${p}`)).body.name as string;
    expect(statement.tournaments).toEqual([
      {
        tournamentId: id,
        name: 'Friday knockout',
        flight: 'main',
        status: 'finished',
        entries: 6,
        entryFeeMinor: 2000,
        poolMinor: 12000,
        houseMinor: 1200,
        prizes: [
          { playerId: s2, name: await name(s2), place: 1, bracket: 'main', amountMinor: 7560 },
          { playerId: s1, name: await name(s1), place: 2, bracket: 'main', amountMinor: 3240 },
        ],
      },
    ]);
    // The house holds the pool and pays the prizes: what it keeps is its commission.
    expect(statement.houseMinor).toBe(1200);
    const csv = (await c.get(`/v1/sessions/${session}/settlement`).set('Accept', 'text/csv')).text.split('\r\n');
    expect(csv.filter((l) => l.startsWith('tournament,'))).toEqual([
      `tournament,${id},Friday knockout,6,1200,,,,,,,,12000,USD,flight=main; status=finished; entryFeeMinor=2000,,12.00,,,,120.00`,
    ]);
    expect(csv.filter((l) => l.startsWith('prize,')).map((l) => l.split(',').slice(8, 14))).toEqual([
      ['house', 'House', s2, await name(s2), '7560', 'USD'],
      ['house', 'House', s1, await name(s1), '3240', 'USD'],
    ]);
    const pdf = await c
      .get(`/v1/sessions/${session}/settlement`)
      .set('Accept', 'application/pdf')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (x: Buffer) => chunks.push(x));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    const text = pdfText(pdf.body as Buffer).text.join('\n');
    expect(text).toContain('Tournaments (1)');
    expect(text).toContain('Prizes (2)');
    expect(text).toContain('75.60');
    // The session's ledger lists the fees and the prizes under the tournament.
    const entries = (await c.get(`/v1/sessions/${session}/ledger?limit=200`)).body.items as Array<{ kind: string; tournamentId: string | null; gameRef: unknown }>;
    const own = entries.filter((e) => e.tournamentId === id);
    expect(own.map((e) => e.kind).sort()).toEqual([...Array(6).fill('entry-fee'), 'prize', 'prize']);
    expect(own.every((e) => e.gameRef === null)).toBe(true);
    const ledger = await t.sql<{ kind: string; n: string; total: string }>(
      `SELECT kind, count(*)::text AS n, sum(amount_minor)::text AS total FROM ledger_entries WHERE tournament_id = $1 GROUP BY kind ORDER BY kind`,
      [id],
    );
    expect(ledger).toEqual([
      { kind: 'entry-fee', n: '6', total: '12000' },
      { kind: 'prize', n: '2', total: '10800' },
    ]);
  });

  /** The ranking as R9.4 gives it, line by line: player, place, wins, Buchholz. */
  const ranking = (standings: Array<{ playerId: string; place: number; wins: number; buchholz: number }>) => standings.map((x) => [x.playerId, x.place, x.wins, x.buchholz]);
  const pairs = (round: { pairings: Array<{ sides: string[][] | null; bye: string | null }> }) => round.pairings.map((p) => (p.bye ? ['bye', p.bye] : [p.sides![0][0], p.sides![1][0]]));

  it('plays a 7-player Swiss over 3 rounds: a bye each round to the right player, no rematch, ranked by wins then Buchholz (R9.4, R9.5)', async () => {
    const [s1, s2, s3, s4, s5, s6, s7] = await players(7);
    const id = await create({ name: 'Winter Swiss', format: 'swiss', rounds: 3, targets: [3] });
    await enter(id, [s1, s2, s3, s4, s5, s6, s7]);
    const drawn = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body;
    // Round 1: the lowest seed has the bye; the other six, top half against bottom half: 1–4, 2–5, 3–6.
    expect(pairs(drawn.flights[0].rounds[0])).toEqual([
      [s1, s4],
      [s2, s5],
      [s3, s6],
      ['bye', s7],
    ]);
    const play = async (round: number, winners: string[]) => {
      const r = (await get(id)).flights[0].rounds[round - 1];
      for (const [i, w] of winners.entries()) await win(r.pairings[i].matchId, w);
    };
    await play(1, [s1, s5, s3]);
    // Ranking after round 1: 1 win — s1, s3, s5 (+3 each), then s7 (a bye, no points); 0 wins — s2, s4, s6 (Buchholz 1).
    // The bye goes to the lowest-ranked who has not had one: s6. Top down, nobody has met: s1–s3, s5–s7, s2–s4.
    let state = await get(id);
    expect(state.flights[0].rounds).toHaveLength(2);
    expect(pairs(state.flights[0].rounds[1])).toEqual([
      [s1, s3],
      [s5, s7],
      [s2, s4],
      ['bye', s6],
    ]);
    await play(2, [s1, s7, s4]);
    // After round 2: s1 2 wins (Buchholz 2), s7 2 (1); s3 1 (3), s4 1 (2, +0, seed 4), s5 1 (2, +0, seed 5), s6 1 (1); s2 0.
    // Bye to s2 (s7 and s6 have had theirs); s1–s7, s3–s4, s5–s6: none of them has met.
    state = await get(id);
    expect(pairs(state.flights[0].rounds[2])).toEqual([
      [s1, s7],
      [s3, s4],
      [s5, s6],
      ['bye', s2],
    ]);
    await play(3, [s1, s4, s6]);
    state = await get(id);
    expect(state.status).toBe('finished');
    // Wins: s1 3; s4, s7, s6 2; s3, s5, s2 1. Buchholz: s1 2+1+2 = 5; s4 3+1+1 = 5; s7 1+3 = 4; s6 1+1 = 2; s3 2+3+2 = 7; s5 1+2+2 = 5; s2 1+2 = 3.
    expect(ranking(state.flights[0].standings)).toEqual([
      [s1, 1, 3, 5],
      [s4, 2, 2, 5],
      [s7, 3, 2, 4],
      [s6, 4, 2, 2],
      [s3, 5, 1, 7],
      [s5, 6, 1, 5],
      [s2, 7, 1, 3],
    ]);
    expect(state.flights[0].standings[1]).toMatchObject({ pointsFor: 6, pointsAgainst: 3 });
    // Nobody met anybody twice, and nobody had two byes.
    const met = state.flights[0].rounds.flatMap((r: { pairings: Array<{ sides: string[][] | null }> }) =>
      r.pairings.flatMap((p) => (p.sides ? [[p.sides[0][0], p.sides[1][0]].sort().join('|')] : [])),
    );
    expect(new Set(met).size).toBe(met.length);
    const byes = state.flights[0].rounds.flatMap((r: { pairings: Array<{ bye: string | null }> }) => r.pairings.flatMap((p) => (p.bye ? [p.bye] : [])));
    expect(byes).toEqual([s7, s6, s2]);
  });

  it('penalises lateness from the scheduled start: 4:59 nothing, 5:00 one point, 14:59 two, 15:00 past half of 5 a forfeit (R9.6)', async () => {
    const [a, b] = await players(2);
    const due = '2026-12-11T19:30:00.000Z';
    const late = (ms: number) => new Date(Date.parse(due) + ms).toISOString();
    const match = async () => (await c.post('/v1/matches', { sides: [[a], [b]], target: 5, scheduledAt: due })).body.id as string;
    const arrive = (id: string, side: number, at: string) => c.post(`/v1/matches/${id}/arrivals`, { side, at });

    const m1 = await match();
    const onTime = await arrive(m1, 1, late(4 * 60_000 + 59_000));
    expect(onTime.status).toBe(201);
    expect(onTime.body).toMatchObject({ score: [0, 0], penalties: [], status: 'in-progress' });

    const m2 = await match();
    expect((await arrive(m2, 1, late(5 * 60_000))).body).toMatchObject({ score: [1, 0], penalties: [expect.objectContaining({ side: 0, points: 1, reason: 'lateness: 5 minutes late' })] });

    const m3 = await match();
    expect((await arrive(m3, 0, late(14 * 60_000 + 59_000))).body).toMatchObject({ score: [0, 2], status: 'in-progress' });

    const m4 = await match();
    const forfeited = await arrive(m4, 1, late(15 * 60_000));
    expect(forfeited.body).toMatchObject({ status: 'finished', winnerSide: 0, score: [0, 0], endedBy: { kind: 'forfeit', side: 1, reason: 'lateness', note: '15 minutes late' } });

    // A match with no scheduled start cannot judge lateness; nothing is written.
    const plain = (await c.post('/v1/matches', { sides: [[a], [b]], target: 5 })).body.id as string;
    const refused = await arrive(plain, 0, late(0));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'NOT_SCHEDULED', rule: 'R9.6' });
    expect((await c.get(`/v1/matches/${plain}`)).body).toMatchObject({ version: 1, penalties: [] });
  });

  it('withdrawals: a player leaving mid-match forfeits it; one leaving while he waits gives his next opponent a walkover (R9.8)', async () => {
    const [s1, s2, s3, s4] = await players(4);
    const id = await create({ name: 'Four', format: 'knockout', targets: [3] });
    await enter(id, [s1, s2, s3, s4]);
    const drawn = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body;
    // A bracket of 4: 1–4, 2–3.
    expect(pairs(drawn.flights[0].rounds[0])).toEqual([
      [s1, s4],
      [s2, s3],
    ]);
    const [m14, m23] = drawn.flights[0].rounds[0].pairings.map((p: { matchId: string }) => p.matchId);
    // Seed 3 leaves with a game in progress: the game is abandoned and the match forfeited for withdrawal.
    await c.post(`/v1/matches/${m23}/games`);
    const w = await c.post(`/v1/tournaments/${id}/entries/${s3}/withdraw`, { reason: 'withdrawal', note: 'Feeling unwell' });
    expect(w.status).toBe(200);
    expect((await c.get(`/v1/matches/${m23}`)).body).toMatchObject({ status: 'finished', winnerSide: 0, endedBy: { kind: 'forfeit', side: 1, reason: 'withdrawal' } });
    expect((await c.get(`/v1/matches/${m23}/games/1`)).body.status).toBe('abandoned');
    let state = await get(id);
    expect(state.flights[0].entries.find((e: { playerId: string }) => e.playerId === s3).status).toBe('withdrawn');
    expect(state.flights[0].rounds[1].pairings[0].slots).toEqual([null, s2]);
    // Seed 2 is disqualified while the other semi-final is still to be played: no final match is made…
    expect((await c.post(`/v1/tournaments/${id}/entries/${s2}/withdraw`, { reason: 'disqualification' })).status).toBe(200);
    await win(m14, s1);
    state = await get(id);
    // …and seed 1 goes through to first place without one.
    const final = state.flights[0].rounds[1].pairings[0];
    expect(final).toMatchObject({ sides: [[s1], [s2]], matchId: null, winnerSide: 0, endedBy: { kind: 'forfeit', side: 1, reason: 'withdrawal' } });
    expect(state.status).toBe('finished');
    expect(state.flights[0].standings.map((x: { playerId: string; place: number }) => [x.playerId, x.place])).toEqual([
      [s1, 1],
      [s2, 2],
      [s3, 3],
      [s4, 3],
    ]);
    // Leaving twice, or leaving a finished event, is refused.
    const again = await c.post(`/v1/tournaments/${id}/entries/${s2}/withdraw`, { reason: 'withdrawal' });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('TOURNAMENT_NOT_RUNNING');
  });

  it('corrects a result only until a player has started a game in a later match (R9.10)', async () => {
    const [s1, s2, s3, s4] = await players(4);
    const id = await create({ name: 'Corrections', format: 'knockout', targets: [3] });
    await enter(id, [s1, s2, s3, s4]);
    const drawn = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body;
    const [m14, m23] = drawn.flights[0].rounds[0].pairings.map((p: { matchId: string }) => p.matchId);
    await win(m14, s4);
    // Voided before anything followed: seed 4 is out of the final again.
    expect((await c.post(`/v1/matches/${m14}/void`, { reason: 'Wrong winner recorded' })).status).toBe(200);
    let state = await get(id);
    expect(state.flights[0].rounds[0].pairings[0]).toMatchObject({ winnerSide: null, endedBy: null });
    expect(state.flights[0].rounds[1].pairings[0].slots).toEqual([null, null]);
    await win(m14, s1);
    await win(m23, s2);
    state = await get(id);
    const finalId = state.flights[0].rounds[1].pairings[0].matchId as string;
    expect(state.flights[0].rounds[1].pairings[0].sides).toEqual([[s1], [s2]]);
    // The final exists but has no game yet: a correction takes it back with the result.
    expect((await c.post(`/v1/matches/${m23}/void`, { reason: 'Scoresheet misread' })).status).toBe(200);
    expect((await c.get(`/v1/matches/${finalId}`)).status).toBe(404);
    state = await get(id);
    expect(state.flights[0].rounds[1].pairings[0]).toMatchObject({ slots: [s1, null], matchId: null });
    await win(m23, s2);
    const final2 = (await get(id)).flights[0].rounds[1].pairings[0].matchId as string;
    // Once a game of the final has started, neither semi-final can be corrected; nothing is written.
    expect((await c.post(`/v1/matches/${final2}/games`)).status).toBe(201);
    const before = await get(id);
    for (const m of [m14, m23]) {
      const refused = await c.post(`/v1/matches/${m}/void`, { reason: 'Too late' });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'CORRECTION_CLOSED', rule: 'R9.10' });
    }
    expect(await get(id)).toEqual(before);
    expect((await c.get(`/v1/matches/${m14}`)).body).toMatchObject({ status: 'finished', winnerSide: 0 });
  });

  it('two semi-finals finished at the same moment make exactly one final; 16 first-round results at once, each round-2 match once (R9.3)', async () => {
    const [s1, s2, s3, s4] = await players(4);
    const id = await create({ name: 'Race', format: 'knockout', targets: [3] });
    await enter(id, [s1, s2, s3, s4]);
    const [m14, m23] = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body.flights[0].rounds[0].pairings.map((p: { matchId: string }) => p.matchId);
    const both = await Promise.all([
      c.post(`/v1/matches/${m14}/games`, { actions: [finish(s1, 'backgammon')] }),
      c.post(`/v1/matches/${m23}/games`, { actions: [finish(s3, 'backgammon')] }),
    ]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    const finals = await t.sql<{ id: string }>(`SELECT id FROM game_tables WHERE setup->'tournament'->>'id' = $1 AND (setup->'tournament'->>'round')::int = 2`, [id]);
    expect(finals).toHaveLength(1);
    const state = await get(id);
    expect(state.flights[0].rounds[1].pairings[0]).toMatchObject({ sides: [[s1], [s3]], matchId: finals[0].id });

    // 32 entries: the 16 first-round results sent together, with 8 reads beside them.
    const field = await players(32, 2400);
    const big = await create({ name: 'Thirty-two', format: 'knockout', targets: [3] });
    await enter(big, field);
    const r1 = (await c.post(`/v1/tournaments/${big}/draw`, { seeding: 'rating' })).body.flights[0].rounds[0].pairings as Array<{ matchId: string; sides: string[][] }>;
    const answers = await Promise.all([
      ...r1.map((p) => c.post(`/v1/matches/${p.matchId}/games`, { actions: [finish(p.sides[0][0], 'backgammon')] })),
      ...Array.from({ length: 8 }, () => c.get(`/v1/tournaments/${big}`)),
    ]);
    expect(answers.filter((r) => r.status >= 500)).toEqual([]);
    expect(answers.slice(0, 16).map((r) => r.status)).toEqual(Array(16).fill(201));
    const round2 = await t.sql<{ pairing: string; n: string }>(
      `SELECT setup->'tournament'->>'pairing' AS pairing, count(*)::text AS n FROM game_tables WHERE setup->'tournament'->>'id' = $1 AND (setup->'tournament'->>'round')::int = 2 GROUP BY 1 ORDER BY 1::int`,
      [big],
    );
    expect(round2).toEqual(Array.from({ length: 8 }, (_, i) => ({ pairing: String(i + 1), n: '1' })));
    // The top seeds all won: round 2 is 1–16, 8–9, … from the top, as a 16-bracket would be (each pair in bracket order).
    const after = (await get(big)).flights[0].rounds[1].pairings.map((p: { sides: string[][] }) =>
      [field.indexOf(p.sides[0][0]) + 1, field.indexOf(p.sides[1][0]) + 1].sort((x, y) => x - y),
    );
    expect(after).toEqual([
      [1, 16],
      [8, 9],
      [5, 12],
      [4, 13],
      [3, 14],
      [6, 11],
      [7, 10],
      [2, 15],
    ]);
  });

  it('results and withdrawals racing on the same pairings leave one consistent bracket (R9.8, R9.3)', async () => {
    const field = await players(16, 2600);
    const id = await create({ name: 'Racing withdrawals', format: 'knockout', targets: [3] });
    await enter(id, field);
    const r1 = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body.flights[0].rounds[0].pairings as Array<{ matchId: string; sides: string[][] }>;
    // All at once: the 8 first-round results (side 0 winning); side 0 of the top 4 pairings leaving the event;
    // 8 reads. The bottom half's players all stay, so the event cannot finish before every withdrawal is in.
    const top = r1.slice(0, 4);
    const answers = await Promise.all([
      ...r1.map((p) => c.post(`/v1/matches/${p.matchId}/games`, { actions: [finish(p.sides[0][0], 'backgammon')] })),
      ...top.map((p) => c.post(`/v1/tournaments/${id}/entries/${p.sides[0][0]}/withdraw`, { reason: 'withdrawal' })),
      ...Array.from({ length: 8 }, () => c.get(`/v1/tournaments/${id}`)),
    ]);
    expect(answers.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    const games = answers.slice(0, 8);
    expect(games.slice(4).map((r) => r.status)).toEqual(Array(4).fill(201));
    expect(answers.slice(8, 12).map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([200, undefined]));
    const state = await get(id);
    const flight = state.flights[0];
    expect(state.status).toBe('running');
    const gone = new Set(top.map((p) => p.sides[0][0]));
    expect(
      flight.entries
        .filter((e: { status: string }) => e.status === 'withdrawn')
        .map((e: { playerId: string }) => e.playerId)
        .sort(),
    ).toEqual([...gone].sort());
    for (const [i, p] of r1.entries()) {
      const m = (await c.get(`/v1/matches/${p.matchId}`)).body;
      if (games[i].status === 201) {
        // The game came first: side 0 won on points, then left while waiting for his next match.
        expect(m).toMatchObject({ status: 'finished', winnerSide: 0, endedBy: { kind: 'points' } });
      } else {
        // The withdrawal came first: side 0 forfeited, and the game was refused without a write.
        expect([409, 422]).toContain(games[i].status);
        expect(typeof games[i].body.code).toBe('string');
        expect(m).toMatchObject({ status: 'finished', winnerSide: 1, endedBy: { kind: 'forfeit', side: 0, reason: 'withdrawal' } });
        expect((await c.get(`/v1/matches/${p.matchId}/games`)).body.items).toEqual([]);
      }
      expect(flight.rounds[0].pairings[i].winnerSide).toBe(m.winnerSide);
    }
    // Later rounds: a pairing with a leaver is decided by forfeit: a walkover when it had no match yet, or
    // the match he was to play forfeited (R9.8) when it had been made before he left. Nobody who left plays on.
    const later = flight.rounds.slice(1).flatMap((r: { pairings: object[] }) => r.pairings) as Array<{
      sides: string[][] | null;
      matchId: string | null;
      winnerSide: number | null;
      endedBy: { kind: string } | null;
    }>;
    let matches = 0;
    for (const q of later) {
      if (q.matchId !== null) matches += 1;
      const sides = (q.sides ?? []).map((s) => s[0]);
      if (sides.length < 2 || sides.some((s) => s === undefined)) continue;
      if (sides.some((s) => gone.has(s))) {
        expect(q).toMatchObject({ endedBy: { kind: 'forfeit', reason: 'withdrawal' } });
        expect(gone.has(sides[q.winnerSide as number]) && !sides.every((s) => gone.has(s))).toBe(false);
        if (q.matchId !== null) expect((await c.get(`/v1/matches/${q.matchId}`)).body).toMatchObject({ status: 'finished', endedBy: { kind: 'forfeit', reason: 'withdrawal' } });
      } else if (q.winnerSide === null) {
        expect(q.matchId).not.toBeNull();
      }
    }
    const made = await t.sql<{ n: string }>(`SELECT count(*)::text AS n FROM game_tables WHERE setup->'tournament'->>'id' = $1 AND (setup->'tournament'->>'round')::int > 1`, [id]);
    expect(Number(made[0].n)).toBe(matches);
  });

  it('refuses what it cannot do and writes nothing (R9.1, R9.2, R9.3, R9.9)', async () => {
    const [a, b] = await players(2);
    const bad = async (body: object, code: string) => {
      const res = await c.post('/v1/tournaments', body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(code);
    };
    const count = async () => Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM tournaments'))[0].n);
    const before = await count();
    await bad({ name: 'x', format: 'swiss', targets: [5] }, 'INVALID_TOURNAMENT');
    await bad({ name: 'x', format: 'knockout', rounds: 3, targets: [5] }, 'INVALID_TOURNAMENT');
    await bad({ name: 'x', format: 'knockout', targets: [5], payouts: [70, 20] }, 'INVALID_PAYOUTS');
    await bad({ name: 'x', format: 'knockout', targets: [5], entryFeeMinor: 1000 }, 'INVALID_TOURNAMENT');
    await bad({ name: 'x', format: 'knockout', targets: [4] }, 'TARGET_EVEN');
    expect(await count()).toBe(before);
    const id = await create({ name: 'Two', format: 'knockout', targets: [5] });
    await enter(id, [a]);
    const twice = await c.post(`/v1/tournaments/${id}/entries`, { playerId: a });
    expect(twice.body).toMatchObject({ code: 'ALREADY_ENTERED', rule: 'R9.2' });
    expect((await c.post(`/v1/tournaments/${id}/entries`, { playerId: b, flight: 'nope' })).body.code).toBe('UNKNOWN_FLIGHT');
    const alone = await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' });
    expect(alone.body).toMatchObject({ code: 'TOO_FEW_ENTRIES', rule: 'R9.2' });
    await enter(id, [b]);
    expect((await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'given' })).body).toMatchObject({ code: 'INVALID_SEEDS', rule: 'R9.3' });
    const version = (await get(id)).version;
    expect((await get(id)).status).toBe('open');
    expect((await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'random', randomSeed: 7 })).status).toBe(200);
    expect((await c.post(`/v1/tournaments/${id}/entries`, { playerId: (await players(1))[0] })).body.code).toBe('TOURNAMENT_NOT_OPEN');
    expect((await get(id)).version).toBe(version + 1);
    expect((await c.get('/v1/tournaments/00000000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('runs flights side by side, each with its own draw, pool and prizes; an entry moves before the draw (R9.1, R9.2, R9.9)', async () => {
    const [a, b, cc, d] = await players(4);
    const session = await c.session();
    const id = await create({ name: 'Flighted', format: 'knockout', targets: [3], flights: ['open', 'novice'], sessionId: session, entryFeeMinor: 1000 });
    await enter(id, [a, b, cc]);
    expect((await c.post(`/v1/tournaments/${id}/entries`, { playerId: d, flight: 'novice' })).status).toBe(201);
    const moved = await t.http().patch(`/v1/tournaments/${id}/entries/${cc}`).set('Authorization', `Bearer ${c.owner}`).send({ flight: 'novice' });
    expect(moved.status).toBe(200);
    expect(moved.body.flights.map((f: { name: string; entries: Array<{ playerId: string }> }) => [f.name, f.entries.map((e) => e.playerId)])).toEqual([
      ['open', [a, b]],
      ['novice', [cc, d]],
    ]);
    const drawn = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body;
    const final = (f: number) => drawn.flights[f].rounds[0].pairings[0] as { matchId: string; sides: string[][] };
    expect([final(0).sides, final(1).sides]).toEqual([
      [[a], [b]],
      [[cc], [d]],
    ]);
    expect(drawn.flights.map((f: { prizePoolMinor: number }) => f.prizePoolMinor)).toEqual([2000, 2000]);
    await win(final(0).matchId, b);
    let state = await get(id);
    // The open flight is over and paid; the novice flight still plays.
    expect(state.status).toBe('running');
    expect(state.flights.map((f: { status: string }) => f.status)).toEqual(['finished', 'running']);
    expect(state.flights[0].prizes).toEqual([{ playerId: b, place: 1, bracket: 'main', amountMinor: 2000 }]);
    expect((await c.get(`/v1/matches/${final(1).matchId}`)).body.tournament).toMatchObject({ flight: 'novice' });
    await win(final(1).matchId, cc);
    state = await get(id);
    expect(state.status).toBe('finished');
    expect(state.flights[1].prizes).toEqual([{ playerId: cc, place: 1, bracket: 'main', amountMinor: 2000 }]);
  });

  it('pays a consolation bracket beside the main one, and a corrected final takes the prizes back and posts them again (R9.9, R9.10, R9.11)', async () => {
    const [s1, s2, s3, s4] = await players(4);
    const session = await c.session();
    const id = await create({
      name: 'With consolation',
      format: 'knockout',
      targets: [3],
      consolation: true,
      sessionId: session,
      entryFeeMinor: 2500,
      housePercent: 10,
      payouts: { main: [40, 25], consolation: [25, 10] },
    });
    await enter(id, [s1, s2, s3, s4]);
    const drawn = (await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).body;
    const [m14, m23] = drawn.flights[0].rounds[0].pairings.map((p: { matchId: string }) => p.matchId);
    await win(m14, s1);
    expect((await get(id)).flights[0].consolation).toBeNull();
    await win(m23, s2);
    // Both first-match losers known: the consolation is drawn by their seeds, s3 v s4.
    const cons = (await get(id)).flights[0].consolation;
    expect(cons.rounds[0].pairings[0].sides).toEqual([[s3], [s4]]);
    expect((await c.get(`/v1/matches/${cons.rounds[0].pairings[0].matchId}`)).body.tournament).toMatchObject({ bracket: 'consolation', round: 1, pairing: 1 });
    await win(cons.rounds[0].pairings[0].matchId, s4);
    const finalId = (await get(id)).flights[0].rounds[1].pairings[0].matchId as string;
    await win(finalId, s2);
    let state = await get(id);
    expect(state.status).toBe('finished');
    // Pool 4 × 25.00 = 100.00; the house 10.00; 90.00 shared 40/25 (main) and 25/10 (consolation).
    expect(state.flights[0].prizes).toEqual([
      { playerId: s2, place: 1, bracket: 'main', amountMinor: 3600 },
      { playerId: s1, place: 2, bracket: 'main', amountMinor: 2250 },
      { playerId: s4, place: 1, bracket: 'consolation', amountMinor: 2250 },
      { playerId: s3, place: 2, bracket: 'consolation', amountMinor: 900 },
    ]);
    // The final's result was wrong: voided, the prizes come back to the house and the event is running again.
    expect((await c.post(`/v1/matches/${finalId}/void`, { reason: 'Wrong winner recorded' })).status).toBe(200);
    state = await get(id);
    expect(state.status).toBe('running');
    expect(state.flights[0].prizes).toEqual([]);
    const net = async () =>
      Object.fromEntries(((await c.get(`/v1/sessions/${session}/settlement`)).body.players as Array<{ playerId: string; netMinor: number }>).map((p) => [p.playerId, p.netMinor]));
    expect(await net()).toEqual({ [s1]: -2500, [s2]: -2500, [s3]: -2500, [s4]: -2500 });
    await win(finalId, s1);
    state = await get(id);
    expect(state.flights[0].prizes.slice(0, 2)).toEqual([
      { playerId: s1, place: 1, bracket: 'main', amountMinor: 3600 },
      { playerId: s2, place: 2, bracket: 'main', amountMinor: 2250 },
    ]);
    expect(await net()).toEqual({ [s1]: 1100, [s2]: -250, [s3]: -1600, [s4]: -250 });
    expect((await c.get(`/v1/sessions/${session}/settlement`)).body.houseMinor).toBe(1000);
    const kinds = await t.sql<{ kind: string; n: string }>(`SELECT kind, count(*)::text AS n FROM ledger_entries WHERE tournament_id = $1 GROUP BY kind ORDER BY kind`, [id]);
    expect(kinds).toEqual([
      { kind: 'entry-fee', n: '4' },
      { kind: 'prize', n: '8' },
      { kind: 'void', n: '4' },
    ]);
  });
});
