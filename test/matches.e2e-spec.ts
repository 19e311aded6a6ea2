import { bearer, startApp, TestApp } from './support/app';
import { clubWith, double, finish, nets, pass, take } from './support/club';
import { readModelDifferences } from './support/read-models';

describe('match play (R3) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Carl', 'Dora']);
    ({ Anna: A, Ben: B, Carl: C, Dora: D } = c.ids);
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const newMatch = async (body: object) => {
    const res = await c.post('/v1/matches', body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('plays a 5-point match through the Crawford game and post-Crawford to a real total of 6-1 (R3.2, R3.4)', async () => {
    const id = await newMatch({ sides: [[A], [B]], target: 5 });
    // Game 1: Anna doubles, Ben takes (cube 2), Anna wins a gammon: 2 × 2 = 4 points (R1.1). 4-0 = target − 1.
    const g1 = await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B), finish(A, 'gammon')] });
    expect(g1.status).toBe(201);
    expect(g1.body).toMatchObject({ gameNo: 1, status: 'finished', crawford: false, points: 4, winnerSide: 0 });
    let m = (await c.get(`/v1/matches/${id}`)).body;
    expect(m).toMatchObject({ score: [4, 0], status: 'in-progress', crawfordGameNo: 2, winnerSide: null });

    // Game 2 is the Crawford game: the double is refused, the game goes on without the cube.
    const g2 = await c.post(`/v1/matches/${id}/games`);
    expect(g2.body).toMatchObject({ gameNo: 2, crawford: true, status: 'in-progress' });
    const refused = await c.post(`/v1/matches/${id}/games/2/actions`, double(B));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'CRAWFORD_NO_DOUBLE', rule: 'R3.4' });
    expect(refused.body.detail).toMatch(/Crawford/);
    const after = await c.post(`/v1/matches/${id}/games/2/actions`, finish(B));
    expect(after.body).toMatchObject({ status: 'finished', points: 1, winnerSide: 1 });
    m = (await c.get(`/v1/matches/${id}`)).body;
    expect(m.score).toEqual([4, 1]);

    // Game 3 is post-Crawford: doubling is allowed again; Anna wins the doubled game: 2 points, 6-1.
    const g3 = await c.post(`/v1/matches/${id}/games`, { actions: [double(B), take(A), finish(A)] });
    expect(g3.body).toMatchObject({ crawford: false, points: 2, cubes: [{ value: 2, owner: A, status: 'finished', member: null, pending: null }] });
    m = (await c.get(`/v1/matches/${id}`)).body;
    expect(m).toMatchObject({ score: [6, 1], status: 'finished', winnerSide: 0, crawfordGameNo: 2 });
    expect(m.games.map((g: { gameNo: number; crawford: boolean }) => [g.gameNo, g.crawford])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);

    const g4 = await c.post(`/v1/matches/${id}/games`);
    expect(g4.status).toBe(422);
    expect(g4.body).toMatchObject({ code: 'MATCH_FINISHED', rule: 'R3.2' });
  });

  it('refuses a dead-cube redouble (R3.5), and allows it when the match says so', async () => {
    // 3-point match: Anna wins game 1 single (1-0), needing 2. In game 2 Ben doubles, Anna takes:
    // the cube is 2, which already gives Anna the match if she wins: her redouble is dead.
    for (const [deadCube, expected] of [
      ['refuse', 422],
      ['allow', 200],
    ] as const) {
      const id = await newMatch({ sides: [[A], [B]], target: 3, rules: { deadCube } });
      await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] });
      await c.post(`/v1/matches/${id}/games`, { actions: [double(B), take(A)] });
      const res = await c.post(`/v1/matches/${id}/games/2/actions`, double(A));
      expect(res.status).toBe(expected);
      if (expected === 422) expect(res.body).toMatchObject({ code: 'DEAD_CUBE', rule: 'R3.5' });
      else expect(res.body.cubes[0]).toMatchObject({ value: 2, owner: A, pending: { by: A, value: 4, kind: 'double' } });
    }
  });

  it('scores a pass as the pre-double value (R1.3)', async () => {
    const id = await newMatch({ sides: [[A], [B]], target: 7 });
    const g = await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B), double(B), pass(A)] });
    // Ben's redouble from 2 to 4 is passed: Ben wins 2.
    expect(g.body).toMatchObject({ status: 'finished', points: 2, winnerSide: 1, result: null });
    expect((await c.get(`/v1/matches/${id}`)).body.score).toEqual([0, 2]);
  });

  it('has no cube in a 1-point match (R3.3)', async () => {
    const id = await newMatch({ sides: [[A], [B]], target: 1 });
    await c.post(`/v1/matches/${id}/games`);
    const res = await c.post(`/v1/matches/${id}/games/1/actions`, double(A));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'NO_CUBE_IN_ONE_POINT_MATCH', rule: 'R3.3' });
  });

  it('refuses even and out-of-range targets, money-only settings and unknown players, writing nothing (R3.1, R2.8)', async () => {
    const before = (await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM game_tables'))[0].n;
    const even = await c.post('/v1/matches', { sides: [[A], [B]], target: 4 });
    expect(even.status).toBe(422);
    expect(even.body).toMatchObject({ code: 'TARGET_EVEN', rule: 'R3.1' });
    expect(even.body.detail).toMatch(/even/);
    const far = await c.post('/v1/matches', { sides: [[A], [B]], target: 65 });
    expect(far.body).toMatchObject({ code: 'TARGET_OUT_OF_RANGE', rule: 'R3.1' });
    expect(far.body.detail).toMatch(/out of range/);
    const beavers = await c.post('/v1/matches', { sides: [[A], [B]], target: 5, rules: { beavers: true } });
    expect(beavers.status).toBe(422);
    expect(beavers.body.rule).toBe('R2.8');
    const off = await c.post('/v1/matches', { sides: [[A], [B]], target: 5, rules: { beavers: false, jacoby: false, automaticDoubles: 0 } });
    expect(off.status).toBe(201);
    const same = await c.post('/v1/matches', { sides: [[A], [A]], target: 5 });
    expect(same.status).toBe(422);
    const stranger = await c.post('/v1/matches', { sides: [[A], ['01a00000-0000-7000-8000-000000000000']], target: 5 });
    expect(stranger.status).toBe(422);
    expect(stranger.body.code).toBe('UNKNOWN_PLAYER');
    const noSession = await c.post('/v1/matches', { sides: [[A], [B]], target: 5, stakeMinor: 100 });
    expect(noSession.body).toMatchObject({ code: 'STAKE_NEEDS_SESSION', rule: 'R3.8' });
    const after = (await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM game_tables'))[0].n;
    expect(Number(after)).toBe(Number(before) + 1);
  });

  it("posts a pair match's stake when it ends, split evenly with the odd unit on the first-named player (R3.7, R3.8)", async () => {
    const session = await c.session();
    const id = await newMatch({
      sessionId: session,
      sides: [
        [A, B],
        [C, D],
      ],
      target: 3,
      stakeMinor: 1001,
    });
    // Carl doubles for his side, Anna takes for hers; Anna's side wins a gammon: 2 × 2 = 4 ≥ 3.
    const g = await c.post(`/v1/matches/${id}/games`, { actions: [double(C), take(A), finish(B, 'gammon')] });
    expect(g.body).toMatchObject({ points: 4, winnerSide: 0 });
    expect(g.body.payouts.every((p: { kind: string }) => p.kind === 'match-stake')).toBe(true);
    // 1001 split: Carl (first named) pays 501, Dora 500; Anna receives 501, Ben 500.
    expect(nets(g.body.payouts)).toEqual({ [A]: 501, [B]: 500, [C]: -501, [D]: -500 });
    const m = (await c.get(`/v1/matches/${id}`)).body;
    expect(m).toMatchObject({ score: [4, 0], status: 'finished', winnerSide: 0, stakeMinor: 1001, currency: 'USD' });
  });

  it('applies penalties between games: Crawford from a penalty, and a forfeit past half the target (R3.6)', async () => {
    const id = await newMatch({ sides: [[A], [B]], target: 5 });
    expect((await c.post(`/v1/matches/${id}/penalties`, { side: 0, points: 1, reason: 'Late' })).status).toBe(201);
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A, 'gammon')] }); // 1 + 2 = 3-0
    const p = await c.post(`/v1/matches/${id}/penalties`, { side: 0, points: 1, reason: 'Phone rang' }); // 4-0
    expect(p.body).toMatchObject({ score: [4, 0], status: 'in-progress', crawfordGameNo: 2 });
    const g2 = await c.post(`/v1/matches/${id}/games`);
    expect(g2.body.crawford).toBe(true);
    const during = await c.post(`/v1/matches/${id}/penalties`, { side: 1, points: 1, reason: 'x' });
    expect(during.status).toBe(422);
    expect(during.body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R3.6' });

    // 7 points: 2 + 2 = 4 penalty points against Ben exceed half the target (3.5): forfeited to Anna.
    const f = await newMatch({ sides: [[A], [B]], target: 7 });
    await c.post(`/v1/matches/${f}/penalties`, { side: 0, points: 2, reason: 'Late' });
    const last = await c.post(`/v1/matches/${f}/penalties`, { side: 0, points: 2, reason: 'Late again' });
    expect(last.body).toMatchObject({ score: [4, 0], status: 'finished', winnerSide: 0 });
    expect((await c.post(`/v1/matches/${f}/games`)).body.code).toBe('MATCH_FINISHED');

    // A penalty that ends the match before its Crawford game is played leaves no Crawford game (R3.2, R3.6).
    const e = await newMatch({ sides: [[A], [B]], target: 5 });
    await c.post(`/v1/matches/${e}/games`, { actions: [double(A), take(B), double(B), take(A), finish(B)] }); // 0-4
    expect((await c.get(`/v1/matches/${e}`)).body).toMatchObject({ score: [0, 4], crawfordGameNo: 2 });
    const ended = await c.post(`/v1/matches/${e}/penalties`, { side: 1, points: 1, reason: 'Ruling' }); // 0-5
    expect(ended.body).toMatchObject({ score: [0, 5], status: 'finished', winnerSide: 1, crawfordGameNo: null });
  });

  it('applies a batch all or nothing, undoes the last action, and keeps one game at a time (R6.8)', async () => {
    const id = await newMatch({ sides: [[A], [B]], target: 5 });
    const bad = await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B), double(A)] });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'NOT_CUBE_OWNER', rule: 'R2.2' });
    expect(bad.body.detail).toMatch(/^Action 3/);
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ games: [], version: 1 });

    const g = await c.post(`/v1/matches/${id}/games`, { actions: [double(A)] });
    expect(g.body.cubes[0]).toMatchObject({ value: 1, owner: null, pending: { by: A, value: 2, kind: 'double' } });
    expect((await c.post(`/v1/matches/${id}/games`)).body).toMatchObject({ code: 'GAME_IN_PROGRESS', rule: 'R6.8' });
    const wrongAnswer = await c.post(`/v1/matches/${id}/games/1/actions`, take(A));
    expect(wrongAnswer.body).toMatchObject({ code: 'NOT_DOUBLED_PARTY', rule: 'R2.6' });
    const undone = await c.post(`/v1/matches/${id}/games/1/undo`);
    expect(undone.status).toBe(200);
    // version 1 at the start (with the double), 2 after the undo; the refused take changed nothing
    expect(undone.body).toMatchObject({ actions: [], cubes: [{ value: 1, owner: null, pending: null }], version: 2 });
    const stale = await t.http().post(`/v1/matches/${id}/games/1/actions`).set('authorization', `Bearer ${c.owner}`).set('if-match', '"1"').send(double(B));
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('VERSION_MISMATCH');
    const fresh = await t.http().post(`/v1/matches/${id}/games/1/actions`).set('authorization', `Bearer ${c.owner}`).set('if-match', '"2"').send(double(B));
    expect(fresh.status).toBe(200);
    expect(fresh.headers.etag).toBe('"3"');
    const abandoned = await c.post(`/v1/matches/${id}/games/1/abandon`);
    expect(abandoned.body.status).toBe('abandoned');
    const next = await c.post(`/v1/matches/${id}/games`);
    expect(next.body.gameNo).toBe(2);
  });

  it('voids the latest finished game: the score (and Crawford) come back (R6.3)', async () => {
    const session = await c.session();
    const id = await newMatch({ sessionId: session, sides: [[A], [B]], target: 3, stakeMinor: 200 });
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] }); // 1-0
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] }); // 2-0: Crawford next
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [2, 0], crawfordGameNo: 3 });
    const notLatest = await c.post(`/v1/matches/${id}/games/1/void`, { reason: 'x' });
    expect(notLatest.body).toMatchObject({ code: 'NOT_LATEST_GAME', rule: 'R6.3' });
    const v = await c.post(`/v1/matches/${id}/games/2/void`, { reason: 'Wrong winner' });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ status: 'voided', voided: { reason: 'Wrong winner' } });
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [1, 0], crawfordGameNo: null, status: 'in-progress' });

    // Ben wins 2 points (doubled): 1-2, Ben at target − 1, so game 4 is the Crawford game;
    // Anna wins it with a gammon (2, no cube): 3-2, match over, stake 200 posted; voiding takes it back.
    await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B), finish(B)] });
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [1, 2], crawfordGameNo: 4 });
    const end = await c.post(`/v1/matches/${id}/games`, { actions: [finish(A, 'gammon')] });
    expect(end.body).toMatchObject({ crawford: true, points: 2 });
    expect(end.body.payouts).toEqual([{ from: B, to: A, amountMinor: 200, kind: 'match-stake' }]);
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [3, 2], status: 'finished', winnerSide: 0 });
    const undo = await c.post(`/v1/matches/${id}/games/4/void`, { reason: 'Recorded on the wrong table' });
    expect(undo.body.payouts).toEqual([
      { from: B, to: A, amountMinor: 200, kind: 'match-stake' },
      { from: A, to: B, amountMinor: 200, kind: 'void' },
    ]);
    expect((await c.get(`/v1/matches/${id}`)).body).toMatchObject({ score: [1, 2], status: 'in-progress', winnerSide: null });
    const sum = await t.sql<{ s: string }>(
      `SELECT coalesce(sum(CASE WHEN to_party = $2 THEN amount_minor ELSE 0 END) - sum(CASE WHEN from_party = $2 THEN amount_minor ELSE 0 END), 0)::text AS s FROM ledger_entries WHERE table_id = $1`,
      [id, A],
    );
    expect(sum[0].s).toBe('0');
  });

  it('lists matches by session, player and status', async () => {
    const session = await c.session();
    const m1 = await newMatch({ sessionId: session, sides: [[C], [D]], target: 1 });
    await c.post(`/v1/matches/${m1}/games`, { actions: [finish(C)] });
    const m2 = await newMatch({ sessionId: session, sides: [[A], [D]], target: 3 });
    const bySession = (await c.get(`/v1/matches?sessionId=${session}`)).body.items.map((x: { id: string }) => x.id);
    expect(bySession).toEqual([m1, m2]);
    const byPlayer = (await c.get(`/v1/matches?sessionId=${session}&playerId=${C}`)).body.items.map((x: { id: string }) => x.id);
    expect(byPlayer).toEqual([m1]);
    const finished = (await c.get(`/v1/matches?sessionId=${session}&status=finished`)).body.items.map((x: { id: string }) => x.id);
    expect(finished).toEqual([m1]);
  });
});

