import { startApp, TestApp } from './support/app';
import { clubWith, double, finish, nets, take } from './support/club';
import { readModelDifferences } from './support/read-models';

interface Entry {
  gameRef: { tableId: string; gameNo: number | null };
  from: string;
  to: string;
  amountMinor: number;
  kind: string;
}

describe('team events (R3.7) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string, E: string, F: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Carl', 'Dora', 'Emil', 'Fay']);
    ({ Anna: A, Ben: B, Carl: C, Dora: D, Emil: E, Fay: F } = c.ids);
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const teams = (north: string[], south: string[]) => [
    { name: 'North', players: north },
    { name: 'South', players: south },
  ];
  const event = async (id: string) => {
    const res = await c.get(`/v1/team-events/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(`"${res.body.version}"`);
    return res.body;
  };
  const count = async (table: string) => Number((await t.sql<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0].n);

  it('plays three boards to 3 points with a stake per board: decided by a majority before the last board, un-decided by a void (R3.7, R3.8, R6.3)', async () => {
    const session = await c.session();
    const created = await c.post('/v1/team-events', { name: 'North v South', sessionId: session, target: 3, stakeMinor: 500, teams: teams([A, B, C], [D, E, F]) });
    expect(created.status).toBe(201);
    expect(created.headers.etag).toBe('"1"');
    expect(created.body).toMatchObject({
      name: 'North v South',
      sessionId: session,
      target: 3,
      rules: { crawford: true, deadCube: 'refuse' },
      stakeMinor: 500,
      currency: 'USD',
      teams: teams([A, B, C], [D, E, F]),
      score: [0, 0],
      majority: 2,
      status: 'in-progress',
      winnerTeam: null,
      decidedAt: null,
      version: 1,
    });
    const id = created.body.id as string;
    const boards = created.body.boards as Array<{ boardNo: number; matchId: string; players: string[] }>;
    expect(boards.map((b) => [b.boardNo, b.players])).toEqual([
      [1, [A, D]],
      [2, [B, E]],
      [3, [C, F]],
    ]);
    const [m1, m2, m3] = boards.map((b) => b.matchId);
    expect(await event(id)).toEqual(created.body);

    // Every board is an ordinary match of the session, carrying the stake (R3.8).
    for (const [i, b] of boards.entries()) {
      const m = (await c.get(`/v1/matches/${b.matchId}`)).body;
      expect(m).toMatchObject({ sessionId: session, sides: [[[A, B, C][i]], [[D, E, F][i]]], target: 3, stakeMinor: 500, status: 'in-progress', score: [0, 0] });
    }

    // Board 1: Anna wins a backgammon, 3-0.
    const g1 = await c.post(`/v1/matches/${m1}/games`, { actions: [finish(A, 'backgammon')] });
    expect(g1.status).toBe(201);
    expect(g1.body).toMatchObject({ points: 3, winnerSide: 0 });
    let e = await event(id);
    expect(e).toMatchObject({ score: [1, 0], status: 'in-progress', winnerTeam: null, decidedAt: null });
    expect(e.boards[0]).toMatchObject({ score: [3, 0], status: 'finished', winnerTeam: 0, endedBy: { kind: 'points' } });
    expect(e.boards[0].endedAt).toEqual(expect.any(String));
    expect(e.boards[1].endedBy).toBeNull();
    expect(e.version).toBeGreaterThan(1);

    // Board 2: Ben wins a single (1-0: the event does not move), then a doubled game (3-0).
    await c.post(`/v1/matches/${m2}/games`, { actions: [finish(B)] });
    e = await event(id);
    expect(e).toMatchObject({ score: [1, 0], status: 'in-progress' });
    expect(e.boards[1]).toMatchObject({ score: [1, 0], status: 'in-progress', winnerTeam: null, endedAt: null });
    const g22 = await c.post(`/v1/matches/${m2}/games`, { actions: [double(E), take(B), finish(B)] });
    expect(g22.body).toMatchObject({ gameNo: 2, points: 2, winnerSide: 0 });

    // 2-0: North has a majority of the three boards while board 3 has not started.
    e = await event(id);
    expect(e).toMatchObject({ score: [2, 0], status: 'decided', winnerTeam: 0 });
    expect(e.boards[1]).toMatchObject({ score: [3, 0], status: 'finished', winnerTeam: 0 });
    expect(e.boards[2]).toMatchObject({ score: [0, 0], status: 'in-progress', winnerTeam: null });
    expect(e.decidedAt).toBe(e.boards[1].endedAt);
    expect((await c.get(`/v1/matches/${m3}`)).body.games).toEqual([]);

    // Voiding the game that finished board 2 reopens the board and un-decides the event.
    const voided = await c.post(`/v1/matches/${m2}/games/2/void`, { reason: 'Wrong winner recorded' });
    expect(voided.status).toBe(200);
    e = await event(id);
    expect(e).toMatchObject({ score: [1, 0], status: 'in-progress', winnerTeam: null, decidedAt: null });
    expect(e.boards[1]).toMatchObject({ score: [1, 0], status: 'in-progress', winnerTeam: null, endedAt: null });

    // Replayed: Ben wins a gammon, 3-0 again; decided again.
    await c.post(`/v1/matches/${m2}/games`, { actions: [finish(B, 'gammon')] });
    e = await event(id);
    expect(e).toMatchObject({ score: [2, 0], status: 'decided', winnerTeam: 0 });
    const decidedAt = e.decidedAt;
    expect(decidedAt).toBe(e.boards[1].endedAt);

    // A forfeit ends a board too (R3.9), and its void reopens it: the event goes back to where it was.
    const forfeit = await c.post(`/v1/matches/${m3}/forfeit`, { side: 0, reason: 'no-show' });
    expect(forfeit.status).toBe(201);
    e = await event(id);
    expect(e.boards[2]).toMatchObject({ score: [0, 0], status: 'finished', winnerTeam: 1, endedBy: { kind: 'forfeit', side: 0, reason: 'no-show' } });
    expect((await c.post(`/v1/matches/${m3}/void`, { reason: 'Carl had phoned ahead' })).status).toBe(200);
    e = await event(id);
    expect(e).toMatchObject({ score: [2, 0], status: 'decided', winnerTeam: 0, decidedAt });
    expect(e.boards[2]).toMatchObject({ score: [0, 0], status: 'in-progress', winnerTeam: null, endedBy: null });

    // Board 3: Fay wins 2 (gammon) then 1 in the Crawford game: 0-3. Every board is over.
    await c.post(`/v1/matches/${m3}/games`, { actions: [finish(F, 'gammon')] });
    await c.post(`/v1/matches/${m3}/games`, { actions: [finish(F)] });
    e = await event(id);
    expect(e).toMatchObject({ score: [2, 1], status: 'finished', winnerTeam: 0, decidedAt });
    expect(e.boards.map((b: { score: number[]; status: string; winnerTeam: number }) => [b.score, b.status, b.winnerTeam])).toEqual([
      [[3, 0], 'finished', 0],
      [[3, 0], 'finished', 0],
      [[0, 3], 'finished', 1],
    ]);

    // The ledger: one stake per board, paid by the board's loser (R3.8); the voided ones reversed (R6.3).
    const ledger = await c.get(`/v1/sessions/${session}/ledger?limit=200`);
    expect(ledger.status).toBe(200);
    const entries = ledger.body.items as Entry[];
    const row = (x: Entry) => [x.gameRef.tableId, x.from, x.to, x.amountMinor];
    expect(entries.filter((x) => x.kind === 'match-stake').map(row)).toEqual([
      [m1, D, A, 500],
      [m2, E, B, 500],
      [m2, E, B, 500],
      [m3, C, F, 500], // the forfeit's, reversed by its void
      [m3, C, F, 500],
    ]);
    expect(entries.filter((x) => x.kind === 'void').map(row)).toEqual([
      [m2, B, E, 500],
      [m3, F, C, 500],
    ]);
    expect(entries.every((x) => x.kind === 'match-stake' || x.kind === 'void')).toBe(true);
    for (const [m, loser, winner] of [
      [m1, D, A],
      [m2, E, B],
      [m3, C, F],
    ]) {
      expect(nets(entries.filter((x) => x.gameRef.tableId === m))).toEqual({ [winner]: 500, [loser]: -500 });
    }

    // Listed with its session.
    const list = await c.get(`/v1/team-events?sessionId=${session}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [e], nextCursor: null });
  });

  it('decides a one-board event with its only match, and pages the list', async () => {
    const first = await c.post('/v1/team-events', { target: 1, teams: teams([A], [D]) });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: null, sessionId: null, stakeMinor: null, currency: null, majority: 1, status: 'in-progress' });
    await c.post(`/v1/matches/${first.body.boards[0].matchId}/games`, { actions: [finish(D)] });
    expect(await event(first.body.id)).toMatchObject({ score: [0, 1], status: 'finished', winnerTeam: 1 });

    const second = await c.post('/v1/team-events', { target: 5, rules: { crawford: false }, teams: teams([B, C, E], [F, A, D]) });
    expect(second.status).toBe(201);
    expect(second.body.rules).toMatchObject({ crawford: false });
    const m = (await c.get(`/v1/matches/${second.body.boards[2].matchId}`)).body;
    expect(m).toMatchObject({ sides: [[E], [D]], target: 5, rules: { crawford: false } });

    const p1 = await c.get('/v1/team-events?limit=1');
    expect(p1.body.items).toHaveLength(1);
    expect(p1.body.nextCursor).toEqual(expect.any(String));
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ id: string }>; nextCursor: string | null } } = await c.get(`/v1/team-events?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...page.body.items.map((i) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(all).toEqual(expect.arrayContaining([first.body.id, second.body.id]));
    expect(all).toEqual([...all].sort());
  });

  it('creates the event and its boards once for a repeated Idempotency-Key', async () => {
    const body = { target: 3, teams: teams([A, B, C], [D, E, F]) };
    const [events, tables] = [await count('team_events'), await count('game_tables')];
    const first = await c.post('/v1/team-events', body).set('idempotency-key', 'team-event-1');
    const again = await c.post('/v1/team-events', body).set('idempotency-key', 'team-event-1');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect([await count('team_events'), await count('game_tables')]).toEqual([events + 1, tables + 3]);
  });

  it("refuses unequal or even teams, a player twice, another club's player, a stake without a session, writing nothing (R3.7, R3.1, R3.8)", async () => {
    const other = await clubWith(t, ['Stranger']);
    const session = await c.session();
    const before = [await count('team_events'), await count('team_event_boards'), await count('game_tables')];
    const create = (body: object) => c.post('/v1/team-events', { target: 3, ...body });

    const even = await create({ teams: teams([A, B], [D, E]) });
    expect(even.status).toBe(422);
    expect(even.body).toMatchObject({ code: 'BOARDS_EVEN', rule: 'R3.7' });
    expect(even.body.detail).toMatch(/even/);

    const unequal = await create({ teams: teams([A, B, C], [D]) });
    expect(unequal.status).toBe(422);
    expect(unequal.body).toMatchObject({ code: 'TEAMS_UNEQUAL', rule: 'R3.7' });

    const twice = await create({ teams: teams([A, B, C], [D, B, F]) });
    expect(twice.status).toBe(422);
    expect(twice.body).toMatchObject({ code: 'DUPLICATE_PLAYER', rule: 'R3.7' });
    const twiceInOne = await create({ teams: teams([A, B, A], [D, E, F]) });
    expect(twiceInOne.body).toMatchObject({ code: 'DUPLICATE_PLAYER', rule: 'R3.7' });

    const stranger = await create({ teams: teams([A, B, C], [D, E, other.ids.Stranger]) });
    expect(stranger.status).toBe(422);
    expect(stranger.body.code).toBe('UNKNOWN_PLAYER');
    expect(stranger.body.detail).toContain(other.ids.Stranger);

    const noSession = await create({ stakeMinor: 100, teams: teams([A, B, C], [D, E, F]) });
    expect(noSession.status).toBe(422);
    expect(noSession.body).toMatchObject({ code: 'STAKE_NEEDS_SESSION', rule: 'R3.8' });

    // The match rules, as a match has them (R3.1, R2.8).
    expect((await create({ target: 4, teams: teams([A, B, C], [D, E, F]) })).body).toMatchObject({ code: 'TARGET_EVEN', rule: 'R3.1' });
    expect((await create({ rules: { beavers: true }, teams: teams([A, B, C], [D, E, F]) })).body).toMatchObject({ rule: 'R2.8' });

    // Malformed: not two teams, a team too large, an id that is not one, an unknown field.
    for (const body of [
      { teams: [{ name: 'North', players: [A] }] },
      { teams: teams([A, B, C, D, E, F, A, B, C, D], [D]) },
      { teams: teams([A], ['nobody']) },
      { teams: [{ name: 'North', players: [A] }, { players: [D] }] },
      { teams: teams([A], [D]), board: 1 },
      { teams: teams([A], [D]), target: '3' },
    ]) {
      const res = await create(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED' });
    }

    // A closed session takes no more tables (R6.7).
    expect((await c.post(`/v1/sessions/${session}/close`)).status).toBe(200);
    const closed = await create({ sessionId: session, stakeMinor: 100, teams: teams([A, B, C], [D, E, F]) });
    expect(closed.body).toMatchObject({ code: 'SESSION_CLOSED', rule: 'R6.7' });

    expect([await count('team_events'), await count('team_event_boards'), await count('game_tables')]).toEqual(before);
  });

  it('keeps events to their club and creating them to scorers', async () => {
    const created = await c.post('/v1/team-events', { target: 3, teams: teams([A, B, C], [D, E, F]) });
    const other = await clubWith(t, ['Stranger']);
    expect((await other.get(`/v1/team-events/${created.body.id}`)).status).toBe(404);
    expect((await other.get('/v1/team-events')).body).toEqual({ items: [], nextCursor: null });
    expect((await c.get('/v1/team-events/not-a-uuid')).status).toBe(404);
    expect((await c.get('/v1/team-events/01a00000-0000-7000-8000-000000000000')).status).toBe(404);

    const viewer = await c.post('/v1/api-keys', { name: 'Screen', role: 'viewer' });
    expect(viewer.status).toBe(201);
    const asViewer = { authorization: `Bearer ${viewer.body.token}` };
    expect((await t.http().get(`/v1/team-events/${created.body.id}`).set(asViewer)).status).toBe(200);
    expect(
      (
        await t
          .http()
          .post('/v1/team-events')
          .set(asViewer)
          .send({ target: 3, teams: teams([A], [D]) })
      ).status,
    ).toBe(403);
  });
});
