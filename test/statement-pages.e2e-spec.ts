import { bearer, startApp, TestApp } from './support/app';
import { clubWith, finish, statementPages } from './support/club';

/**
 * A player's statement, a page at a time (R6.6), in a club in Asia/Tokyo (+09:00, no
 * summer time). Every figure is worked out by hand: a single game without the cube
 * costs the loser the stake (R4), no session has rake (R6.4), outstanding = net + paid −
 * received (R6.6).
 *
 * Anna's sessions, oldest first (startsAt; Tokyo day in brackets):
 *   S1 10-01T10:00Z (10-01)  Anna–Ben 100, Anna wins:  net +100
 *   S2 10-02T10:00Z (10-02)  Anna–Ben 200, Ben wins:   net −200; Anna pays Ben 50: outstanding −150
 *   S3 10-02T16:00Z (10-03)  Anna–Ben 300, Anna wins:  net +300 (a UTC 10-02 that is Tokyo's 10-03)
 *   S4 10-04T10:00Z (10-04)  Anna–Ben 400, Ben wins:   net −400
 *   S5 10-04T10:00Z (10-04)  Anna sits at a money game, no game: a line of zeros, 0 games
 *      (S4 and S5 start at the same instant: they follow in id order)
 *   S6 10-05T10:00Z          Ben–Cleo only: not on Anna's statement
 *   S7 10-06T10:00Z (10-06)  Anna–Cleo 500, Anna wins: net +500; Cleo pays Anna 500: outstanding 0
 *   S8 no startsAt: dated by its creation (today, after the others)  Anna–Ben 600, Ben wins: net −600
 * Whole history: net 100 − 200 + 300 − 400 + 500 − 600 = −300, paid 50, received 500,
 * balance −300 + 50 − 500 = −750.
 */
