import { Client } from 'pg';
import { rebuildQueued } from '../src/player-stats/rebuild';
import { startApp, TestApp } from './support/app';
import { clubWith, double, take } from './support/club';
import { readModelDifferences } from './support/read-models';

/** A finish with a variant's result (R8.1–R8.4). */
const end = (winner: string, result: string, extra: object = {}) => ({ type: 'finish', winner, result, ...extra });
/** R8.6: a Tavla 31 finish. */
const left = (winner: string, checkersLeft: number) => ({ type: 'finish', winner, checkersLeft });
/** R8.3: a Plakoto draw, no winner. */
const draw = { type: 'finish', result: 'draw' };

describe('variants of the nardy family (R8) and stop at a lead (R4.4) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Carl']);
    ({ Anna: A, Ben: B, Carl: C } = c.ids);
  });
  afterAll(() => t.close());

  const created = async (url: string, body: object) => {
    const res = await c.post(url, body);
    expect(res.status).toBe(201);
    return res.body as { id: string; [k: string]: unknown };
  };
  const game = async (url: string, body: object = {}) => {
    const res = await c.post(url, body);
    expect(res.status).toBe(201);
    return res.body as Record<string, unknown>;
  };

  it('R8.1 a long nardy match to 5 without the cube: mars 2, oin 1, no Crawford game, a double refused', async () => {
    const m = await created('/v1/matches', { variant: 'long-nardy', sides: [[A], [B]], target: 5 });
    expect(m).toMatchObject({ variant: 'long-nardy', target: 5, rules: { cube: false, crawford: false }, crawfordGameNo: null });
    // Game 1: Anna wins a mars, 2 points: 2-0.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [end(A, 'mars')] })).toMatchObject({ variant: 'long-nardy', points: 2, winnerSide: 0, result: { winner: A, result: 'mars' } });
    // Game 2: a double is refused naming the variant (R8.10); Ben wins an oin: 2-1.
    const g2 = await game(`/v1/matches/${m.id}/games`);
    const refused = await c.post(`/v1/matches/${m.id}/games/2/actions`, double(B));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'NO_CUBE_IN_VARIANT', rule: 'R8.10' });
    expect(refused.body.detail).toMatch(/long nardy/);
    const gammon = await c.post(`/v1/matches/${m.id}/games/2/actions`, end(B, 'gammon'));
    expect(gammon.body).toMatchObject({ code: 'RESULT_NOT_IN_VARIANT', rule: 'R8.10' });
    expect(gammon.body.detail).toMatch(/Long nardy/);
    const unchanged = (await c.get(`/v1/matches/${m.id}/games/2`)).body;
    expect(unchanged).toMatchObject({ status: 'in-progress', actions: [], version: g2.version });
    expect((await c.post(`/v1/matches/${m.id}/games/2/actions`, end(B, 'oin'))).body).toMatchObject({ points: 1, winnerSide: 1 });
    // Game 3: mars 4-1 (target − 1, but no Crawford game without the cube); game 4: oin, 5-1.
    await game(`/v1/matches/${m.id}/games`, { actions: [end(A, 'mars', { resigned: true })] });
    let state = (await c.get(`/v1/matches/${m.id}`)).body;
    expect(state).toMatchObject({ score: [4, 1], status: 'in-progress', crawfordGameNo: null });
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [end(A, 'oin')] })).toMatchObject({ crawford: false, points: 1 });
    state = (await c.get(`/v1/matches/${m.id}`)).body;
    expect(state).toMatchObject({ score: [5, 1], status: 'finished', winnerSide: 0, crawfordGameNo: null });
    expect(state.games.map((g: { variant: string; points: number }) => [g.variant, g.points])).toEqual([
      ['long-nardy', 2],
      ['long-nardy', 1],
      ['long-nardy', 2],
      ['long-nardy', 1],
    ]);
  });

  it('R8.1 long nardy with the cube: cube × result, and the Crawford game (R3.4)', async () => {
    const m = await created('/v1/matches', { variant: 'long-nardy', sides: [[A], [B]], target: 5, rules: { cube: true } });
    // Game 1: Anna doubles, Ben takes, Anna wins a mars: 2 × 2 = 4, 4-0 = target − 1.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [double(A), take(B), end(A, 'mars')] })).toMatchObject({ points: 4 });
    expect((await c.get(`/v1/matches/${m.id}`)).body).toMatchObject({ score: [4, 0], crawfordGameNo: 2 });
    // Game 2 is the Crawford game: no double.
    const g2 = await game(`/v1/matches/${m.id}/games`);
    expect(g2).toMatchObject({ crawford: true, variant: 'long-nardy' });
    expect((await c.post(`/v1/matches/${m.id}/games/2/actions`, double(B))).body).toMatchObject({ code: 'CRAWFORD_NO_DOUBLE', rule: 'R3.4' });
    expect((await c.post(`/v1/matches/${m.id}/games/2/actions`, end(B, 'oin'))).body).toMatchObject({ points: 1 });
    // Game 3, post-Crawford: Ben doubles, Anna takes, Ben wins an oin: 2, 4-3.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [double(B), take(A), end(B, 'oin')] })).toMatchObject({ crawford: false, points: 2 });
    expect((await c.get(`/v1/matches/${m.id}`)).body).toMatchObject({ score: [4, 3], status: 'in-progress' });
  });

  it('R8.5 a Tavli match to 5 cycles Portes → Plakoto → Fevga → Portes; an abandoned game is replayed in its variant; mother and draw (R8.3)', async () => {
    const m = await created('/v1/matches', { variant: 'tavli', sides: [[A], [B]], target: 5 });
    // k = 0: Portes, Anna single, 1-0.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [end(A, 'single')] })).toMatchObject({ gameNo: 1, variant: 'portes', points: 1 });
    // k = 1: Plakoto, abandoned; the next game is Plakoto again and ends in a draw: 0 points, no winner, 1-0.
    expect(await game(`/v1/matches/${m.id}/games`)).toMatchObject({ gameNo: 2, variant: 'plakoto' });
    expect((await c.post(`/v1/matches/${m.id}/games/2/abandon`)).body.status).toBe('abandoned');
    const g3 = await game(`/v1/matches/${m.id}/games`, { actions: [draw] });
    expect(g3).toMatchObject({ gameNo: 3, variant: 'plakoto', status: 'finished', points: 0, winnerSide: null, result: { result: 'draw', resigned: false }, payouts: [] });
    expect((g3.result as Record<string, unknown>).winner).toBeUndefined();
    // k = 2 (the draw counts): Fevga, Ben gammon, 1-2.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [end(B, 'gammon')] })).toMatchObject({ gameNo: 4, variant: 'fevga', points: 2 });
    // k = 3: the fourth game is Portes again; Anna gammon, 3-2.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [end(A, 'gammon')] })).toMatchObject({ gameNo: 5, variant: 'portes', points: 2 });
    // k = 4: Plakoto; a mother is 2: 5-2, the match is over.
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [end(A, 'mother')] })).toMatchObject({ gameNo: 6, variant: 'plakoto', points: 2 });
    const state = (await c.get(`/v1/matches/${m.id}`)).body;
    expect(state).toMatchObject({ variant: 'tavli', score: [5, 2], status: 'finished', winnerSide: 0, crawfordGameNo: null });
    expect(state.games.map((g: { variant: string; status: string }) => `${g.variant}:${g.status}`)).toEqual([
      'portes:finished',
      'plakoto:abandoned',
      'plakoto:finished',
      'fevga:finished',
      'portes:finished',
      'plakoto:finished',
    ]);
  });

  it('R8.6 a Tavla 31 match to 31 (the default target) is reached by checkersLeft', async () => {
    const m = await created('/v1/matches', { variant: 'tavla-31', sides: [[A], [B]] });
    expect(m).toMatchObject({ variant: 'tavla-31', target: 31 });
    // R8.6, R8.10: a Tavla 31 game ends with the checkers left, not a gammon and not without them.
    for (const action of [{ type: 'finish', winner: A }, end(A, 'gammon', { checkersLeft: 3 })]) {
      const res = await c.post(`/v1/matches/${m.id}/games`, { actions: [action] });
      expect({ action, status: res.status, code: res.body.code, rule: res.body.rule }).toEqual({ action, status: 422, code: 'RESULT_NOT_IN_VARIANT', rule: 'R8.10' });
      expect(res.body.detail).toMatch(/Tavla 31/);
    }
    expect((await c.post(`/v1/matches/${m.id}/games`, { actions: [left(A, 16)] })).status).toBe(400);
    expect((await c.get(`/v1/matches/${m.id}`)).body).toMatchObject({ games: [], version: m.version });
    expect(await game(`/v1/matches/${m.id}/games`, { actions: [left(A, 15)] })).toMatchObject({ points: 15, result: { winner: A, result: 'single', checkersLeft: 15 } });
    await game(`/v1/matches/${m.id}/games`, { actions: [left(B, 7)] });
    await game(`/v1/matches/${m.id}/games`, { actions: [left(A, 15)] });
    expect((await c.get(`/v1/matches/${m.id}`)).body).toMatchObject({ score: [30, 7], status: 'in-progress' });
    await game(`/v1/matches/${m.id}/games`, { actions: [left(A, 1)] });
    expect((await c.get(`/v1/matches/${m.id}`)).body).toMatchObject({ score: [31, 7], status: 'finished', winnerSide: 0 });
  });

  it('R8.8 money tables in long nardy and Tavla 31: stake × points, a draw posts nothing, and the session settles', async () => {
    const s = await c.session({ currency: 'EUR' });
    const nardy = await created('/v1/money-games', { sessionId: s, variant: 'long-nardy', players: [A, B], stakeMinor: 100, rules: { jacoby: false } });
    expect(nardy).toMatchObject({ variant: 'long-nardy', status: 'in-progress', pointsTotal: { [A]: 0, [B]: 0 } });
    // Mars to Anna: Ben pays 2 × 100; oin to Ben: Anna pays 100.
    expect((await game(`/v1/money-games/${nardy.id}/games`, { actions: [end(A, 'mars')] })).payouts).toEqual([{ from: B, to: A, amountMinor: 200, kind: 'game' }]);
    expect((await game(`/v1/money-games/${nardy.id}/games`, { actions: [end(B, 'oin')] })).payouts).toEqual([{ from: A, to: B, amountMinor: 100, kind: 'game' }]);
    expect((await c.get(`/v1/money-games/${nardy.id}`)).body).toMatchObject({ netMinor: { [A]: 100, [B]: -100 }, pointsTotal: { [A]: 2, [B]: 1 } });

    const tavla = await created('/v1/money-games', { sessionId: s, variant: 'tavla-31', players: [B, C], stakeMinor: 10 });
    // Ben wins with 7 of Carl's checkers left: 70; Carl wins with 3 left: 30.
    expect((await game(`/v1/money-games/${tavla.id}/games`, { actions: [left(B, 7)] })).payouts).toEqual([{ from: C, to: B, amountMinor: 70, kind: 'game' }]);
    expect((await game(`/v1/money-games/${tavla.id}/games`, { actions: [left(C, 3)] })).payouts).toEqual([{ from: B, to: C, amountMinor: 30, kind: 'game' }]);

    const plakoto = await created('/v1/money-games', { sessionId: s, variant: 'plakoto', players: [A, C], stakeMinor: 50 });
    expect(await game(`/v1/money-games/${plakoto.id}/games`, { actions: [draw] })).toMatchObject({ points: 0, winnerSide: null, payouts: [] });
    expect((await c.get(`/v1/money-games/${plakoto.id}`)).body).toMatchObject({ netMinor: { [A]: 0, [C]: 0 }, pointsTotal: { [A]: 0, [C]: 0 } });

    const ledger = (await c.get(`/v1/sessions/${s}/ledger`)).body.items as Array<{ from: string; to: string; amountMinor: number; kind: string }>;
    expect(ledger.map((e) => [e.from, e.to, e.amountMinor, e.kind])).toEqual([
      [B, A, 200, 'game'],
      [A, B, 100, 'game'],
      [C, B, 70, 'game'],
      [B, C, 30, 'game'],
    ]);
    // Nets: Anna +100, Ben −100 + 40 = −60, Carl −40.
    const st = (await c.get(`/v1/sessions/${s}/settlement`)).body;
    const net = Object.fromEntries((st.players as Array<{ playerId: string; netMinor: number }>).map((p) => [p.playerId, p.netMinor]));
    expect(net).toEqual({ [A]: 100, [B]: -60, [C]: -40 });
    expect(st.totalMinor).toBe(0);
    expect(st.transfers).toEqual(expect.arrayContaining([expect.objectContaining({ from: B, to: A, amountMinor: 60 }), expect.objectContaining({ from: C, to: A, amountMinor: 40 })]));
    expect(st.transfers).toHaveLength(2);
  });

  it('R4.4 stopAtLead finishes a money table, refuses new games, and a void reopens it', async () => {
    const s = await c.session();
    const table = await created('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: 100, rules: { jacoby: false, stopAtLead: 3 } });
    expect(table).toMatchObject({ variant: 'backgammon', rules: { stopAtLead: 3 }, status: 'in-progress' });
    // Gammon to Anna (2), then a single (1): 3-0, a lead of 3.
    await game(`/v1/money-games/${table.id}/games`, { actions: [end(A, 'gammon')] });
    expect((await c.get(`/v1/money-games/${table.id}`)).body).toMatchObject({ status: 'in-progress', pointsTotal: { [A]: 2, [B]: 0 } });
    await game(`/v1/money-games/${table.id}/games`, { actions: [end(A, 'single')] });
    const finished = (await c.get(`/v1/money-games/${table.id}`)).body;
    expect(finished).toMatchObject({ status: 'finished', pointsTotal: { [A]: 3, [B]: 0 }, netMinor: { [A]: 300, [B]: -300 } });
    const refused = await c.post(`/v1/money-games/${table.id}/games`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'TABLE_FINISHED', rule: 'R4.4' });
    expect((await c.get(`/v1/money-games/${table.id}`)).body).toMatchObject({ version: finished.version, games: [{ gameNo: 1 }, { gameNo: 2 }] });
    // Voiding the game that reached the lead reopens the table.
    expect((await c.post(`/v1/money-games/${table.id}/games/2/void`, { reason: 'Wrong result' })).status).toBe(200);
    expect((await c.get(`/v1/money-games/${table.id}`)).body).toMatchObject({ status: 'in-progress', pointsTotal: { [A]: 2, [B]: 0 } });
    expect(await game(`/v1/money-games/${table.id}/games`)).toMatchObject({ gameNo: 3, status: 'in-progress' });
  });

  it('R8.10 every refusal names the variant and writes nothing', async () => {
    const s = await c.session();
    const count = async (url: string) => ((await c.get(url)).body.items as unknown[]).length;
    const matchesBefore = await count(`/v1/matches?playerId=${C}`);
    const moneyBefore = await count(`/v1/money-games?sessionId=${s}`);

    const refusals: Array<[string, object, string]> = [
      ['/v1/matches', { variant: 'portes', sides: [[A], [C]], target: 5, rules: { cube: true } }, 'Portes'],
      ['/v1/matches', { variant: 'backgammon', sides: [[A], [C]], target: 5, rules: { cube: true } }, 'Backgammon'],
      ['/v1/matches', { variant: 'tavli', sides: [[A], [C]], target: 5, rules: { crawford: true } }, 'Tavli'],
      ['/v1/money-games', { sessionId: s, variant: 'fevga', players: [A, C], stakeMinor: 1, rules: { jacoby: true } }, 'Fevga'],
      ['/v1/money-games', { sessionId: s, variant: 'long-nardy', players: [A, C], stakeMinor: 1, rules: { beavers: true } }, 'long nardy'],
      ['/v1/money-games', { sessionId: s, variant: 'tavla-31', players: [A, C], stakeMinor: 1, rules: { automaticDoubles: 1 } }, 'Tavla 31'],
    ];
    for (const [url, body, name] of refusals) {
      const res = await c.post(url, body);
      expect({ url, status: res.status, code: res.body.code, rule: res.body.rule }).toEqual({ url, status: 422, code: 'SETTING_NOT_IN_VARIANT', rule: 'R8.10' });
      expect(res.body.detail).toContain(name);
    }
    expect(await count(`/v1/matches?playerId=${C}`)).toBe(matchesBefore);
    expect(await count(`/v1/money-games?sessionId=${s}`)).toBe(moneyBefore);

    // Settings the variant lacks, sent switched off, are accepted and ignored.
    const off = await created('/v1/money-games', {
      sessionId: s,
      variant: 'fevga',
      players: [A, C],
      stakeMinor: 1,
      rules: { jacoby: false, beavers: false, automaticDoubles: 0, cube: false },
    });
    expect(off.rules).toMatchObject({ jacoby: false, beavers: false, automaticDoubles: 0 });

    // In a game: a double in Portes, a result another variant has, checkersLeft outside Tavla 31.
    const portes = await created('/v1/matches', { variant: 'portes', sides: [[A], [C]], target: 3 });
    const g = await game(`/v1/matches/${portes.id}/games`);
    const inGame: Array<[object, string]> = [
      [double(A), 'NO_CUBE_IN_VARIANT'],
      [take(C), 'NO_CUBE_IN_VARIANT'],
      [end(A, 'backgammon'), 'RESULT_NOT_IN_VARIANT'],
      [end(A, 'mother'), 'RESULT_NOT_IN_VARIANT'],
      [draw, 'RESULT_NOT_IN_VARIANT'],
      [left(A, 5), 'RESULT_NOT_IN_VARIANT'],
    ];
    for (const [action, code] of inGame) {
      const res = await c.post(`/v1/matches/${portes.id}/games/1/actions`, action);
      expect({ action, status: res.status, code: res.body.code, rule: res.body.rule }).toEqual({ action, status: 422, code, rule: 'R8.10' });
      expect(res.body.detail).toMatch(/Portes|Tavla 31/);
    }
    expect((await c.get(`/v1/matches/${portes.id}/games/1`)).body).toMatchObject({ status: 'in-progress', actions: [], version: g.version });

    // A whole game sent at once is all or nothing: no game is written.
    const nardy = await created('/v1/matches', { variant: 'long-nardy', sides: [[A], [C]], target: 3 });
    const batch = await c.post(`/v1/matches/${nardy.id}/games`, { actions: [end(A, 'gammon')] });
    expect(batch.body).toMatchObject({ code: 'RESULT_NOT_IN_VARIANT', rule: 'R8.10' });
    expect((await c.get(`/v1/matches/${nardy.id}`)).body).toMatchObject({ games: [], score: [0, 0], version: nardy.version });
    // checkersLeft outside Tavla 31 at a backgammon money table, and an automatic double where there is no cube.
    const bg = await created('/v1/money-games', { sessionId: s, players: [A, C], stakeMinor: 1 });
    expect((await c.post(`/v1/money-games/${bg.id}/games`, { actions: [left(A, 4)] })).body).toMatchObject({ code: 'RESULT_NOT_IN_VARIANT', rule: 'R8.10' });
    expect((await c.post(`/v1/money-games/${off.id}/games`, { automaticDoubles: 1 })).body).toMatchObject({ code: 'NO_CUBE_IN_VARIANT', rule: 'R8.10' });
    expect((await c.get(`/v1/money-games/${bg.id}`)).body.games).toEqual([]);
    expect((await c.get(`/v1/money-games/${off.id}`)).body.games).toEqual([]);

    // Chouettes are backgammon only: a variant is not accepted there.
    const chouette = await c.post('/v1/chouettes', { sessionId: s, stakeMinor: 1, seating: { order: [A, B, C] }, variant: 'portes' });
    expect(chouette.status).toBe(400);
  });

  it('the statistics, money and ratings the commands kept for these games equal a rebuild from them', async () => {
    const [{ club_id: clubId }] = await t.sql<{ club_id: string }>('SELECT club_id FROM players WHERE id = $1', [A]);
    expect(await t.sql('SELECT count(*)::int AS n FROM player_stats WHERE club_id = $1', [clubId])).not.toEqual([{ n: 0 }]);
    expect(await readModelDifferences(t)).toEqual([]);
    // A finished Tavli match holding a Plakoto draw (R8.3) counts in its players' statistics (a
    // draw has no winning side: reading it as one once made this answer fail).
    const [{ n }] = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_tables t JOIN table_players tp ON tp.club_id = t.club_id AND tp.table_id = t.id
        WHERE tp.player_id = $1 AND t.kind = 'match' AND t.status = 'finished'
          AND EXISTS (SELECT 1 FROM games g WHERE g.club_id = t.club_id AND g.table_id = t.id AND g.status = 'finished' AND g.winner_side IS NULL)`,
      [A],
    );
    expect(n).toBeGreaterThan(0);
    const anna = await c.get(`/v1/players/${A}`);
    expect(anna.status).toBe(200);
    expect(anna.body.stats.matchesPlayed).toBeGreaterThanOrEqual(n);

    // A club queued for a rebuild (as a migration that adds a read model queues every club) is
    // rebuilt by the start-up step and dequeued: its emptied statistics come back whole.
    await t.sql('UPDATE player_stats SET games_played = 0, matches_played = 0 WHERE club_id = $1', [clubId]);
    await t.sql('INSERT INTO read_model_rebuilds (club_id) VALUES ($1)', [clubId]);
    const owner = new Client({ connectionString: t.dbUrl });
    await owner.connect();
    try {
      expect(await rebuildQueued(owner)).toBe(1);
      expect(await rebuildQueued(owner)).toBe(0);
    } finally {
      await owner.end();
    }
    expect(await t.sql('SELECT club_id FROM read_model_rebuilds')).toEqual([]);
    expect(await readModelDifferences(t)).toEqual([]);
    expect((await c.get(`/v1/players/${A}`)).body.stats).toEqual(anna.body.stats);
  });
});
