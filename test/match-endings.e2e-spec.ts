import { bearer, startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { pdfText } from './support/pdf-text';
import { readModelDifferences } from './support/read-models';

/**
 * How a match ends other than by points, and how its latest result is taken back:
 * forfeits (R3.9), penalties and their void (R3.6), and the one void route (R6.3).
 * Expected values come from the rules: stakes from R3.8, ratings from R7.1 worked by
 * hand (two newcomers over 5 points: 4·5·√5·0.5 = 22.36).
 */
describe('match endings: forfeits and voiding the latest result', () => {
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

  /** Two fresh players (rating 1500, experience 0), so every test stands alone. */
  const pair = async () => {
    n += 1;
    const a = (await c.post('/v1/players', { name: `Alma ${n}` })).body.id as string;
    const b = (await c.post('/v1/players', { name: `Boris ${n}` })).body.id as string;
    return [a, b] as const;
  };
  const player = async (id: string) => (await c.get(`/v1/players/${id}`)).body as { rating: number; experience: number };
  const newMatch = async (body: object) => {
    const res = await c.post('/v1/matches', body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const ledger = async (tableId: string) =>
    t.sql<{ from_party: string; to_party: string; amount_minor: string; kind: string }>(
      'SELECT from_party, to_party, amount_minor::text, kind FROM ledger_entries WHERE table_id = $1 ORDER BY created_at, id',
      [tableId],
    );
  const eventCount = async () => Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM events'))[0].n);
  const types = async (after: number) => (await t.sql<{ type: string }>('SELECT type FROM events ORDER BY tx, seq')).slice(after).map((r) => r.type);

  it('forfeits a match mid-game: the game is abandoned, the stake posts, no rating change without a finished game (R3.9)', async () => {
    const [A, B] = await pair();
    const session = await c.session();
    const id = await newMatch({ sessionId: session, sides: [[A], [B]], target: 5, stakeMinor: 300 });
    // Game 1 under way: Alma doubled and Boris took, then Boris does not come back from the break.
    expect((await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B)] })).status).toBe(201);
    const before = await eventCount();
    const res = await c.post(`/v1/matches/${id}/forfeit`, { side: 1, reason: 'no-show', note: 'Did not return after the break' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'finished',
      winnerSide: 0,
      score: [0, 0],
      endedBy: { kind: 'forfeit', side: 1, reason: 'no-show', note: 'Did not return after the break' },
    });
    // The game in progress is closed as abandoned: no points, nothing posted for it.
    const g1 = (await c.get(`/v1/matches/${id}/games/1`)).body;
    expect(g1).toMatchObject({ status: 'abandoned', points: null });
    // The stake (R3.8) is paid as for any win: Boris pays Alma 300.
    expect(await ledger(id)).toEqual([{ from_party: B, to_party: A, amount_minor: '300', kind: 'match-stake' }]);
    // No finished game: not rated (R3.9, R7).
    expect(await player(A)).toMatchObject({ rating: 1500, experience: 0 });
    expect(await player(B)).toMatchObject({ rating: 1500, experience: 0 });
    expect(await types(before)).toEqual(['game.abandoned', 'table.updated']);
    // The list and the finished-match filter show how it ended.
    const listed = (await c.get(`/v1/matches?sessionId=${session}&status=finished`)).body.items;
    expect(listed.map((m: { id: string; endedBy: unknown }) => [m.id, m.endedBy])).toEqual([[id, expect.objectContaining({ kind: 'forfeit', side: 1, reason: 'no-show' })]]);
    // The settlement statement shows the match and how it ended, in JSON, CSV and PDF.
    const names = [(await c.get(`/v1/players/${A}`)).body.name, (await c.get(`/v1/players/${B}`)).body.name];
    const statement = (await c.get(`/v1/sessions/${session}/settlement`)).body;
    expect(statement.matches).toEqual([
      {
        matchId: id,
        sides: [[A], [B]],
        sideNames: names,
        score: [0, 0],
        winnerSide: 0,
        endedBy: { kind: 'forfeit', side: 1, reason: 'no-show' },
        stakeMinor: 300,
        endedAt: expect.any(String),
      },
    ]);
    expect(statement.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor])).toEqual(
      expect.arrayContaining([
        [A, 300],
        [B, -300],
      ]),
    );
    const csv = (await c.get(`/v1/sessions/${session}/settlement`).set('Accept', 'text/csv')).text;
    expect(csv.split('\r\n').filter((l) => l.startsWith('match,'))).toEqual([expect.stringContaining(`match,${id},${names[0]} vs ${names[1]},`)]);
    expect(csv).toContain(`${names[1]},,${names[0]},300,USD,score=0-0; endedBy=forfeit; side=1; reason=no-show,`);
    const pdf = await c
      .get(`/v1/sessions/${session}/settlement`)
      .set('Accept', 'application/pdf')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (x: Buffer) => chunks.push(x));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(pdfText(pdf.body as Buffer).text.join('\n')).toContain(`forfeit by ${names[1]}: no-show`);
    // Over is over: no game, no second forfeit.
    expect((await c.post(`/v1/matches/${id}/games`)).body).toMatchObject({ code: 'MATCH_FINISHED' });
    const again = await c.post(`/v1/matches/${id}/forfeit`, { side: 0, reason: 'concession' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'MATCH_FINISHED', rule: 'R3.9' });
  });

  it("shows how each match ended in the session's games (JSON and CSV) and counts forfeits in the standings (R3.9)", async () => {
    const [A, B] = await pair();
    const [C, D] = await pair();
    const session = await c.session();
    // Match 1: Alma wins game 1, game 2 is under way when Boris forfeits for lateness.
    const m1 = await newMatch({ sessionId: session, sides: [[A], [B]], target: 3 });
    await c.post(`/v1/matches/${m1}/games`, { actions: [finish(A)] });
    await c.post(`/v1/matches/${m1}/games`);
    expect((await c.post(`/v1/matches/${m1}/forfeit`, { side: 1, reason: 'lateness' })).status).toBe(201);
    // Match 2: Cleo beats Alma by points, 3-0 on a backgammon.
    const m2 = await newMatch({ sessionId: session, sides: [[C], [A]], target: 3 });
    await c.post(`/v1/matches/${m2}/games`, { actions: [finish(C, 'backgammon')] });
    // Match 3: Dan never comes: a no-show before any game, so no game row carries it.
    const m3 = await newMatch({ sessionId: session, sides: [[C], [D]], target: 3 });
    expect((await c.post(`/v1/matches/${m3}/forfeit`, { side: 1, reason: 'no-show' })).status).toBe(201);

    const games = (await c.get(`/v1/sessions/${session}/games`)).body.items as Array<{ tableId: string; gameNo: number; status: string; matchEndedBy: unknown }>;
    const byMatch = (id: string) => games.filter((g) => g.tableId === id).map((g) => [g.gameNo, g.status, g.matchEndedBy]);
    expect(byMatch(m1)).toEqual([
      [1, 'finished', null],
      [2, 'abandoned', expect.objectContaining({ kind: 'forfeit', side: 1, reason: 'lateness' })],
    ]);
    expect(byMatch(m2)).toEqual([[1, 'finished', { kind: 'points' }]]);
    expect(byMatch(m3)).toEqual([]);
    // One game a page: the end is on the right row wherever a page starts.
    const page1 = (await c.get(`/v1/sessions/${session}/games?limit=1`)).body;
    const page2 = (await c.get(`/v1/sessions/${session}/games?limit=1&cursor=${page1.nextCursor}`)).body;
    expect([...page1.items, ...page2.items].map((g: { matchEndedBy: unknown }) => g.matchEndedBy)).toEqual(games.slice(0, 2).map((g) => g.matchEndedBy));

    const csv = (await c.get(`/v1/sessions/${session}/games`).set('Accept', 'text/csv')).text.split('\r\n');
    expect(csv[0].split(',').slice(-3)).toEqual(['matchEndedBy', 'forfeitSide', 'forfeitReason']);
    const csvRow = (id: string, gameNo: number) =>
      csv
        .find((l) => l.includes(`,${id},${gameNo},`))!
        .split(',')
        .slice(-3);
    expect(csvRow(m1, 1)).toEqual(['', '', '']);
    expect(csvRow(m1, 2)).toEqual(['forfeit', '1', 'lateness']);
    expect(csvRow(m2, 1)).toEqual(['points', '', '']);

    const standings = (await c.get(`/v1/sessions/${session}/standings`)).body.items as Array<Record<string, unknown>>;
    const record = (id: string) => {
      const s = standings.find((x) => x.playerId === id)!;
      return [s.matchesWon, s.matchesLost, s.forfeitsWon, s.forfeitsLost];
    };
    expect(record(A)).toEqual([1, 1, 1, 0]);
    expect(record(B)).toEqual([0, 1, 0, 1]);
    expect(record(C)).toEqual([2, 0, 1, 0]);
    expect(record(D)).toEqual([0, 1, 0, 1]);

    // The forfeit voided: the match is back in progress (its abandoned game stays abandoned) and no row or record shows it.
    await c.post(`/v1/matches/${m1}/void`, { reason: 'Wrong start time' });
    const after = (await c.get(`/v1/sessions/${session}/games`)).body.items as Array<{ tableId: string; status: string; matchEndedBy: unknown }>;
    expect(after.filter((g) => g.tableId === m1).map((g) => [g.status, g.matchEndedBy])).toEqual([
      ['finished', null],
      ['abandoned', null],
    ]);
    const again = (await c.get(`/v1/sessions/${session}/standings`)).body.items as Array<Record<string, unknown>>;
    expect(again.find((x) => x.playerId === B)).toMatchObject({ matchesLost: 0, forfeitsLost: 0 });
  });

  it('rates a forfeited match once a game was finished in it, and the void takes rating and stake back (R3.9, R7.1, R6.3)', async () => {
    const [A, B] = await pair();
    const session = await c.session();
    // Due at 19:30 Paris time: kept and answered in UTC; a time that is not RFC 3339 is refused.
    expect((await c.post('/v1/matches', { sides: [[A], [B]], target: 5, scheduledAt: 'tonight' })).status).toBe(400);
    const id = await newMatch({ sessionId: session, sides: [[A], [B]], target: 5, stakeMinor: 250, scheduledAt: '2026-12-05T19:30:00+01:00' });
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ scheduledAt: '2026-12-05T18:30:00.000Z', endedBy: null });
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(B)] }); // 0-1
    const f = await c.post(`/v1/matches/${id}/forfeit`, { side: 1, reason: 'lateness', note: 'Forty minutes late for the second round' });
    expect(f.body).toMatchObject({ status: 'finished', winnerSide: 0, score: [0, 1], endedBy: { kind: 'forfeit', side: 1, reason: 'lateness' } });
    // Two newcomers over 5: 4·5·√5·0.5 = 22.36 to the side that did not forfeit.
    expect(await player(A)).toMatchObject({ rating: 1522.36, experience: 5 });
    expect(await player(B)).toMatchObject({ rating: 1477.64, experience: 5 });
    expect(await ledger(id)).toEqual([{ from_party: B, to_party: A, amount_minor: '250', kind: 'match-stake' }]);

    const before = await eventCount();
    const v = await c.post(`/v1/matches/${id}/void`, { reason: 'The director had the wrong start time' });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ status: 'in-progress', winnerSide: null, score: [0, 1], endedBy: null });
    expect(await player(A)).toMatchObject({ rating: 1500, experience: 0 });
    expect(await player(B)).toMatchObject({ rating: 1500, experience: 0 });
    // The stake comes back by a reversing entry; the table nets to zero.
    const rows = await ledger(id);
    expect(rows).toEqual([
      { from_party: B, to_party: A, amount_minor: '250', kind: 'match-stake' },
      { from_party: A, to_party: B, amount_minor: '250', kind: 'void' },
    ]);
    expect(await types(before)).toEqual(['table.updated', 'rating.changed', 'rating.changed']);
    // The match goes on: Alma wins a backgammon, 3-1, and a gammon: 5-1, finished by points.
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A, 'backgammon')] });
    const end = await c.post(`/v1/matches/${id}/games`, { actions: [finish(A, 'gammon')] });
    expect(end.body.payouts).toEqual([{ from: B, to: A, amountMinor: 250, kind: 'match-stake' }]);
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ status: 'finished', score: [5, 1], endedBy: { kind: 'points' } });
  });

  it('voids a penalty that forfeited a match: back in progress with the Crawford game as before (R3.6, R3.9)', async () => {
    const [A, B] = await pair();
    const id = await newMatch({ sides: [[A], [B]], target: 5 });
    // Alma wins a doubled gammon: 4-0, so game 2 is the Crawford game.
    await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B), finish(A, 'gammon')] });
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [4, 0], crawfordGameNo: 2 });
    // Penalties against Boris: 2 is not more than half of 5, 3 is.
    const p1 = await c.post(`/v1/matches/${id}/penalties`, { side: 0, points: 1, reason: 'Late' });
    expect(p1.body).toMatchObject({ status: 'finished', score: [5, 0], endedBy: { kind: 'points' } });
    const undo1 = await c.post(`/v1/matches/${id}/void`, { reason: 'Penalty given to the wrong side' });
    expect(undo1.body).toMatchObject({ status: 'in-progress', score: [4, 0], crawfordGameNo: 2, endedBy: null });
    expect(undo1.body.penalties).toEqual([expect.objectContaining({ seq: 1, side: 0, points: 1, reason: 'Late', voided: true })]);

    // Now the penalties go against Alma (to side 1): 1 + 2 = 3 > 2.5 forfeits her (reason `penalties`).
    await c.post(`/v1/matches/${id}/penalties`, { side: 1, points: 1, reason: 'Slow play' }); // 4-1
    const p3 = await c.post(`/v1/matches/${id}/penalties`, { side: 1, points: 2, reason: 'Slow play again' }); // 4-3
    expect(p3.body).toMatchObject({ status: 'finished', winnerSide: 1, score: [4, 3], endedBy: { kind: 'forfeit', side: 0, reason: 'penalties' } });
    const undo3 = await c.post(`/v1/matches/${id}/void`, { reason: 'Ruling reversed on appeal' });
    expect(undo3.body).toMatchObject({ status: 'in-progress', winnerSide: null, score: [4, 1], crawfordGameNo: 2, endedBy: null });
    expect(undo3.body.penalties.map((p: { seq: number; voided: boolean }) => [p.seq, p.voided])).toEqual([
      [1, true],
      [2, false],
      [3, true],
    ]);
    // The Crawford game is played as it would have been: the double is refused.
    const g2 = await c.post(`/v1/matches/${id}/games`);
    expect(g2.body).toMatchObject({ gameNo: 2, crawford: true });
    expect((await c.post(`/v1/matches/${id}/games/2/actions`, double(B))).body).toMatchObject({ code: 'CRAWFORD_NO_DOUBLE' });
  });

  it('voids whichever result came last, and refuses the per-game void of a game a penalty followed (R6.3)', async () => {
    const [A, B] = await pair();
    const id = await newMatch({ sides: [[A], [B]], target: 7 });
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] }); // 1-0
    await c.post(`/v1/matches/${id}/penalties`, { side: 1, points: 1, reason: 'Late' }); // 1-1
    const notLatest = await c.post(`/v1/matches/${id}/games/1/void`, { reason: 'x' });
    expect(notLatest.status).toBe(422);
    expect(notLatest.body).toMatchObject({ code: 'NOT_LATEST_GAME', rule: 'R6.3' });
    // The match route voids the penalty first, then the game.
    expect((await c.post(`/v1/matches/${id}/void`, { reason: 'Penalty withdrawn' })).body).toMatchObject({ score: [1, 0] });
    const g = await c.post(`/v1/matches/${id}/void`, { reason: 'Wrong table' });
    expect(g.body).toMatchObject({ score: [0, 0], status: 'in-progress' });
    expect((await c.get(`/v1/matches/${id}/games/1`)).body).toMatchObject({ status: 'voided', voided: { reason: 'Wrong table' } });
    const nothing = await c.post(`/v1/matches/${id}/void`, { reason: 'Again' });
    expect(nothing.status).toBe(422);
    expect(nothing.body).toMatchObject({ code: 'NOTHING_TO_VOID', rule: 'R6.3' });
  });

  it('refuses what it cannot do and writes nothing: a void during a game, a bad reason, a stale version, a closed session', async () => {
    const [A, B] = await pair();
    const session = await c.session();
    const id = await newMatch({ sessionId: session, sides: [[A], [B]], target: 3, stakeMinor: 100 });
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] });
    await c.post(`/v1/matches/${id}/games`, { actions: [double(B)] }); // game 2 in progress
    const match = async () => (await c.get(`/v1/matches/${id}`)).body;
    const snapshot = await match();
    const events = await eventCount();
    const entries = await ledger(id);

    const during = await c.post(`/v1/matches/${id}/void`, { reason: 'x' });
    expect(during.status).toBe(422);
    expect(during.body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R6.3' });
    const badReason = await c.post(`/v1/matches/${id}/forfeit`, { side: 1, reason: 'tired' });
    expect(badReason.status).toBe(400);
    const badSide = await c.post(`/v1/matches/${id}/forfeit`, { side: 2, reason: 'time' });
    expect(badSide.status).toBe(400);
    const noReason = await c.post(`/v1/matches/${id}/void`, {});
    expect(noReason.status).toBe(400);
    const stale = await t
      .http()
      .post(`/v1/matches/${id}/forfeit`)
      .set(bearer(c.owner))
      .set('if-match', `"${snapshot.version - 1}"`)
      .send({ side: 1, reason: 'time' });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('VERSION_MISMATCH');
    expect(await match()).toEqual(snapshot);
    expect(await eventCount()).toBe(events);
    expect(await ledger(id)).toEqual(entries);

    // The forfeit, then the session closes: its results are final (R6.7).
    expect((await c.post(`/v1/matches/${id}/forfeit`, { side: 1, reason: 'time' })).status).toBe(201);
    expect((await t.http().post(`/v1/sessions/${session}/close`).set(bearer(c.owner)).send({})).status).toBe(200);
    const closed = await c.post(`/v1/matches/${id}/void`, { reason: 'Too late' });
    expect(closed.status).toBe(422);
    expect(closed.body.code).toBe('SESSION_CLOSED');
    expect((await match()).endedBy).toMatchObject({ kind: 'forfeit', side: 1, reason: 'time' });
  });
});
