import { EVENT_TYPES } from '../src/outbox/event-types';
import { bearer, startApp, TestApp } from './support/app';
import { clubWith, double, finish, pass, take } from './support/club';

/**
 * Every change writes its event, in the transaction of the change (the HTTP contract,
 * "Events: live updates and webhooks"). A scripted club evening, checked against the
 * `events` table itself (read with the owner's connection, in log order: tx, seq): each
 * command's exact events in their order, with their type, subject, session and the key
 * fields of their data; the data of a game or table event equals what the GET of that
 * game or table answers right after the command, and a rating's what GET /v1/ratings
 * lists. Refused requests (422, 412, 409 at the COMMIT) and idempotent replays write none.
 */

interface Ev {
  type: string;
  sessionId: string | null;
  subject: { kind: string; id: string };
  data: Record<string, unknown>;
}

type Body = Record<string, unknown>;

describe('events written by every change', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string, E: string, F: string;
  let seen = 0;
  const types = new Set<string>();

  /** The events written since the last call, in log order. */
  const fresh = async (): Promise<Ev[]> => {
    const rows = await t.sql<{ type: string; session_id: string | null; subject_kind: string; subject_id: string; data: Body }>(
      'SELECT type, session_id, subject_kind, subject_id, data FROM events ORDER BY tx, seq',
    );
    const out = rows.slice(seen).map((r) => ({ type: r.type, sessionId: r.session_id, subject: { kind: r.subject_kind, id: r.subject_id }, data: r.data }));
    seen = rows.length;
    for (const e of out) types.add(e.type);
    return out;
  };

  const patch = (url: string, body: object) => t.http().patch(url).set(bearer(c.owner)).send(body);
  const withKey = (url: string, key: string, body: object) => t.http().post(url).set(bearer(c.owner)).set('idempotency-key', key).send(body);
  const ok = (res: { status: number; text: string }, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  };

  /** A game event's data is the game as GET answers it now, plus where it is. */
  const expectGame = async (e: Ev, type: string, route: string, tableId: string, gameNo: number, sessionId: string | null, key: Body) => {
    expect(e).toMatchObject({ type, sessionId, subject: { kind: 'game', id: `${tableId}/games/${gameNo}` } });
    const kinds: Record<string, string> = { matches: 'match', 'money-games': 'money-game', chouettes: 'chouette' };
    const { tableId: at, tableKind, ...game } = e.data;
    expect({ at, tableKind }).toEqual({ at: tableId, tableKind: kinds[route] });
    expect(game).toMatchObject({ gameNo, ...key });
    expect(game).toEqual((await c.get(`/v1/${route}/${tableId}/games/${gameNo}`)).body);
  };

  /** A table event's data is the table as GET answers it now. */
  /**
   * A table's event: the table as its route answers it. A `table.updated` lists only the
   * game the change concerns (`gameNo`; none for a change between games), so that it
   * stays the same size however long the table's history.
   */
  const expectTable = async (e: Ev, type: string, route: string, tableId: string, sessionId: string | null, key: Body, gameNo: number | null = null) => {
    const kinds: Record<string, string> = { matches: 'match', 'money-games': 'money-game', chouettes: 'chouette' };
    expect(e).toMatchObject({ type, sessionId, subject: { kind: kinds[route], id: tableId } });
    expect(e.data).toMatchObject(key);
    const answered = (await c.get(`/v1/${route}/${tableId}`)).body as Body & { games: Array<{ gameNo: number }> };
    expect(e.data).toEqual(type === 'table.updated' ? { ...answered, games: answered.games.filter((g) => g.gameNo === gameNo) } : answered);
  };

  /** `rating.changed` for each player, each as GET /v1/ratings lists him now. */
  const expectRatings = async (events: Ev[], sessionId: string | null, players: string[], key: Body) => {
    const listed = (await c.get('/v1/ratings?limit=100')).body.items as Array<{ playerId: string }>;
    expect(events.map((e) => e.type)).toEqual(players.map(() => 'rating.changed'));
    expect(events.map((e) => e.subject)).toEqual(players.map((id) => ({ kind: 'player', id })));
    for (const e of events) {
      expect(e.sessionId).toBe(sessionId);
      expect(e.data).toMatchObject(key);
      expect(e.data).toEqual(listed.find((r) => r.playerId === e.subject.id));
    }
  };

  let S: string;
  let M: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve', 'Finn']);
    ({ Anna: A, Ben: B, Cleo: C, Dan: D, Eve: E, Finn: F } = c.ids);
    const players = await fresh();
    expect(players.map((e) => [e.type, e.subject.id])).toEqual([A, B, C, D, E, F].map((id) => ['player.created', id]));
    const nick = await patch(`/v1/players/${E}`, { nickname: 'Evie' });
    ok(nick, 200);
    const [updated, ...none] = await fresh();
    expect(none).toEqual([]);
    expect(updated).toEqual({ type: 'player.updated', sessionId: null, subject: { kind: 'player', id: E }, data: nick.body });
  });
  afterAll(() => t.close());

  it('a session is announced when it opens and when it changes', async () => {
    const res = await c.post('/v1/sessions', { name: 'Club night' });
    ok(res, 201);
    S = res.body.id as string;
    const [created, ...none] = await fresh();
    expect(none).toEqual([]);
    expect(created).toEqual({ type: 'session.created', sessionId: S, subject: { kind: 'session', id: S }, data: res.body });
    expect(created.data).toMatchObject({ status: 'open', name: 'Club night', version: 1 });

    const renamed = await patch(`/v1/sessions/${S}`, { name: 'Tuesday club night' });
    ok(renamed, 200);
    const [updated, ...more] = await fresh();
    expect(more).toEqual([]);
    expect(updated).toMatchObject({ type: 'session.updated', sessionId: S, subject: { kind: 'session', id: S }, data: { name: 'Tuesday club night', status: 'open', version: 2 } });
    expect(updated.data).toEqual((await c.get(`/v1/sessions/${S}`)).body);
  });

  it('a match: created; a whole game is started and finished; a pass is an action and the end', async () => {
    const res = await c.post('/v1/matches', { sides: [[A], [B]], target: 5, sessionId: S, stakeMinor: 1000 });
    ok(res, 201);
    M = res.body.id as string;
    const [created, ...none] = await fresh();
    expect(none).toEqual([]);
    await expectTable(created, 'table.created', 'matches', M, S, { status: 'in-progress', sides: [[A], [B]], score: [0, 0], games: [] });

    // Game 1 recorded whole: Anna wins a doubled single, 2-0. The score is in the game's events, no table.updated.
    ok(await c.post(`/v1/matches/${M}/games`, { actions: [double(A), take(B), finish(A)] }), 201);
    const g1 = await fresh();
    expect(g1.map((e) => e.type)).toEqual(['game.started', 'game.finished']);
    for (const [i, type] of ['game.started', 'game.finished'].entries()) {
      await expectGame(g1[i], type, 'matches', M, 1, S, { status: 'finished', points: 2, winnerSide: 0 });
    }

    // Game 2: started empty, Ben doubles, Anna passes: 2-1.
    ok(await c.post(`/v1/matches/${M}/games`, {}), 201);
    const [started] = await fresh();
    await expectGame(started, 'game.started', 'matches', M, 2, S, { status: 'in-progress', points: null, actions: [] });
    ok(await c.post(`/v1/matches/${M}/games/2/actions`, double(B)), 200);
    const [doubled, ...alone] = await fresh();
    expect(alone).toEqual([]);
    await expectGame(doubled, 'game.action', 'matches', M, 2, S, { status: 'in-progress', actions: [expect.objectContaining({ type: 'double', by: B })] });
    ok(await c.post(`/v1/matches/${M}/games/2/actions`, pass(A)), 200);
    const passed = await fresh();
    expect(passed.map((e) => e.type)).toEqual(['game.action', 'game.finished']);
    for (const [i, type] of ['game.action', 'game.finished'].entries()) {
      await expectGame(passed[i], type, 'matches', M, 2, S, { status: 'finished', points: 1, winnerSide: 1 });
    }
  });

  it('refused requests write no event: a rule (422), a stale If-Match (412), a conflict at the COMMIT (409)', async () => {
    const rule = await c.post(`/v1/matches/${M}/games`, { actions: [take(B)] });
    expect(rule.status).toBe(422);
    const stale = await t
      .http()
      .post(`/v1/matches/${M}/games`)
      .set(bearer(c.owner))
      .set('if-match', '"1"')
      .send({ actions: [finish(A)] });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('VERSION_MISMATCH');
    // The table's counter set back by hand: the game's INSERT, sent with the events in the
    // COMMIT's one statement, hits game 1 again, and the whole batch rolls back.
    const [{ next_game_no: next }] = await t.sql<{ next_game_no: number }>('SELECT next_game_no FROM game_tables WHERE id = $1', [M]);
    await t.sql('UPDATE game_tables SET next_game_no = 1 WHERE id = $1', [M]);
    const clash = await c.post(`/v1/matches/${M}/games`, { actions: [finish(A, 'gammon')] });
    await t.sql('UPDATE game_tables SET next_game_no = $2 WHERE id = $1', [M, next]);
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CONFLICT');
    const closed = await c.post(`/v1/sessions/${S}/payments`, { from: A, to: A, amountMinor: 5 });
    expect(closed.status).toBe(422);
    expect(await fresh()).toEqual([]);
    expect((await c.get(`/v1/matches/${M}`)).body).toMatchObject({ score: [2, 1], status: 'in-progress', games: [expect.anything(), expect.anything()] });
  });

  it('the game that ends the match: its events, table.updated, then each rating; its void takes them back', async () => {
    // Game 3 whole: Anna's doubled gammon, 4 points: 6-1, the match is over (R3.2), rated (R7.1).
    ok(await c.post(`/v1/matches/${M}/games`, { actions: [double(A), take(B), finish(A, 'gammon')] }), 201);
    const end = await fresh();
    expect(end.map((e) => e.type)).toEqual(['game.started', 'game.finished', 'table.updated', 'rating.changed', 'rating.changed']);
    await expectGame(end[0], 'game.started', 'matches', M, 3, S, { status: 'finished', points: 4, winnerSide: 0 });
    await expectGame(end[1], 'game.finished', 'matches', M, 3, S, { status: 'finished', points: 4, winnerSide: 0 });
    await expectTable(end[2], 'table.updated', 'matches', M, S, { status: 'finished', winnerSide: 0, currentGameNo: null }, (end[0].data as { gameNo: number }).gameNo);
    await expectRatings(end.slice(3), S, [A, B], { experience: 5, matches: 1 });
    expect((end[3].data.rating as number) > 1500 && (end[4].data.rating as number) < 1500).toBe(true);

    // R6.3: voiding it reopens the match (2-1 again) and takes the rating change back (R7.1).
    ok(await c.post(`/v1/matches/${M}/games/3/void`, { reason: 'misrecorded' }), 200);
    const voided = await fresh();
    expect(voided.map((e) => e.type)).toEqual(['game.voided', 'table.updated', 'rating.changed', 'rating.changed']);
    await expectGame(voided[0], 'game.voided', 'matches', M, 3, S, { status: 'voided', voided: expect.objectContaining({ reason: 'misrecorded' }) });
    await expectTable(voided[1], 'table.updated', 'matches', M, S, { status: 'in-progress', score: [2, 1], winnerSide: null }, (voided[0].data as { gameNo: number }).gameNo);
    await expectRatings(voided.slice(2), S, [A, B], { rating: 1500, experience: 0, matches: 0 });
  });

  it('penalties update the match; one that ends it rates its players', async () => {
    ok(await c.post(`/v1/matches/${M}/penalties`, { side: 1, points: 1, reason: 'Slow play' }), 201);
    const [penalty, ...none] = await fresh();
    expect(none).toEqual([]);
    await expectTable(penalty, 'table.updated', 'matches', M, S, { status: 'in-progress', score: [2, 2], penalties: [expect.objectContaining({ side: 1, points: 1 })] });

    ok(await c.post(`/v1/matches/${M}/penalties`, { side: 0, points: 3, reason: 'Ruling' }), 201);
    const forfeit = await fresh();
    expect(forfeit.map((e) => e.type)).toEqual(['table.updated', 'rating.changed', 'rating.changed']);
    await expectTable(forfeit[0], 'table.updated', 'matches', M, S, { status: 'finished', winnerSide: 0, score: [5, 2] });
    await expectRatings(forfeit.slice(1), S, [A, B], { experience: 5, matches: 1 });
  });

  it('a money table: undo and abandon are game events only; stopping at the lead and its void update the table', async () => {
    const res = await c.post('/v1/money-games', { sessionId: S, players: [C, D], stakeMinor: 100, rules: { jacoby: false, stopAtLead: 3 } });
    ok(res, 201);
    const G = res.body.id as string;
    const [created] = await fresh();
    await expectTable(created, 'table.created', 'money-games', G, S, { status: 'in-progress', players: [C, D] });

    ok(await c.post(`/v1/money-games/${G}/games`, { actions: [finish(C)] }), 201); // lead 1
    const g1 = await fresh();
    expect(g1.map((e) => e.type)).toEqual(['game.started', 'game.finished']);
    await expectGame(g1[1], 'game.finished', 'money-games', G, 1, S, { status: 'finished', points: 1, payouts: [{ from: D, to: C, amountMinor: 100, kind: 'game' }] });

    ok(await c.post(`/v1/money-games/${G}/games`, {}), 201);
    ok(await c.post(`/v1/money-games/${G}/games/2/actions`, double(C)), 200);
    ok(await c.post(`/v1/money-games/${G}/games/2/undo`, {}), 200);
    const undone = await fresh();
    expect(undone.map((e) => e.type)).toEqual(['game.started', 'game.action', 'game.action']);
    await expectGame(undone[2], 'game.action', 'money-games', G, 2, S, { status: 'in-progress', actions: [] });
    ok(await c.post(`/v1/money-games/${G}/games/2/abandon`, {}), 200);
    const [abandoned, ...none] = await fresh();
    expect(none).toEqual([]);
    await expectGame(abandoned, 'game.abandoned', 'money-games', G, 2, S, { status: 'abandoned' });

    // Game 3: a doubled single, lead 3: the table stops (R4.4).
    ok(await c.post(`/v1/money-games/${G}/games`, { actions: [double(C), take(D), finish(C)] }), 201);
    const stop = await fresh();
    expect(stop.map((e) => e.type)).toEqual(['game.started', 'game.finished', 'table.updated']);
    await expectGame(stop[1], 'game.finished', 'money-games', G, 3, S, { status: 'finished', points: 2 });
    await expectTable(
      stop[2],
      'table.updated',
      'money-games',
      G,
      S,
      {
        status: 'finished',
        netMinor: { [C]: 300, [D]: -300 },
        currentGameNo: null,
        games: [expect.objectContaining({ gameNo: 3, variant: 'backgammon' })],
      },
      3,
    );

    ok(await c.post(`/v1/money-games/${G}/games/3/void`, { reason: 'wrong table' }), 200);
    const reopened = await fresh();
    expect(reopened.map((e) => e.type)).toEqual(['game.voided', 'table.updated']);
    await expectGame(reopened[0], 'game.voided', 'money-games', G, 3, S, { status: 'voided' });
    await expectTable(reopened[1], 'table.updated', 'money-games', G, S, { status: 'in-progress', netMinor: { [C]: 100, [D]: -100 } }, (reopened[0].data as { gameNo: number }).gameNo);
  });

  it('a table of another variant stops at its lead: its games listed with their variant', async () => {
    const res = await c.post('/v1/money-games', { sessionId: S, players: [E, F], stakeMinor: 50, variant: 'portes', rules: { stopAtLead: 2 } });
    ok(res, 201);
    const G = res.body.id as string;
    await fresh();
    ok(await c.post(`/v1/money-games/${G}/games`, { actions: [finish(F, 'gammon')] }), 201); // R8.2: a gammon is 2
    const stop = await fresh();
    expect(stop.map((e) => e.type)).toEqual(['game.started', 'game.finished', 'table.updated']);
    await expectGame(stop[1], 'game.finished', 'money-games', G, 1, S, { variant: 'portes', points: 2, winnerSide: 1 });
    await expectTable(
      stop[2],
      'table.updated',
      'money-games',
      G,
      S,
      { status: 'finished', variant: 'portes', games: [expect.objectContaining({ variant: 'portes', points: 2 })] },
      (stop[0].data as { gameNo: number }).gameNo,
    );
  });

  it('a chouette: created, rotated after a game, joined, left, its seats restored by a void; a partner taken at a start', async () => {
    const res = await c.post('/v1/chouettes', { sessionId: S, stakeMinor: 100, seating: { order: [A, B, C, D] } });
    ok(res, 201);
    const H = res.body.id as string;
    const [created] = await fresh();
    await expectTable(created, 'table.created', 'chouettes', H, S, { box: A, captain: B, team: [B, C, D] });

    // The box beats the captain: he stays, the captain goes to the end of the line (R5.7).
    ok(await c.post(`/v1/chouettes/${H}/games`, { actions: [finish(A)] }), 201);
    const rotated = await fresh();
    expect(rotated.map((e) => e.type)).toEqual(['game.started', 'game.finished', 'table.updated']);
    await expectGame(rotated[0], 'game.started', 'chouettes', H, 1, S, { status: 'finished', winnerSide: 0 });
    await expectGame(rotated[1], 'game.finished', 'chouettes', H, 1, S, { status: 'finished', winnerSide: 0 });
    await expectTable(rotated[2], 'table.updated', 'chouettes', H, S, { box: A, captain: C, team: [C, D, B], currentGameNo: null }, (rotated[0].data as { gameNo: number }).gameNo);

    ok(await c.post(`/v1/chouettes/${H}/players`, { playerId: E }), 201);
    const [joined] = await fresh();
    await expectTable(joined, 'table.updated', 'chouettes', H, S, { team: [C, D, B, E] });
    ok(await t.http().delete(`/v1/chouettes/${H}/players/${E}`).set(bearer(c.owner)), 200);
    const [left] = await fresh();
    await expectTable(left, 'table.updated', 'chouettes', H, S, { team: [C, D, B] });

    // R6.3: the seats from before the game come back.
    ok(await c.post(`/v1/chouettes/${H}/games/1/void`, { reason: 'dice off the board' }), 200);
    const restored = await fresh();
    expect(restored.map((e) => e.type)).toEqual(['game.voided', 'table.updated']);
    await expectGame(restored[0], 'game.voided', 'chouettes', H, 1, S, { status: 'voided' });
    await expectTable(restored[1], 'table.updated', 'chouettes', H, S, { box: A, captain: B, team: [B, C, D] }, (restored[0].data as { gameNo: number }).gameNo);

    // R5.9: three seated, partnerFrom 3: the game starts with a partner for the box, which the
    // chouette shows while it is played; abandoned, it shows its seats without one again.
    const p = await c.post('/v1/chouettes', { sessionId: S, stakeMinor: 100, seating: { order: [A, B, C] }, rules: { partnerFrom: 3 } });
    ok(p, 201);
    const P = p.body.id as string;
    await fresh();
    ok(await c.post(`/v1/chouettes/${P}/games`, {}), 201);
    const partnered = await fresh();
    expect(partnered.map((e) => e.type)).toEqual(['game.started', 'table.updated']);
    await expectGame(partnered[0], 'game.started', 'chouettes', P, 1, S, { status: 'in-progress' });
    await expectTable(partnered[1], 'table.updated', 'chouettes', P, S, { box: A, partner: C, team: [B], currentGameNo: 1 }, 1);
    ok(await c.post(`/v1/chouettes/${P}/games/1/abandon`, {}), 200);
    const back = await fresh();
    expect(back.map((e) => e.type)).toEqual(['game.abandoned', 'table.updated']);
    await expectGame(back[0], 'game.abandoned', 'chouettes', P, 1, S, { status: 'abandoned' });
    await expectTable(back[1], 'table.updated', 'chouettes', P, S, { box: A, partner: null, team: [B, C], currentGameNo: null }, 1);
  });

  it('a table without a session: its events have no session; a Crawford game ends the match', async () => {
    const res = await c.post('/v1/matches', { sides: [[D], [E]], target: 3 });
    ok(res, 201);
    const id = res.body.id as string;
    ok(await c.post(`/v1/matches/${id}/games`, { actions: [double(E), take(D), finish(E)] }), 201); // 0-2: game 2 is the Crawford game (R3.4)
    ok(await c.post(`/v1/matches/${id}/games`, { actions: [finish(E)] }), 201); // 0-3
    const evs = await fresh();
    expect(evs.map((e) => [e.type, e.sessionId])).toEqual([
      ['table.created', null],
      ['game.started', null],
      ['game.finished', null],
      ['game.started', null],
      ['game.finished', null],
      ['table.updated', null],
      ['rating.changed', null],
      ['rating.changed', null],
    ]);
    await expectGame(evs[4], 'game.finished', 'matches', id, 2, null, { crawford: true, points: 1, winnerSide: 1 });
    await expectTable(
      evs[5],
      'table.updated',
      'matches',
      id,
      null,
      {
        status: 'finished',
        winnerSide: 1,
        score: [0, 3],
        // Only the game that ended it: GET the match for game 1 too.
        games: [expect.objectContaining({ gameNo: 2, crawford: true })],
      },
      2,
    );
    await expectRatings(evs.slice(6), null, [D, E], { experience: 3, matches: 1 });
  });

  it('a payment is recorded once, even sent twice with one Idempotency-Key; a replayed game writes nothing', async () => {
    const first = await withKey(`/v1/sessions/${S}/payments`, 'pay-ben-anna', { from: B, to: A, amountMinor: 700, note: 'cash' });
    ok(first, 201);
    const again = await withKey(`/v1/sessions/${S}/payments`, 'pay-ben-anna', { from: B, to: A, amountMinor: 700, note: 'cash' });
    ok(again, 201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const [paid, ...none] = await fresh();
    expect(none).toEqual([]);
    expect(paid).toEqual({ type: 'payment.recorded', sessionId: S, subject: { kind: 'payment', id: first.body.id }, data: first.body });
    expect(paid.data).toMatchObject({ from: B, to: A, amountMinor: 700, currency: 'USD' });
    expect((await c.get(`/v1/sessions/${S}/payments`)).body.items).toContainEqual(paid.data);

    const m = (await c.post('/v1/matches', { sides: [[B], [C]], target: 3, sessionId: S })).body.id as string;
    await fresh();
    ok(await withKey(`/v1/matches/${m}/games`, 'game-1', { actions: [finish(B)] }), 201);
    const replay = await withKey(`/v1/matches/${m}/games`, 'game-1', { actions: [finish(B)] });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await fresh()).map((e) => e.type)).toEqual(['game.started', 'game.finished']);
  });

  it('a team event announces each of its boards as a new match', async () => {
    const res = await c.post('/v1/team-events', {
      sessionId: S,
      target: 3,
      teams: [
        { name: 'North', players: [A, B, E] },
        { name: 'South', players: [C, D, F] },
      ],
    });
    ok(res, 201);
    const boards = (res.body.boards as Array<{ matchId: string }>).map((b) => b.matchId);
    const evs = await fresh();
    expect(evs.map((e) => e.type)).toEqual(boards.map(() => 'table.created'));
    for (const [i, id] of boards.entries()) await expectTable(evs[i], 'table.created', 'matches', id, S, { status: 'in-progress', score: [0, 0] });
  });

  it('a tournament: created, entered, drawn with its matches; a result that fills a pairing announces the tournament and the new match', async () => {
    const created = await c.post('/v1/tournaments', { name: 'Cup', format: 'knockout', targets: [3], sessionId: S });
    ok(created, 201);
    const id = created.body.id as string;
    const tournament = async () => (await c.get(`/v1/tournaments/${id}`)).body as Body;
    let evs = await fresh();
    expect(evs.map((e) => e.type)).toEqual(['tournament.created']);
    expect(evs[0]).toMatchObject({ sessionId: S, subject: { kind: 'tournament', id } });
    for (const p of [A, B, C]) ok(await c.post(`/v1/tournaments/${id}/entries`, { playerId: p }), 201);
    expect((await fresh()).map((e) => e.type)).toEqual(['tournament.updated', 'tournament.updated', 'tournament.updated']);
    // A refused entry writes nothing.
    expect((await c.post(`/v1/tournaments/${id}/entries`, { playerId: A })).status).toBe(422);
    expect(await fresh()).toEqual([]);
    const drawn = await c.post(`/v1/tournaments/${id}/draw`, { seeding: 'rating' });
    ok(drawn, 200);
    evs = await fresh();
    // Three entries in a bracket of 4: one bye, one match.
    expect(evs.map((e) => e.type)).toEqual(['tournament.updated', 'table.created']);
    expect(evs[0].data).toEqual(await tournament());
    const first = (drawn.body.flights[0].rounds[0].pairings as Array<{ matchId: string | null; sides: string[][] | null }>).find((p) => p.matchId)!;
    await expectTable(evs[1], 'table.created', 'matches', first.matchId!, S, { status: 'in-progress', tournament: { id, round: 1 } });
    ok(await c.post(`/v1/matches/${first.matchId}/games`, { actions: [finish(first.sides![0][0], 'backgammon')] }), 201);
    evs = await fresh();
    expect(evs.map((e) => e.type)).toEqual(['game.started', 'game.finished', 'table.updated', 'rating.changed', 'rating.changed', 'tournament.updated', 'table.created']);
    expect(evs[5].data).toEqual(await tournament());
    const final = (evs[5].data.flights as Array<{ rounds: Array<{ pairings: Array<{ matchId: string }> }> }>)[0].rounds[1].pairings[0].matchId;
    await expectTable(evs[6], 'table.created', 'matches', final, S, { tournament: { id, round: 2, pairing: 1 } });
  });

  it('closing the session is announced once; every type of event has occurred', async () => {
    ok(await c.post(`/v1/sessions/${S}/close`), 200);
    const [closed, ...none] = await fresh();
    expect(none).toEqual([]);
    expect(closed).toMatchObject({ type: 'session.closed', sessionId: S, subject: { kind: 'session', id: S }, data: { status: 'closed', version: 3 } });
    expect(closed.data).toEqual((await c.get(`/v1/sessions/${S}`)).body);
    ok(await c.post(`/v1/sessions/${S}/close`), 200);
    expect(await fresh()).toEqual([]);

    expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