describe('match record export (.mat, for GNU Backgammon)', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben']);
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('writes the header, one block per game with the score before it, cube lines in the right column and the wins', async () => {
    const { Anna: A, Ben: B } = c.ids;
    const id = (await c.post('/v1/matches', { sides: [[A], [B]], target: 5 })).body.id;
    await c.post(`/v1/matches/${id}/games`, { actions: [double(A), take(B), finish(A)] }); // 2-0
    await c.post(`/v1/matches/${id}/games`, { actions: [double(B), pass(A)] }); // 2-1
    await c.post(`/v1/matches/${id}/games`, {}); // game 3 abandoned: not in the record
    await c.post(`/v1/matches/${id}/games/3/abandon`);
    await c.post(`/v1/matches/${id}/penalties`, { side: 0, points: 1, reason: 'Late' }); // 3-1
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(A)] }); // 4-1
    await c.post(`/v1/matches/${id}/games`, { actions: [finish(B, 'gammon')] }); // Crawford game: 4-3
    await c.post(`/v1/matches/${id}/games`, { actions: [double(B), take(A), finish(A)] }); // 6-3, the match
    const res = await t.http().get(`/v1/matches/${id}/export`).set(bearer(c.owner)).set('Accept', 'text/plain');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.text.split('\n');
    expect(lines).toContain(' 5 point match');
    // Game headers numbered 1..5, each followed by "Anna : a   Ben : b" with the score before it.
    const scores: Array<[number, number]> = [];
    lines.forEach((l, i) => {
      if (/^ Game \d+$/.test(l)) {
        const m = /^ Anna : (\d+)\s+Ben : (\d+)$/.exec(lines[i + 1]);
        expect(m).not.toBeNull();
        scores.push([Number(m![1]), Number(m![2])]);
      }
    });
    expect(scores).toEqual([
      [0, 0],
      [2, 0],
      [3, 1], // the penalty point is in the score before game 3 (R3.6)
      [4, 1],
      [4, 3],
    ]);
    // Anna's cube lines in the left column, Ben's in the right (from column 34).
    const rows = lines.filter((l) => /^\s+\d+\) /.test(l) || /Wins/.test(l));
    const left = (l: string) =>
      l
        .slice(0, 33)
        .trim()
        .replace(/^\d+\)\s*/, '');
    const right = (l: string) => l.slice(33).trim();
    expect(rows.map((l) => [left(l), right(l)])).toEqual([
      ['Doubles => 2', 'Takes'],
      ['Wins 2 points', ''],
      ['', 'Doubles => 2'],
      ['Drops', ''],
      ['', 'Wins 1 point'],
      ['Wins 1 point', ''],
      ['', 'Wins 2 points'],
      ['', 'Doubles => 2'],
      ['Takes', ''],
      ['Wins 2 points and the match', ''],
    ]);
    const notText = await t.http().get(`/v1/matches/${id}/export`).set(bearer(c.owner)).set('Accept', 'application/pdf');
    expect(notText.status).toBe(406);
  });
});
