import { bearer, startApp, TestApp } from './support/app';
import { clubWith, finish, statementPages } from './support/club';
import { readModelDifferences } from './support/read-models';

/**
 * The statement of a player who plays rarely (R6.6): thirty sessions a day apart, Max and
 * Nils at a money game in every one, Rita on six of them. Her pages list her sessions
 * alone, oldest first, whatever lies between them. A single game without the cube costs
 * the loser the stake (R4), no rake (R6.4), outstanding = net + paid − received (R6.6);
 * the club is in UTC, so a session's day is its startsAt's.
 *
 * Sessions S1–S30 start on 2026-11-01 … 2026-11-30 at 18:00Z. Rita's, by date:
 *   S4  11-04  Rita–Max 100, Rita wins:                    net +100, outstanding +100
 *   S9  11-09  Rita–Nils 200, Nils wins; Rita pays Nils 200: net −200, paid 200, outstanding 0
 *   S15 11-15  not seated; Max pays Rita 50:                received 50, outstanding −50
 *   S22 11-22  Rita sits with Max, no game:                 a line of zeros
 *   S27 11-27  Rita–Max 300, Rita wins:                     net +300, outstanding +300
 *   S3  moved from 11-03 to 12-15 (after S30), Rita–Nils 400, Nils wins: net −400, outstanding −400
 * Whole history: net 100 − 200 + 300 − 400 = −200, paid 200, received 50,
 * balance −200 + 200 − 50 = −50.
 */
