import { startApp, TestApp } from './support/app';
import { clubWith, finish } from './support/club';

/**
 * Tournaments at the size of a big club night (R9.3, R9.4, R9.5): a 128-entry knockout and
 * a 64-player, 7-round Swiss played out through the API, round by round, the results of a
 * round sent together.
 */
describe('tournaments at scale', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, []);
  });
  afterAll(() => t.close());

  type Pairing = { no: number; sides: string[][] | null; bye: string | null; matchId: string | null; winnerSide: 0 | 1 | null };
  type Round = { no: number; pairings: Pairing[] };

  const players = async (count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 16) {
      const batch = await Promise.all(Array.from({ length: Math.min(16, count - i) }, (_, k) => c.post('/v1/players', { name: `P${i + k + 1}`, rating: 2500 - (i + k) })));
      ids.push(...batch.map((r) => r.body.id as string));
    }
    return ids;
  };
  const field = async (body: object, ids: string[]) => {
    const id = (await c.post('/v1/tournaments', body)).body.id as string;
    for (const playerId of ids) expect((await c.post(`/v1/tournaments/${id}/entries`, { playerId })).status).toBe(201);
    expect((await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' })).status).toBe(200);
    return id;
  };
  const rounds = async (id: string) => (await c.get(`/v1/tournaments/${id}`)).body.flights[0].rounds as Round[];
  /** Plays every pairing of the round that has a match and no result, side `pick` winning, 16 at a time. */
  const playRound = async (r: Round, pick: (p: Pairing) => 0 | 1) => {
    const open = r.pairings.filter((p) => p.matchId && p.winnerSide === null);
    for (let i = 0; i < open.length; i += 16) {
      const answers = await Promise.all(open.slice(i, i + 16).map((p) => c.post(`/v1/matches/${p.matchId}/games`, { actions: [finish(p.sides![pick(p)][0], 'backgammon')] })));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    }
    return open.length;
  };

  it('plays out a 128-entry knockout: 127 matches, one per pairing, one champion', async () => {
    const ids = await players(128);
    const id = await field({ name: 'Big knockout', format: 'knockout', targets: [3] }, ids);
    let played = 0;
    for (let r = 1; r <= 7; r++) {
      const all = await rounds(id);
      expect(all[r - 1].pairings).toHaveLength(128 / 2 ** r);
      // Every pairing of the round has its two players and its match once the round before is over.
      expect(all[r - 1].pairings.every((p) => p.sides && p.matchId)).toBe(true);
      // The lower seed wins every other pairing, so the bracket does not simply follow the seeds.
      played += await playRound(all[r - 1], (p) => (p.no % 2 === 0 ? 1 : 0));
    }
    expect(played).toBe(127);
    const done = (await c.get(`/v1/tournaments/${id}`)).body;
    expect(done.status).toBe('finished');
    const places = done.flights[0].standings.map((s: { place: number }) => s.place);
    expect(places.filter((p: number) => p === 1)).toHaveLength(1);
    expect(places.filter((p: number) => p === 2)).toHaveLength(1);
    expect(places.filter((p: number) => p === 3)).toHaveLength(2);
    expect(places.filter((p: number) => p === 65)).toHaveLength(64);
    const [{ n }] = await t.sql<{ n: string }>(`SELECT count(*)::text AS n FROM game_tables WHERE setup->'tournament'->>'id' = $1`, [id]);
    expect(n).toBe('127');
    // Each player played at most one match per round.
    for (const r of done.flights[0].rounds as Round[]) {
      const seen = r.pairings.flatMap((p) => (p.sides ? [p.sides[0][0], p.sides[1][0]] : []));
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('plays out a 64-player, 7-round Swiss: every player once a round, no rematch, a full ranking', async () => {
    const ids = await players(64);
    const id = await field({ name: 'Big Swiss', format: 'swiss', rounds: 7, targets: [3] }, ids);
    for (let r = 1; r <= 7; r++) {
      const all = await rounds(id);
      expect(all).toHaveLength(r);
      const round = all[r - 1];
      const seen = round.pairings.flatMap((p) => (p.sides ? [p.sides[0][0], p.sides[1][0]] : [p.bye!]));
      expect(seen.sort()).toEqual([...ids].sort());
      // Side 0 (the better-ranked) wins unless the pairing number is divisible by 3.
      expect(await playRound(round, (p) => (p.no % 3 === 0 ? 1 : 0))).toBe(32);
    }
    const done = (await c.get(`/v1/tournaments/${id}`)).body;
    expect(done.status).toBe('finished');
    const met = (done.flights[0].rounds as Round[]).flatMap((r) => r.pairings.map((p) => [p.sides![0][0], p.sides![1][0]].sort().join('|')));
    expect(new Set(met).size).toBe(met.length);
    expect(done.flights[0].standings.map((s: { place: number }) => s.place)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    const wins = done.flights[0].standings.map((s: { wins: number }) => s.wins);
    expect(wins.reduce((a: number, b: number) => a + b, 0)).toBe(7 * 32);
  });
});
