import { parseCsv } from './support/csv';
import { startApp, TestApp } from './support/app';
import { rebuildReadModels } from '../src/player-stats/rebuild';
import { clubWith, finish } from './support/club';

/**
 * What reads finished games does right for every variant (R8.9): ratings, the .mat
 * export, the session's games and standings, the player's statistics, team events.
 * The long nardy match is played through the API; the session's mixed evening is played
 * as backgammon, then its rows are rewritten as the storage keeps a variant's (setup
 * `variant`, the variant's result, points; a draw without a winner), so that several
 * variants sit in one session and only the readers are under test.
 */
describe('variants downstream (R8.9)', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string;
  let B: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan']);
    ({ Anna: A, Ben: B } = c.ids);
  });
  afterAll(() => t.close());

  const player = async (id: string) => (await c.get(`/v1/players/${id}`)).body as { rating: number; experience: number; statsByVariant: unknown[]; stats: Record<string, unknown> };
  const setTableVariant = (id: string, variant: string) => t.sql(`UPDATE game_tables SET setup = setup || jsonb_build_object('variant', $2::text) WHERE id = $1`, [id, variant]);

  it('R8.9: a long nardy match does not rate, its void does not unrate, and its .mat export is refused', async () => {
    const before = [await player(A), await player(B)];
    const m = (await c.post('/v1/matches', { sides: [[A], [B]], target: 1, variant: 'long-nardy' })).body.id as string;
    expect((await c.post(`/v1/matches/${m}/games`, { actions: [{ type: 'finish', winner: A, result: 'oin' }] })).status).toBe(201);
    expect((await c.get(`/v1/matches/${m}`)).body).toMatchObject({ status: 'finished' });
    expect(await player(A)).toMatchObject({ rating: before[0].rating, experience: before[0].experience });
    expect(await player(B)).toMatchObject({ rating: before[1].rating, experience: before[1].experience });
    const ratings = (await c.get('/v1/ratings')).body.items as Array<{ playerId: string; matches: number }>;
    expect(ratings.find((r) => r.playerId === A)?.matches).toBe(0);

    const exported = await t
      .http()
      .get(`/v1/matches/${m}/export`)
      .set({ authorization: `Bearer ${c.owner}`, accept: 'text/plain' });
    expect(exported.status).toBe(422);
    expect(exported.body).toMatchObject({ code: 'EXPORT_UNSUPPORTED_VARIANT', rule: 'R8.9' });
    expect(exported.body.detail).toContain('long-nardy');

    expect((await c.post(`/v1/matches/${m}/games/1/void`, { reason: 'wrong table' })).status).toBe(200);
    expect((await c.get(`/v1/matches/${m}`)).body).toMatchObject({ status: 'in-progress' });
    expect(await player(A)).toMatchObject({ rating: before[0].rating, experience: before[0].experience });
    expect(await player(B)).toMatchObject({ rating: before[1].rating, experience: before[1].experience });
  });

  it('a backgammon match still rates and exports', async () => {
    const before = await player(A);
    const m = (await c.post('/v1/matches', { sides: [[A], [B]], target: 1 })).body.id as string;
    await c.post(`/v1/matches/${m}/games`, { actions: [finish(A)] });
    expect((await player(A)).rating).toBeGreaterThan(before.rating);
    const exported = await t
      .http()
      .get(`/v1/matches/${m}/export`)
      .set({ authorization: `Bearer ${c.owner}`, accept: 'text/plain' });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(' 1 point match');
  });

  it("R8.9, R8.3: the session's games, their CSV, the standings and the statistics name each game's variant; a draw is played, not won", async () => {
    const { Cleo: C, Dan: D } = c.ids;
    const S = await c.session({ name: 'Variants night' });
    const money = (await c.post('/v1/money-games', { sessionId: S, players: [C, D], stakeMinor: 100 })).body.id as string;
    for (const w of [C, D, C, C]) expect((await c.post(`/v1/money-games/${money}/games`, { actions: [finish(w)] })).status).toBe(201);
    await setTableVariant(money, 'tavli');
    const game = (no: number, variant: string, result: object, points: number, winnerSide: number | null) =>
      t.sql(`UPDATE games SET setup = setup || jsonb_build_object('variant', $3::text), result = $4::jsonb, points = $5, winner_side = $6 WHERE table_id = $1 AND game_no = $2`, [
        money,
        no,
        variant,
        JSON.stringify(result),
        points,
        winnerSide,
      ]);
    // Game 1 stays backgammon (no variant in its setup, a row from before variants).
    await game(2, 'plakoto', { result: 'draw', resigned: false }, 0, null);
    await game(3, 'tavla-31', { winner: C, result: 'single', resigned: false, checkersLeft: 7 }, 7, 0);
    await game(4, 'long-nardy', { winner: C, result: 'mars', resigned: false }, 2, 0);
    // The rows were rewritten by hand: the read models are rebuilt from them, as after any such edit.
    const [{ club_id: clubId }] = await t.sql<{ club_id: string }>('SELECT club_id FROM game_tables WHERE id = $1', [money]);
    expect(await rebuildReadModels({ query: (text, values) => t.sql(text, values) }, clubId, 'write')).toEqual([]);

    const items = (await c.get(`/v1/sessions/${S}/games`)).body.items as Array<Record<string, unknown>>;
    expect(items.map((g) => [g.gameNo, g.variant, g.result, g.winnerSide, g.winners, g.points, g.endedBy])).toEqual([
      [1, 'backgammon', { winner: C, result: 'single', resigned: false }, 0, [C], 1, 'finish'],
      [2, 'plakoto', { winner: null, result: 'draw', resigned: false }, null, [], 0, 'finish'],
      [3, 'tavla-31', { winner: C, result: 'single', resigned: false, checkersLeft: 7 }, 0, [C], 7, 'finish'],
      [4, 'long-nardy', { winner: C, result: 'mars', resigned: false }, 0, [C], 2, 'finish'],
    ]);

    const csv = await t
      .http()
      .get(`/v1/sessions/${S}/games`)
      .set({ authorization: `Bearer ${c.owner}`, accept: 'text/csv' });
    expect(csv.status).toBe(200);
    const [header, ...rows] = parseCsv(csv.text);
    const col = (name: string) => rows.map((r) => r[header.indexOf(name)]);
    expect(header.slice(16, 18)).toEqual(['variant', 'checkersLeft']);
    expect(col('variant')).toEqual(['backgammon', 'plakoto', 'tavla-31', 'long-nardy']);
    expect(col('result')).toEqual(['single', 'draw', 'single', 'mars']);
    expect(col('checkersLeft')).toEqual(['', '', '7', '']);
    expect(col('winners')).toEqual(['Cleo', '', 'Cleo', 'Cleo']);
    expect(col('points')).toEqual(['1', '0', '7', '2']);

    const standings = (await c.get(`/v1/sessions/${S}/standings`)).body.items as Array<{ playerId: string; gamesPlayed: number; gamesWon: number }>;
    expect(standings.find((s) => s.playerId === C)).toMatchObject({ gamesPlayed: 4, gamesWon: 3 });
    expect(standings.find((s) => s.playerId === D)).toMatchObject({ gamesPlayed: 4, gamesWon: 0 });

    expect((await player(C)).statsByVariant).toEqual([
      { variant: 'backgammon', gamesPlayed: 1, gamesWon: 1, gamesLost: 0, draws: 0, pointsWon: 1, pointsLost: 0 },
      { variant: 'long-nardy', gamesPlayed: 1, gamesWon: 1, gamesLost: 0, draws: 0, pointsWon: 2, pointsLost: 0 },
      { variant: 'plakoto', gamesPlayed: 1, gamesWon: 0, gamesLost: 0, draws: 1, pointsWon: 0, pointsLost: 0 },
      { variant: 'tavla-31', gamesPlayed: 1, gamesWon: 1, gamesLost: 0, draws: 0, pointsWon: 7, pointsLost: 0 },
    ]);
    expect((await player(D)).stats).toMatchObject({ gamesPlayed: 4, gamesWon: 0 });
    // A backgammon-only player: one line, the totals' games.
    expect((await player(B)).statsByVariant).toEqual([expect.objectContaining({ variant: 'backgammon' })]);
  });

  it('R8: a team event carries its variant to every board match (default backgammon)', async () => {
    const { Cleo: C, Dan: D } = c.ids;
    const plain = await c.post('/v1/team-events', {
      target: 1,
      teams: [
        { name: 'North', players: [A] },
        { name: 'South', players: [B] },
      ],
    });
    expect(plain.status).toBe(201);
    expect(plain.body.variant).toBe('backgammon');
    const nardy = await c.post('/v1/team-events', {
      target: 1,
      variant: 'long-nardy',
      teams: [
        { name: 'North', players: [C] },
        { name: 'South', players: [D] },
      ],
    });
    expect(nardy.status).toBe(201);
    expect(nardy.body.variant).toBe('long-nardy');
    const ids = (nardy.body.boards as Array<{ matchId: string }>).map((b) => b.matchId);
    const rows = await t.sql<{ variant: string }>(`SELECT setup->>'variant' AS variant FROM game_tables WHERE id = ANY($1::uuid[])`, [ids]);
    expect(rows.map((r) => r.variant)).toEqual(['long-nardy']);
    expect((await c.get(`/v1/team-events/${nardy.body.id}`)).body.variant).toBe('long-nardy');
    expect(
      (
        await c.post('/v1/team-events', {
          target: 1,
          variant: 'chess',
          teams: [
            { name: 'N', players: [A] },
            { name: 'S', players: [B] },
          ],
        })
      ).status,
    ).toBe(400);
  });
});