describe("a rare player's statement (R6.6)", () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let R: string, M: string, N: string;
  const S: string[] = [];

  type Line = { sessionId: string; name: string; date: string; games: number; netMinor: number; paidMinor: number; receivedMinor: number; outstandingMinor: number };
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
  const pay = (session: string, from: string, to: string, amountMinor: number) => ok(c.post(`/v1/sessions/${session}/payments`, { from, to, amountMinor }));
  /** Rita's pages, following nextCursor from the first to the last. */
  const allPages = (query: string) => statementPages<Body>(c, R, query, 10);
  const namesOf = (pages: Body[]) => pages.map((p) => p.sessions.map((s) => s.name));

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Rita', 'Max', 'Nils']);
    ({ Rita: R, Max: M, Nils: N } = c.ids);
    await ok(t.http().patch('/v1/club').set(bearer(c.owner)).set('if-match', '"1"').send({ timezone: 'UTC' }), 200);
    for (let i = 1; i <= 30; i++) {
      S[i] = await c.session({ name: `S${i}`, startsAt: `2026-11-${String(i).padStart(2, '0')}T18:00:00Z` });
      await game(S[i], [M, N], 100, i % 2 === 0 ? M : N);
    }
    await game(S[3], [R, N], 400, N);
    await game(S[4], [R, M], 100, R);
    await game(S[9], [R, N], 200, N);
    await pay(S[9], R, N, 200);
    await pay(S[15], M, R, 50);
    await game(S[22], [R, M], 100, null);
    await game(S[27], [R, M], 300, R);
    // S3 starts later: after S30, so last on Rita's statement.
    const version = (await c.get(`/v1/sessions/${S[3]}`)).body.version as number;
    await ok(t.http().patch(`/v1/sessions/${S[3]}`).set(bearer(c.owner)).set('if-match', `"${version}"`).send({ startsAt: '2026-12-15T18:00:00Z' }), 200);
  });
  afterAll(() => t.close());

  const WHOLE = { currency: 'USD', openingMinor: 0, netMinor: -200, paidMinor: 200, receivedMinor: 50, closingMinor: -50, balanceMinor: -50 };

  it('pages list exactly her sessions, oldest first, each once; the lines and payments as worked out; the totals on every page', async () => {
    const pages = await allPages('limit=2');
    expect(namesOf(pages)).toEqual([
      ['S4', 'S9'],
      ['S15', 'S22'],
      ['S27', 'S3'],
    ]);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true]);
    for (const p of pages) expect(p.totals).toEqual([WHOLE]);
    const lines = pages.flatMap((p) => p.sessions).map((s) => [s.name, s.date, s.games, s.netMinor, s.paidMinor, s.receivedMinor, s.outstandingMinor]);
    expect(lines).toEqual([
      ['S4', '2026-11-04', 1, 100, 0, 0, 100],
      ['S9', '2026-11-09', 1, -200, 200, 0, 0],
      ['S15', '2026-11-15', 0, 0, 0, 50, -50],
      ['S22', '2026-11-22', 0, 0, 0, 0, 0],
      ['S27', '2026-11-27', 1, 300, 0, 0, 300],
      ['S3', '2026-12-15', 1, -400, 0, 0, -400],
    ]);
    expect(pages.map((p) => p.payments.map((x) => [x.sessionId, x.from, x.to, x.amountMinor]))).toEqual([[[S[9], R, N, 200]], [[S[15], M, R, 50]], []]);
    // One page of all six, and the last page again from its cursor: the same sessions.
    const one = (await c.get(`/v1/players/${R}/statement?limit=6`)).body as Body;
    expect([one.sessions.map((s) => s.sessionId), one.nextCursor]).toEqual([[S[4], S[9], S[15], S[22], S[27], S[3]], null]);
    const last = (await c.get(`/v1/players/${R}/statement?limit=2&cursor=${encodeURIComponent(pages[1].nextCursor!)}`)).body as Body;
    expect(last.sessions.map((s) => s.sessionId)).toEqual([S[27], S[3]]);
  });

  it('a range pages her sessions in it; opening and closing from those before and after it', async () => {
    // 11-09 to 11-22: S9, S15, S22. Opening: S4 = +100. Range: net −200, paid 200, received 50.
    // Closing 100 − 200 + 200 − 50 = 50. (After it: S27 + S3 = 300 − 400 = −100; −50 − (−50) − (−100) = 100, the opening.)
    const pages = await allPages('from=2026-11-09&to=2026-11-22&limit=2');
    expect(namesOf(pages)).toEqual([['S9', 'S15'], ['S22']]);
    const range = { currency: 'USD', openingMinor: 100, netMinor: -200, paidMinor: 200, receivedMinor: 50, closingMinor: 50, balanceMinor: -50 };
    for (const p of pages) expect(p.totals).toEqual([range]);
    // Only an end, 11-30: S4 to S27 (S3 now dated 12-15); net 100 − 200 + 300 = 200, closing 200 + 200 − 50 = 350.
    const early = await allPages('to=2026-11-30&limit=5');
    expect(namesOf(early)).toEqual([['S4', 'S9', 'S15', 'S22', 'S27']]);
    expect(early[0].totals).toEqual([{ currency: 'USD', openingMinor: 0, netMinor: 200, paidMinor: 200, receivedMinor: 50, closingMinor: 350, balanceMinor: -50 }]);
    // Her old date of S3 holds nothing now: 11-01 to 11-03 is empty, opening and closing 0.
    const none = (await c.get(`/v1/players/${R}/statement?from=2026-11-01&to=2026-11-03`)).body as Body;
    expect([none.sessions, none.nextCursor, none.totals]).toEqual([[], null, [{ ...WHOLE, netMinor: 0, paidMinor: 0, receivedMinor: 0, closingMinor: 0 }]]);
  });

  it("Max's statement lists all thirty of his sessions, S3 last; the read models equal a rebuild", async () => {
    const res = (await c.get(`/v1/players/${M}/statement?limit=200`)).body as Body;
    // S1–S30, S3 moved to the end: 30 sessions, each once.
    expect(res.sessions.map((s) => s.name)).toEqual([...Array.from({ length: 30 }, (_, i) => `S${i + 1}`).filter((n) => n !== 'S3'), 'S3']);
    expect(await readModelDifferences(t)).toEqual([]);
  });
});