describe("a player's statement, paged (R6.6)", () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string;
  const S: Record<string, string> = {};

  type Line = { sessionId: string; netMinor: number; paidMinor: number; receivedMinor: number; outstandingMinor: number; games: number; date: string };
  type Body = { sessions: Line[]; payments: Array<{ sessionId: string; from: string; to: string; amountMinor: number }>; totals: Array<Record<string, unknown>>; nextCursor: string | null };

  const ok = async (res: PromiseLike<{ status: number; body: unknown }>, status = 201) => {
    const r = await res;
    expect({ status: r.status, body: r.body }).toMatchObject({ status });
    return r.body as Record<string, unknown>;
  };
  const game = async (session: string, players: string[], stakeMinor: number, winner: string | null) => {
    const id = (await ok(c.post('/v1/money-games', { sessionId: session, players, stakeMinor, rules: { jacoby: false } }))).id as string;
    if (winner) await ok(c.post(`/v1/money-games/${id}/games`, { actions: [finish(winner)] }));
  };
  /** Follows nextCursor from the first page to the last. */
  const allPages = (query: string) => statementPages<Body>(c, A, query, 20);
  const idsOf = (pages: Body[]) => pages.map((p) => p.sessions.map((s) => s.sessionId));

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo']);
    ({ Anna: A, Ben: B, Cleo: C } = c.ids);
    await ok(t.http().patch('/v1/club').set(bearer(c.owner)).set('if-match', '"1"').send({ timezone: 'Asia/Tokyo' }), 200);
    const at = {
      S1: '2026-10-01T10:00:00Z',
      S2: '2026-10-02T10:00:00Z',
      S3: '2026-10-02T16:00:00Z',
      S4: '2026-10-04T10:00:00Z',
      S5: '2026-10-04T10:00:00Z',
      S6: '2026-10-05T10:00:00Z',
      S7: '2026-10-06T10:00:00Z',
    };
    for (const [name, startsAt] of Object.entries(at)) S[name] = await c.session({ name, startsAt });
    S.S8 = await c.session({ name: 'S8' });
    await game(S.S1, [A, B], 100, A);
    await game(S.S2, [A, B], 200, B);
    await ok(c.post(`/v1/sessions/${S.S2}/payments`, { from: A, to: B, amountMinor: 50 }));
    await game(S.S3, [A, B], 300, A);
    await game(S.S4, [A, B], 400, B);
    await game(S.S5, [A, B], 100, null);
    await game(S.S6, [B, C], 100, B);
    await game(S.S7, [A, C], 500, A);
    await ok(c.post(`/v1/sessions/${S.S7}/payments`, { from: C, to: A, amountMinor: 500 }));
    await game(S.S8, [A, B], 600, B);
  });
  afterAll(() => t.close());

  /** S4 and S5 start together: by id. */
  const tied = () => [S.S4, S.S5].sort();
  const WHOLE = { currency: 'USD', openingMinor: 0, netMinor: -300, paidMinor: 50, receivedMinor: 500, closingMinor: -750, balanceMinor: -750 };

  it('pages of `limit` sessions, oldest first; nextCursor to the end gives every session once, in order; totals and balance the same on every page', async () => {
    const pages = await allPages('limit=3');
    expect(idsOf(pages)).toEqual([[S.S1, S.S2, S.S3], [...tied(), S.S7], [S.S8]]);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true]);
    for (const p of pages) expect(p.totals).toEqual([WHOLE]);
    // The lines' figures; summed over the pages they make the totals.
    const line = new Map(pages.flatMap((p) => p.sessions).map((s) => [s.sessionId, [s.date, s.games, s.netMinor, s.paidMinor, s.receivedMinor, s.outstandingMinor]]));
    expect([S.S1, S.S2, S.S3, S.S4, S.S5, S.S7].map((id) => line.get(id))).toEqual([
      ['2026-10-01', 1, 100, 0, 0, 100],
      ['2026-10-02', 1, -200, 50, 0, -150],
      ['2026-10-03', 1, 300, 0, 0, 300],
      ['2026-10-04', 1, -400, 0, 0, -400],
      ['2026-10-04', 0, 0, 0, 0, 0],
      ['2026-10-06', 1, 500, 0, 500, 0],
    ]);
    expect(line.get(S.S8)!.slice(1)).toEqual([1, -600, 0, 0, -600]);
    // Each page carries the payments of its own sessions.
    expect(pages.map((p) => p.payments.map((x) => [x.sessionId, x.from, x.to, x.amountMinor]))).toEqual([[[S.S2, A, B, 50]], [[S.S7, C, A, 500]], []]);

    // Without limit: the default page of 50 holds all seven, and is the last.
    const one = (await c.get(`/v1/players/${A}/statement`)).body as Body;
    expect(one.sessions.map((s) => s.sessionId)).toEqual([S.S1, S.S2, S.S3, ...tied(), S.S7, S.S8]);
    expect([one.nextCursor, one.totals]).toEqual([null, [WHOLE]]);
    // A page of one, seven times.
    expect(idsOf(await allPages('limit=1'))).toEqual([[S.S1], [S.S2], [S.S3], [tied()[0]], [tied()[1]], [S.S7], [S.S8]]);
  });

  it('from/to with paging: the range paged, its totals (opening, sums, closing) on every page, the balance the whole history', async () => {
    // Tokyo days 10-03 to 10-06: S3 (10-02T16:00Z is 01:00 on the 3rd), S4, S5, S7.
    const pages = await allPages('from=2026-10-03&to=2026-10-06&limit=2');
    expect(idsOf(pages)).toEqual([
      [S.S3, tied()[0]],
      [tied()[1], S.S7],
    ]);
    // Opening: S1 + S2 = 100 − 150 = −50; net 300 − 400 + 0 + 500 = 400; received 500; closing −50 + 400 − 500 = −150.
    const range = { currency: 'USD', openingMinor: -50, netMinor: 400, paidMinor: 0, receivedMinor: 500, closingMinor: -150, balanceMinor: -750 };
    for (const p of pages) expect(p.totals).toEqual([range]);
    expect(pages.map((p) => p.payments.map((x) => x.amountMinor))).toEqual([[], [500]]);

    // Only an end: S1 and S2 (S3 is Tokyo's 10-03); opening 0, closing 100 − 150 = −50.
    const early = await allPages('to=2026-10-02&limit=1');
    expect(idsOf(early)).toEqual([[S.S1], [S.S2]]);
    for (const p of early) expect(p.totals).toEqual([{ currency: 'USD', openingMinor: 0, netMinor: -100, paidMinor: 50, receivedMinor: 0, closingMinor: -50, balanceMinor: -750 }]);

    // An instant, inclusive: from S3's start on; opening −50, net 300 − 400 + 500 − 600 = −200, closing −50 − 200 − 500 = −750.
    const late = await allPages('from=2026-10-02T16:00:00Z&limit=4');
    expect(idsOf(late)).toEqual([[S.S3, ...tied(), S.S7], [S.S8]]);
    for (const p of late) expect(p.totals).toEqual([{ currency: 'USD', openingMinor: -50, netMinor: -200, paidMinor: 0, receivedMinor: 500, closingMinor: -750, balanceMinor: -750 }]);

    // A range with no session of Anna's (S6 is Ben and Cleo's): no line; opening and closing S1 to S5: 100 − 150 + 300 − 400 = −150.
    const none = (await c.get(`/v1/players/${A}/statement?from=2026-10-05&to=2026-10-05`)).body as Body;
    expect([none.sessions, none.payments, none.nextCursor]).toEqual([[], [], null]);
    expect(none.totals).toEqual([{ currency: 'USD', openingMinor: -150, netMinor: 0, paidMinor: 0, receivedMinor: 0, closingMinor: -150, balanceMinor: -750 }]);
  });

  it('refuses a cursor it did not give out, and a limit out of 1–200, as 400 problem+json', async () => {
    const key = (k: unknown) => Buffer.from(JSON.stringify(k)).toString('base64url');
    const bad = [
      'garbage',
      key([1, 2]),
      key(['x', 'y']),
      key(['2026-02-30T10:00:00.000000Z', S.S1]),
      key(['0000-01-01T00:00:00.000000Z', S.S1]),
      key(['2026-10-01T10:00:00.000000Z', 'not-a-uuid']),
      key([S.S1]),
    ];
    for (const cursor of bad) {
      const res = await c.get(`/v1/players/${A}/statement?cursor=${encodeURIComponent(cursor)}`);
      expect([res.status, res.headers['content-type'], res.body.code]).toEqual([400, expect.stringContaining('application/problem+json'), 'INVALID_CURSOR']);
      expect(res.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
    for (const limit of ['0', '201', 'ten']) {
      const res = await c.get(`/v1/players/${A}/statement?limit=${limit}`);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    // Far-off bounds are ranges like any other.
    const wide = await c.get(`/v1/players/${A}/statement?from=0001-01-01&to=9999-12-31&limit=200`);
    expect([wide.status, wide.body.sessions.length, wide.body.totals]).toEqual([200, 7, [WHOLE]]);
  });
});
