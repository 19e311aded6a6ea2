import { parseCsv } from './support/csv';
import { bearer, startApp, TestApp } from './support/app';
import { beaver, clubWith, double, finish, pass, take } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * Player statistics (GET /v1/players/{id}), session standings and the session's
 * games (JSON and CSV) over HTTP. Every number below is worked out by hand.
 *
 * Session S (USD, no rake):
 *   Money Anna–Ben, 100/pt, no Jacoby, beavers on:
 *     g1 Anna doubles, Ben takes, Anna wins a gammon: 2 × 2 = 4 pts, Ben pays 400.
 *     g2 Ben doubles, Anna passes: Ben wins the undoubled 1 pt (single, R1.3), Anna pays 100.
 *     g3 Anna doubles, Ben takes, Ben redoubles, Anna takes, Ben wins a backgammon: 4 × 3 = 12 pts, Anna pays 1200.
 *     g4 Ben doubles, Anna beavers (4, hers), Ben takes, Ben resigns a gammon: 4 × 2 = 8 pts, Ben pays 800.
 *     g5 Anna doubles, Ben takes, Anna wins single (2 pts), then VOIDED: counts for nothing.
 *     g6 Anna doubles, then ABANDONED: counts for nothing.
 *     g7 started and left in progress: not listed, not counted.
 *     → Anna +400 − 100 − 1200 + 800 = −100; Ben +100.
 *   Match Anna–Cleo to 3, stake 200:
 *     g1 Anna doubles, Cleo takes, Cleo wins single: 2 pts, 0-2 (Cleo at target − 1).
 *     g2 the Crawford game, no cube: Anna wins a gammon: 2 pts, 2-2.
 *     penalty: 1 point to Cleo (side 1): 2-3, Cleo wins the match (R3.6) though Anna won
 *     its last game. Anna pays the stake, 200.
 *   Chouette, 100/pt, no Jacoby, order Dan (box), Anna (captain), Cleo:
 *     g1 Dan doubles both cubes; Anna takes (2, hers), Cleo passes (pays Dan 1 × 100);
 *        the team wins a gammon: Dan pays Anna 2 × 2 × 100 = 400. winnerSide 1 (team).
 *        Each member's game is his own cube's (R5.4, R5.5): Anna won (a gammon), Cleo lost
 *        (a single, by her pass); Dan's cubes net him 1 − 4 = −3 points: he lost.
 *   Payment: Dan → Eve 50 (Eve is in the statement through it alone).
 *   Nets: Anna −100 − 200 + 400 = 100; Ben 100; Cleo 200 − 100 = 100; Dan 100 − 400 = −300; Eve 0.
 *   Finished games (played / won): Anna 4 + 2 + 1 = 7 / g1, g4, match g2, chouette = 4;
 *   Ben 4 / g2, g3 = 2; Cleo 2 + 1 = 3 / match g1 = 1; Dan 1 / 0; Eve 0 / 0.
 *   Standings: Anna (100, 4) 1; Ben (100, 2) 2; Cleo (100, 1) 3; Eve (0, 0) 4;
 *   Dan (−300, 0) 5.
 *
 * Session E (EUR): money Anna–Ben, 50/pt: Ben wins single: Anna pays 50.
 * No session: match Anna–Ben to 3: g1 Anna wins a gammon, 2-0, in progress.
 *
 * Anna, over the club:
 *   games 4 (money S) + 2 (match) + 1 (chouette) + 1 (EUR) + 1 (no session) = 9;
 *   won: money g1, g4, match g2, chouette, no-session g1 = 5;
 *   gammons won: money g1, g4 (resigned at gammon), match g2, chouette, no-session g1 = 5; lost 0;
 *   backgammons won 0, lost 1 (money g3);
 *   doubles: money g1, g3, match g1 = 3 (the voided g5 and abandoned g6 do not count);
 *   takes: money g3, chouette = 2; passes: money g2 = 1; beavers: money g4 = 1;
 *   matches: 1 finished (Cleo's; the no-session match is in progress), won 0;
 *   money: EUR −50, USD 100.
 * Cleo: games 3 (match 2, chouette 1), won 1 (match g1; in the chouette she passed and
 *   lost, though the team won); gammons won 0, lost 1 (match g2); takes 1 (match g1),
 *   passes 1 (chouette); matches 1, won 1 (by the penalty); money USD 100.
 * Ben: games 6, won 3 (g2, g3, EUR); gammons lost 3 (g1, g4, no-session), backgammons
 *   won 1; doubles 3 (g2, g3 redouble, g4), takes 3 (g1, g3, g4); no match finished;
 *   money EUR 50, USD 100.
 */
describe("player statistics, standings and the session's games over HTTP", () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string, E: string;
  let S: string;
  let money: string, match: string, chouette: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve']);
    ({ Anna: A, Ben: B, Cleo: C, Dan: D, Eve: E } = c.ids);
    S = await c.session({ name: 'Tuesday night' });
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const ok = async (res: Promise<{ status: number; body: unknown }>, status = 201) => {
    const r = await res;
    expect({ status: r.status, body: r.body }).toMatchObject({ status });
    return r.body as Record<string, unknown>;
  };
  const zero = {
    matchesPlayed: 0,
    matchesWon: 0,
    gamesPlayed: 0,
    gamesWon: 0,
    gammonsWon: 0,
    gammonsLost: 0,
    backgammonsWon: 0,
    backgammonsLost: 0,
    doubles: 0,
    takes: 0,
    passes: 0,
    beavers: 0,
    resignationsOffered: 0,
    resignationsAccepted: 0,
    resignationsRefused: 0,
    money: [],
  };

  it('plays the evening', async () => {
    money = (await ok(c.post('/v1/money-games', { sessionId: S, players: [A, B], stakeMinor: 100, rules: { jacoby: false, beavers: true } }))).id as string;
    const game = (actions: object[]) => ok(c.post(`/v1/money-games/${money}/games`, { actions }));
    expect(await game([double(A), take(B), finish(A, 'gammon')])).toMatchObject({ points: 4, winnerSide: 0 });
    expect(await game([double(B), pass(A)])).toMatchObject({ points: 1, winnerSide: 1, result: null });
    expect(await game([double(A), take(B), double(B), take(A), finish(B, 'backgammon')])).toMatchObject({ points: 12, winnerSide: 1 });
    expect(await game([double(B), beaver(A), take(B), finish(A, 'gammon', true)])).toMatchObject({ points: 8, winnerSide: 0 });
    await game([double(A), take(B), finish(A)]);
    await ok(c.post(`/v1/money-games/${money}/games/5/void`, { reason: 'wrong winner' }), 200);
    await game([double(A)]);
    await ok(c.post(`/v1/money-games/${money}/games/6/abandon`), 200);

    match = (await ok(c.post('/v1/matches', { sessionId: S, sides: [[A], [C]], target: 3, stakeMinor: 200 }))).id as string;
    await ok(c.post(`/v1/matches/${match}/games`, { actions: [double(A), take(C), finish(C)] }));
    expect(await ok(c.post(`/v1/matches/${match}/games`, { actions: [finish(A, 'gammon')] }))).toMatchObject({ crawford: true, points: 2 });
    expect(await ok(c.post(`/v1/matches/${match}/penalties`, { side: 1, points: 1, reason: 'Late back from the break' }))).toMatchObject({
      status: 'finished',
      score: [2, 3],
      winnerSide: 1,
    });

    chouette = (await ok(c.post('/v1/chouettes', { sessionId: S, stakeMinor: 100, seating: { order: [D, A, C] }, rules: { jacoby: false } }))).id as string;
    const cg = await ok(c.post(`/v1/chouettes/${chouette}/games`, { actions: [double(D), take(A), pass(C), finish(A, 'gammon')] }));
    expect(cg).toMatchObject({ winnerSide: 1, points: null });
    expect(cg.payouts).toEqual([
      { from: D, to: A, amountMinor: 400, kind: 'game' },
      { from: C, to: D, amountMinor: 100, kind: 'game' },
    ]);

    await ok(c.post(`/v1/sessions/${S}/payments`, { from: D, to: E, amountMinor: 50 }));
    await ok(c.post(`/v1/money-games/${money}/games`, {}));

    const euro = await c.session({ name: 'Euro night', currency: 'EUR' });
    const eur = (await ok(c.post('/v1/money-games', { sessionId: euro, players: [A, B], stakeMinor: 50 }))).id as string;
    await ok(c.post(`/v1/money-games/${eur}/games`, { actions: [finish(B)] }));

    const friendly = (await ok(c.post('/v1/matches', { sides: [[A], [B]], target: 3 }))).id as string;
    await ok(c.post(`/v1/matches/${friendly}/games`, { actions: [finish(A, 'gammon')] }));
    expect((await c.get(`/v1/matches/${friendly}`)).body).toMatchObject({ status: 'in-progress', score: [2, 0] });

    // The statement agrees with the nets worked out above.
    const st = (await c.get(`/v1/sessions/${S}/settlement`)).body;
    const nets = Object.fromEntries(st.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]));
    expect(nets).toEqual({ [A]: 100, [B]: 100, [C]: 100, [D]: -300, [E]: 0 });
  });

  it("GET /v1/players/{id}: every statistic of Anna, with the player's own fields kept", async () => {
    const res = await c.get(`/v1/players/${A}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: A, name: 'Anna', nickname: null });
    // Rating, experience and version are whatever the finished match made them (R7.1).
    expect(typeof res.body.rating).toBe('number');
    expect(typeof res.body.experience).toBe('number');
    expect(Number.isInteger(res.body.version)).toBe(true);
    expect(res.headers.etag).toBe(`"${res.body.version}"`);
    expect(res.body.stats).toEqual({
      matchesPlayed: 1,
      matchesWon: 0,
      gamesPlayed: 9,
      gamesWon: 5,
      gammonsWon: 5,
      gammonsLost: 0,
      backgammonsWon: 0,
      backgammonsLost: 1,
      doubles: 3,
      takes: 2,
      passes: 1,
      beavers: 1,
      resignationsOffered: 0,
      resignationsAccepted: 0,
      resignationsRefused: 0,
      money: [
        { currency: 'EUR', netMinor: -50 },
        { currency: 'USD', netMinor: 100 },
      ],
    });
  });

  it('every statistic of Cleo: the match won by a penalty, the chouette game lost by her pass (R5.4)', async () => {
    expect((await c.get(`/v1/players/${C}`)).body.stats).toEqual({
      matchesPlayed: 1,
      matchesWon: 1,
      gamesPlayed: 3,
      gamesWon: 1,
      gammonsWon: 0,
      gammonsLost: 1,
      backgammonsWon: 0,
      backgammonsLost: 0,
      doubles: 0,
      takes: 1,
      passes: 1,
      beavers: 0,
      resignationsOffered: 0,
      resignationsAccepted: 0,
      resignationsRefused: 0,
      money: [{ currency: 'USD', netMinor: 100 }],
    });
  });

  it('Ben, Dan and Eve', async () => {
    expect((await c.get(`/v1/players/${B}`)).body.stats).toEqual({
      matchesPlayed: 0,
      matchesWon: 0,
      gamesPlayed: 6,
      gamesWon: 3,
      gammonsWon: 0,
      gammonsLost: 3,
      backgammonsWon: 1,
      backgammonsLost: 0,
      doubles: 3,
      takes: 3,
      passes: 0,
      beavers: 0,
      resignationsOffered: 0,
      resignationsAccepted: 0,
      resignationsRefused: 0,
      money: [
        { currency: 'EUR', netMinor: 50 },
        { currency: 'USD', netMinor: 100 },
      ],
    });
    expect((await c.get(`/v1/players/${D}`)).body.stats).toEqual({ ...zero, gamesPlayed: 1, gammonsLost: 1, doubles: 1, money: [{ currency: 'USD', netMinor: -300 }] });
    // Payments are not nets: Eve received cash but won nothing.
    expect((await c.get(`/v1/players/${E}`)).body.stats).toEqual(zero);
  });

  it('the list stays lean; an unknown player is 404; another club sees nothing', async () => {
    const list = await c.get('/v1/players');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(5);
    for (const p of list.body.items) expect(p).not.toHaveProperty('stats');
    const missing = await c.get('/v1/players/00000000-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
    const other = await clubWith(t, ['Zed']);
    expect((await other.get(`/v1/players/${A}`)).status).toBe(404);
    expect((await other.get(`/v1/players/${other.ids.Zed}`)).body.stats).toEqual(zero);
  });

  it('GET /v1/sessions/{id}/standings: by net, then games won (1, 2, 3, 4, 5)', async () => {
    const res = await c.get(`/v1/sessions/${S}/standings`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sessionId: S,
      sessionName: 'Tuesday night',
      currency: 'USD',
      items: [
        { rank: 1, playerId: A, name: 'Anna', netMinor: 100, gamesPlayed: 7, gamesWon: 4, matchesWon: 0, matchesLost: 1, forfeitsWon: 0, forfeitsLost: 0 },
        { rank: 2, playerId: B, name: 'Ben', netMinor: 100, gamesPlayed: 4, gamesWon: 2, matchesWon: 0, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 },
        { rank: 3, playerId: C, name: 'Cleo', netMinor: 100, gamesPlayed: 3, gamesWon: 1, matchesWon: 1, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 },
        { rank: 4, playerId: E, name: 'Eve', netMinor: 0, gamesPlayed: 0, gamesWon: 0, matchesWon: 0, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 },
        { rank: 5, playerId: D, name: 'Dan', netMinor: -300, gamesPlayed: 1, gamesWon: 0, matchesWon: 0, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 },
      ],
    });
    // The statement counts the same games.
    const st = (await c.get(`/v1/sessions/${S}/settlement`)).body;
    const games = Object.fromEntries(st.players.map((p: { playerId: string; games: number }) => [p.playerId, p.games]));
    expect(games).toEqual({ [A]: 7, [B]: 4, [C]: 3, [D]: 1, [E]: 0 });
    expect((await c.get('/v1/sessions/00000000-0000-7000-8000-000000000000/standings')).status).toBe(404);
    const viewer = (await c.post('/v1/api-keys', { name: 'board', role: 'viewer' })).body.token as string;
    expect((await t.http().get(`/v1/sessions/${S}/standings`).set(bearer(viewer))).status).toBe(200);
  });

  /** The session's games as the JSON list gives them, worked out from the evening above. */
  const expectedGames = () => [
    {
      tableKind: 'money',
      tableId: money,
      gameNo: 1,
      status: 'finished',
      players: [A, B],
      winnerSide: 0,
      winners: [A],
      result: { winner: A, result: 'gammon', resigned: false },
      endedBy: 'finish',
      points: 4,
      voidReason: null,
      matchEndedBy: null,
    },
    {
      tableKind: 'money',
      tableId: money,
      gameNo: 2,
      status: 'finished',
      players: [A, B],
      winnerSide: 1,
      winners: [B],
      result: null,
      endedBy: 'pass',
      points: 1,
      voidReason: null,
      matchEndedBy: null,
    },
    {
      tableKind: 'money',
      tableId: money,
      gameNo: 3,
      status: 'finished',
      players: [A, B],
      winnerSide: 1,
      winners: [B],
      result: { winner: B, result: 'backgammon', resigned: false },
      endedBy: 'finish',
      points: 12,
      voidReason: null,
      matchEndedBy: null,
    },
    {
      tableKind: 'money',
      tableId: money,
      gameNo: 4,
      status: 'finished',
      players: [A, B],
      winnerSide: 0,
      winners: [A],
      result: { winner: A, result: 'gammon', resigned: true },
      endedBy: 'finish',
      points: 8,
      voidReason: null,
      matchEndedBy: null,
    },
    {
      tableKind: 'money',
      tableId: money,
      gameNo: 5,
      status: 'voided',
      players: [A, B],
      winnerSide: 0,
      winners: [A],
      result: { winner: A, result: 'single', resigned: false },
      endedBy: 'finish',
      points: 2,
      voidReason: 'wrong winner',
      matchEndedBy: null,
    },
    {
      tableKind: 'money',
      tableId: money,
      gameNo: 6,
      status: 'abandoned',
      players: [A, B],
      winnerSide: null,
      winners: [],
      result: null,
      endedBy: null,
      points: null,
      voidReason: null,
      matchEndedBy: null,
    },
    {
      tableKind: 'match',
      tableId: match,
      gameNo: 1,
      status: 'finished',
      players: [A, C],
      winnerSide: 1,
      winners: [C],
      result: { winner: C, result: 'single', resigned: false },
      endedBy: 'finish',
      points: 2,
      voidReason: null,
      matchEndedBy: null,
    },
    {
      tableKind: 'match',
      tableId: match,
      gameNo: 2,
      status: 'finished',
      players: [A, C],
      winnerSide: 0,
      winners: [A],
      result: { winner: A, result: 'gammon', resigned: false },
      endedBy: 'finish',
      points: 2,
      voidReason: null,
      // The match's last game: the penalty after it took Cleo to 3 (R3.6), so it ended by points (R3.2).
      matchEndedBy: { kind: 'points' },
    },
    {
      tableKind: 'chouette',
      tableId: chouette,
      gameNo: 1,
      status: 'finished',
      players: [D, A, C],
      winnerSide: 1,
      winners: [A],
      result: { winner: A, result: 'gammon', resigned: false },
      endedBy: 'finish',
      points: null,
      voidReason: null,
      matchEndedBy: null,
    },
  ];

  it('GET /v1/sessions/{id}/games: finished, voided and abandoned games, paged, in progress left out', async () => {
    const all: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await c.get(`/v1/sessions/${S}/games?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      all.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(all.map(({ startedAt: _s, endedAt: _e, ...rest }) => rest)).toEqual(expectedGames().map((g) => ({ ...g, variant: 'backgammon' })));
    for (const g of all) {
      expect(g.startedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(g.endedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect((await c.get(`/v1/sessions/${S}/games?cursor=bogus`)).status).toBe(400);
    expect((await c.get(`/v1/sessions/${S}/games?limit=0`)).status).toBe(400);
  });

  it('GET /v1/sessions/{id}/games as CSV: the same games, read back with parseCsv', async () => {
    const res = await c.get(`/v1/sessions/${S}/games`).set('accept', 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="games-${S}.csv"`);
    expect(res.headers.vary).toMatch(/Accept/i);
    expect(res.text.endsWith('\r\n')).toBe(true);
    expect(res.text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([
      'tableKind',
      'tableId',
      'gameNo',
      'status',
      'startedAt',
      'endedAt',
      'players',
      'winnerSide',
      'winners',
      'result',
      'resigned',
      'endedBy',
      'points',
      'voidReason',
      'playerIds',
      'winnerIds',
      'variant',
      'checkersLeft',
      'matchEndedBy',
      'forfeitSide',
      'forfeitReason',
    ]);
    const name: Record<string, string> = { [A]: 'Anna', [B]: 'Ben', [C]: 'Cleo', [D]: 'Dan' };
    const json = (await c.get(`/v1/sessions/${S}/games?limit=200`)).body.items;
    expect(rows).toEqual(
      json.map((g: Omit<ReturnType<typeof expectedGames>[number], 'matchEndedBy'> & { startedAt: string; endedAt: string | null; matchEndedBy: { kind: string } | null }) => [
        g.tableKind,
        g.tableId,
        String(g.gameNo),
        g.status,
        g.startedAt,
        g.endedAt ?? '',
        g.players.map((p) => name[p]).join(' / '),
        g.winnerSide === null ? '' : String(g.winnerSide),
        g.winners.map((p) => name[p]).join(' / '),
        g.result?.result ?? '',
        g.result ? String(g.result.resigned) : '',
        g.endedBy ?? '',
        g.points === null ? '' : String(g.points),
        g.voidReason ?? '',
        g.players.join(' '),
        g.winners.join(' '),
        'backgammon',
        '',
        g.matchEndedBy?.kind ?? '',
        '',
        '',
      ]),
    );
    // Spelled out for three of the rows.
    const cells = (i: number) => rows[i].slice(2, 14);
    expect(cells(1)).toEqual(['2', 'finished', rows[1][4], rows[1][5], 'Anna / Ben', '1', 'Ben', '', '', 'pass', '1', '']);
    expect(cells(4)).toEqual(['5', 'voided', rows[4][4], rows[4][5], 'Anna / Ben', '0', 'Anna', 'single', 'false', 'finish', '2', 'wrong winner']);
    expect(cells(8)).toEqual(['1', 'finished', rows[8][4], rows[8][5], 'Dan / Anna / Cleo', '1', 'Anna', 'gammon', 'false', 'finish', '', '']);
    expect(rows[8][0]).toBe('chouette');
  });

  it('the CSV guards names a spreadsheet would run as formulas; Accept it cannot serve is 406', async () => {
    const club = await clubWith(t, ['=HYPERLINK("http://x")', 'Bo, "the cube"']);
    const { '=HYPERLINK("http://x")': X, 'Bo, "the cube"': Y } = club.ids;
    const s = await club.session();
    const table = (await club.post('/v1/money-games', { sessionId: s, players: [X, Y], stakeMinor: 10 })).body.id;
    await club.post(`/v1/money-games/${table}/games`, { actions: [finish(Y)] });
    const res = await club.get(`/v1/sessions/${s}/games`).set('accept', 'text/csv');
    const [, row] = parseCsv(res.text);
    expect(row[6]).toBe('\'=HYPERLINK("http://x") / Bo, "the cube"');
    expect(row[8]).toBe('Bo, "the cube"');
    expect(res.text).toContain('"\'=HYPERLINK(""http://x"") / Bo, ""the cube"""');

    const pdf = await club.get(`/v1/sessions/${s}/games`).set('accept', 'application/pdf');
    expect(pdf.status).toBe(406);
    expect(pdf.body).toMatchObject({ code: 'NOT_ACCEPTABLE' });
    expect((await club.get(`/v1/sessions/${S}/games`).set('accept', 'text/csv')).status).toBe(404);
  });
});
