import { parseCsv } from './support/csv';
import { bearer, newClub, startApp, TestApp } from './support/app';
import { clubWith, double, finish, pass, take } from './support/club';
import { pdfText } from './support/pdf-text';
import { readModelDifferences } from './support/read-models';

/**
 * Two club nights and a euro evening, settled (R6). Every amount below is worked
 * out by hand from docs/rules.md; the comments show the arithmetic.
 *
 * Session 1 (USD, rake 2.5 %, R6.4):
 *   Anna–Ben money, 100/pt, no Jacoby:
 *     g1 Anna doubles, Ben takes, Anna wins single: 2 pts, Ben pays 200; rake ⌊200 × 2.5 %⌋ = 5.
 *     g2 Ben wins a gammon: 2 pts, Anna pays 200; rake 5.
 *     g3 Anna doubles, Ben passes: Ben pays the undoubled 1 pt, 100; rake ⌊2.5⌋ = 2. Then voided:
 *        both entries are reversed (R6.3).
 *     → Anna +195 − 200 = −5; Ben −200 + 195 = −5; house 10.
 *   Cleo–Dan money, 250/pt, no Jacoby:
 *     g1 Cleo doubles, Dan takes, Dan redoubles, Cleo takes, Dan wins a backgammon (× 3): 4 × 3 = 12 pts,
 *        Cleo pays 3000; rake 75.
 *     g2 Cleo wins single: Dan pays 250; rake ⌊6.25⌋ = 6.
 *     → Cleo −3000 + 244 = −2756; Dan 2925 − 250 = 2675; house 81.
 *   Anna–Cleo match to 3, stake 500: Anna wins 2 (doubled) then 1 (Crawford game): Cleo pays 500, no rake (R6.4).
 *   Nets: Anna 495, Ben −5, Cleo −3256, Dan 2675, house 91; sum 0.
 *   Payments: Cleo → Dan 2000; after the close, Cleo → house 91.
 *   Outstanding: Anna 495, Ben −5, Cleo −3256 + 2091 = −1165, Dan 675, house 0.
 *   Transfers (largest debtor to largest creditor): Cleo → Dan 675, Cleo → Anna 490, Ben → Anna 5.
 *
 * Session 2 (USD, no rake):
 *   Ben–Dan money, 100/pt: Dan doubles, Ben takes, Ben wins single: Dan pays 200.
 *   Chouette Anna (box) against Ben (captain) and Cleo, 100/pt: the box wins single: Ben and Cleo pay 100 each.
 *   Nets: Anna 200, Ben 100, Cleo −100, Dan −200. Payment: Dan → Anna 100.
 *   Outstanding: Anna 100, Ben 100, Cleo −100, Dan −100.
 *
 * Session 3 (EUR): Anna–Ben money 300/pt, Anna wins single: Ben pays 300.
 */
describe('settlement statements, payments and balances (R6) over HTTP', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let A: string, B: string, C: string, D: string;
  let s1: string, s2: string, s3: string;
  let ab: string;

  const sorted = (...ids: string[]) => [...ids].sort();

  beforeAll(async () => {
    t = await startApp();
    c = await clubWith(t, ['Anna', 'Ben', 'Cleo', 'Dan']);
    ({ Anna: A, Ben: B, Cleo: C, Dan: D } = c.ids);
    s1 = await c.session({ name: 'Tuesday night', rakePercent: 2.5, startsAt: '2026-11-03T19:00:00Z' });
    s2 = await c.session({ name: 'Friday night', startsAt: '2026-11-06T19:00:00Z' });
    s3 = await c.session({ name: 'Euro night', currency: 'EUR', startsAt: '2026-11-07T19:00:00Z' });
  });
  afterAll(async () => {
    // The read models the commands kept equal a rebuild from what this file recorded.
    try {
      expect(await readModelDifferences(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  const ok = async (res: Promise<{ status: number; body: unknown; text?: string }> | { status: number; body: unknown }, status = 201) => {
    const r = await res;
    expect({ status: r.status, body: r.body }).toMatchObject({ status });
    return r.body as Record<string, unknown>;
  };
  const money = async (sessionId: string, players: string[], stakeMinor: number) =>
    (await ok(c.post('/v1/money-games', { sessionId, players, stakeMinor, rules: { jacoby: false } }))).id as string;

  it('plays session 1: money with rake, a void, a staked match', async () => {
    ab = await money(s1, [A, B], 100);
    await ok(c.post(`/v1/money-games/${ab}/games`, { actions: [double(A), take(B), finish(A)] }));
    await ok(c.post(`/v1/money-games/${ab}/games`, { actions: [finish(B, 'gammon')] }));
    const g3 = await ok(c.post(`/v1/money-games/${ab}/games`, { actions: [double(A), pass(B)] }));
    expect(g3.payouts).toEqual([
      { from: B, to: A, amountMinor: 100, kind: 'game' },
      { from: A, to: 'house', amountMinor: 2, kind: 'rake' },
    ]);
    await ok(c.post(`/v1/money-games/${ab}/games/3/void`, { reason: 'wrong table' }), 200);

    const cd = await money(s1, [C, D], 250);
    await ok(c.post(`/v1/money-games/${cd}/games`, { actions: [double(C), take(D), double(D), take(C), finish(D, 'backgammon')] }));
    await ok(c.post(`/v1/money-games/${cd}/games`, { actions: [finish(C)] }));

    const match = (await ok(c.post('/v1/matches', { sessionId: s1, sides: [[A], [C]], target: 3, stakeMinor: 500 }))).id as string;
    await ok(c.post(`/v1/matches/${match}/games`, { actions: [double(A), take(C), finish(A)] }));
    await ok(c.post(`/v1/matches/${match}/games`, { actions: [finish(A)] }));
    expect((await c.get(`/v1/matches/${match}`)).body).toMatchObject({ status: 'finished', score: [3, 0] });
  });

  it('lists the session ledger with kinds and game references, paged', async () => {
    const all: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await c.get(`/v1/sessions/${s1}/ledger?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      all.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    // Anna–Ben: 3 games × (game + rake) + 2 void entries; Cleo–Dan: 2 × 2; the match: 1 stake.
    expect(all).toHaveLength(13);
    expect(pages).toBe(3);
    const count = (kind: string) => all.filter((e) => e.kind === kind).length;
    expect([count('game'), count('rake'), count('void'), count('match-stake')]).toEqual([5, 5, 2, 1]);
    const voids = all.filter((e) => e.kind === 'void');
    expect(voids.map((e) => [e.from, e.to, e.amountMinor])).toEqual([
      [A, B, 100],
      ['house', A, 2],
    ]);
    expect(voids[0]).toMatchObject({
      gameRef: { table: 'money-games', tableId: ab, gameNo: 3, href: `/v1/money-games/${ab}/games/3` },
      currency: 'USD',
    });
    expect(all.find((e) => e.kind === 'match-stake')).toMatchObject({ from: C, to: A, amountMinor: 500, gameRef: { table: 'matches', gameNo: 2 } });
    // Every entry sums to zero with its reversal; the whole ledger nets to zero by construction.
    const rake = (await c.get(`/v1/sessions/${s1}/ledger?kind=rake&limit=200`)).body.items;
    expect(rake.map((e: { amountMinor: number }) => e.amountMinor)).toEqual([5, 5, 2, 75, 6]);
    const house = (await c.get(`/v1/sessions/${s1}/ledger?party=house`)).body.items;
    expect(house).toHaveLength(6);
  });

  it('R6.7: refuses to close while a game is unfinished; closed, the statement stays', async () => {
    await ok(c.post(`/v1/money-games/${ab}/games`, {}));
    const busy = await c.post(`/v1/sessions/${s1}/close`);
    expect(busy.status).toBe(422);
    expect(busy.body).toMatchObject({ code: 'GAMES_IN_PROGRESS', rule: 'R6.7' });
    await ok(c.post(`/v1/money-games/${ab}/games/4/abandon`), 200);
    await ok(c.post(`/v1/sessions/${s1}/payments`, { from: C, to: D, amountMinor: 2000, note: 'cash' }));
    expect((await c.post(`/v1/sessions/${s1}/close`)).body).toMatchObject({ status: 'closed' });
    const late = await c.post('/v1/money-games', { sessionId: s1, players: [A, B], stakeMinor: 100 });
    expect(late.status).toBe(422);
    expect(late.body).toMatchObject({ code: 'SESSION_CLOSED', rule: 'R6.7' });
    // Cash still changes hands after the close (R6.6).
    const paid = await ok(c.post(`/v1/sessions/${s1}/payments`, { from: C, to: 'house', amountMinor: 91, note: 'rake' }));
    expect(paid).toMatchObject({ sessionId: s1, from: C, to: 'house', amountMinor: 91, currency: 'USD', note: 'rake' });
  });

  it('R6.5: the statement of session 1, worked out by hand', async () => {
    const res = await c.get(`/v1/sessions/${s1}/settlement`);
    expect(res.status).toBe(200);
    const st = res.body;
    expect(st).toMatchObject({ sessionId: s1, currency: 'USD', status: 'closed', rakePercent: 2.5, houseMinor: 91, houseOutstandingMinor: 0, totalMinor: 0 });
    const byId = Object.fromEntries(st.players.map((p: { playerId: string }) => [p.playerId, p]));
    expect(byId[A]).toEqual({ playerId: A, name: 'Anna', netMinor: 495, games: 4, paidMinor: 0, receivedMinor: 0, outstandingMinor: 495 });
    expect(byId[B]).toEqual({ playerId: B, name: 'Ben', netMinor: -5, games: 2, paidMinor: 0, receivedMinor: 0, outstandingMinor: -5 });
    expect(byId[C]).toEqual({ playerId: C, name: 'Cleo', netMinor: -3256, games: 4, paidMinor: 2091, receivedMinor: 0, outstandingMinor: -1165 });
    expect(byId[D]).toEqual({ playerId: D, name: 'Dan', netMinor: 2675, games: 2, paidMinor: 0, receivedMinor: 2000, outstandingMinor: 675 });
    expect(st.players.map((p: { name: string }) => p.name)).toEqual(['Anna', 'Ben', 'Cleo', 'Dan']);
    expect(st.transfers).toEqual([
      { from: C, fromName: 'Cleo', to: D, toName: 'Dan', amountMinor: 675 },
      { from: C, fromName: 'Cleo', to: A, toName: 'Anna', amountMinor: 490 },
      { from: B, fromName: 'Ben', to: A, toName: 'Anna', amountMinor: 5 },
    ]);
    expect(st.payments.map((p: { from: string; to: string; amountMinor: number }) => [p.from, p.to, p.amountMinor])).toEqual([
      [C, D, 2000],
      [C, 'house', 91],
    ]);
    // asOf is the latest movement, so recomputing gives the same bytes.
    expect(st.asOf).toBe(st.payments[1].at);
    const again = await c.get(`/v1/sessions/${s1}/settlement`);
    expect(again.text).toBe(res.text);
  });

  it('R6.5: the same statement as CSV, parsed back', async () => {
    const res = await c.get(`/v1/sessions/${s1}/settlement`).set('Accept', 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(res.text);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const players = rows.filter((r) => r[0] === 'player');
    expect(players.map((r) => [col(r, 'name'), col(r, 'games'), col(r, 'netMinor'), col(r, 'outstandingMinor')])).toEqual([
      ['Anna', '4', '495', '495'],
      ['Ben', '2', '-5', '-5'],
      ['Cleo', '4', '-3256', '-1165'],
      ['Dan', '2', '2675', '675'],
    ]);
    expect(rows.filter((r) => r[0] === 'transfer').map((r) => [col(r, 'fromName'), col(r, 'toName'), col(r, 'amountMinor')])).toEqual([
      ['Cleo', 'Dan', '675'],
      ['Cleo', 'Anna', '490'],
      ['Ben', 'Anna', '5'],
    ]);
    expect(
      col(
        rows.find((r) => r[0] === 'house')!,
        'netMinor',
      ),
    ).toBe('91');
    expect(
      col(
        rows.find((r) => r[0] === 'total')!,
        'netMinor',
      ),
    ).toBe('0');
  });

  it('R6.5: the same statement as a one-page PDF', async () => {
    const res = await c
      .get(`/v1/sessions/${s1}/settlement`)
      .set('Accept', 'application/pdf')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (x: Buffer) => chunks.push(x));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = pdfText(res.body as Buffer);
    expect(pdf.pages).toBe(1);
    const text = pdf.text.join('\n');
    for (const s of ['Tuesday night', 'Anna', 'Ben', 'Cleo', 'Dan', '4.95', '-32.56', '26.75', '6.75', '4.90', '0.91', 'USD']) expect(text).toContain(s);
  });

  it('answers 406 for a media type it cannot give, and 404 for another club', async () => {
    const res = await c.get(`/v1/sessions/${s1}/settlement`).set('Accept', 'text/html');
    expect(res.status).toBe(406);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'NOT_ACCEPTABLE' });
    const other = await newClub(t);
    for (const url of [`/v1/sessions/${s1}/settlement`, `/v1/sessions/${s1}/ledger`, `/v1/sessions/${s1}/payments`]) {
      expect((await t.http().get(url).set(bearer(other.owner))).status).toBe(404);
    }
    const foreign = await t.http().post(`/v1/sessions/${s1}/payments`).set(bearer(other.owner)).send({ from: A, to: B, amountMinor: 1 });
    expect(foreign.status).toBe(404);
  });

  it('R6.6: refuses bad payments and changes nothing', async () => {
    const before = (await c.get(`/v1/sessions/${s2}/payments`)).body.items.length;
    const same = await c.post(`/v1/sessions/${s2}/payments`, { from: A, to: A, amountMinor: 100 });
    expect(same.status).toBe(422);
    expect(same.body).toMatchObject({ code: 'SAME_PARTY', rule: 'R6.6' });
    const stranger = await c.post(`/v1/sessions/${s2}/payments`, { from: A, to: '0190aaaa-0000-7000-8000-000000000000', amountMinor: 100 });
    expect(stranger.status).toBe(422);
    expect(stranger.body).toMatchObject({ code: 'UNKNOWN_PLAYER' });
    for (const amountMinor of [0, -5, 1.5, 2 ** 53, '100']) {
      const bad = await c.post(`/v1/sessions/${s2}/payments`, { from: A, to: B, amountMinor });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toContain('amountMinor');
    }
    expect((await c.post(`/v1/sessions/${s2}/payments`, { from: 'nobody', to: B, amountMinor: 1 })).status).toBe(400);
    expect((await c.post(`/v1/sessions/${s2}/payments`, { from: A, to: B, amountMinor: 1, tip: 2 })).status).toBe(400);
    expect((await c.get(`/v1/sessions/${s2}/payments`)).body.items.length).toBe(before);
  });

  it('plays session 2 and settles it; ties go by id', async () => {
    const bd = await money(s2, [B, D], 100);
    await ok(c.post(`/v1/money-games/${bd}/games`, { actions: [double(D), take(B), finish(B)] }));
    const ch = (await ok(c.post('/v1/chouettes', { sessionId: s2, stakeMinor: 100, seating: { order: [A, B, C] } }))).id as string;
    await ok(c.post(`/v1/chouettes/${ch}/games`, { actions: [finish(A)] }));
    await ok(c.post(`/v1/sessions/${s2}/payments`, { from: D, to: A, amountMinor: 100, note: 'towards Tuesday' }));

    const st = (await c.get(`/v1/sessions/${s2}/settlement`)).body;
    const row = (id: string) => st.players.find((p: { playerId: string }) => p.playerId === id);
    expect([row(A), row(B), row(C), row(D)].map((p) => [p.netMinor, p.games, p.outstandingMinor])).toEqual([
      [200, 1, 100],
      [100, 2, 100],
      [-100, 1, -100],
      [-200, 1, -100],
    ]);
    // Four balances of 100: the debtors in id order pay the creditors in id order.
    const [d1, d2] = sorted(C, D);
    const [c1, c2] = sorted(A, B);
    expect(st.transfers.map((x: { from: string; to: string; amountMinor: number }) => [x.from, x.to, x.amountMinor])).toEqual([
      [d1, c1, 100],
      [d2, c2, 100],
    ]);
    expect(st).toMatchObject({ houseMinor: 0, totalMinor: 0, status: 'open' });
  });

  it('R6.6: balances per player and currency across sessions', async () => {
    const eu = await money(s3, [A, B], 300);
    await ok(c.post(`/v1/money-games/${eu}/games`, { actions: [finish(A)] }));
    const res = await c.get('/v1/balances');
    expect(res.status).toBe(200);
    const items = res.body.items.map((b: { playerId: string; currency: string; balanceMinor: number }) => [b.currency, b.playerId, b.balanceMinor]);
    // USD: Anna 495 + 100, Ben −5 + 100, Cleo −1165 − 100, Dan 675 − 100, house 91 − 91.
    // EUR: Anna 300, Ben −300. Sorted by currency, then name.
    expect(items).toEqual([
      ['EUR', A, 300],
      ['EUR', B, -300],
      ['USD', A, 595],
      ['USD', B, 95],
      ['USD', C, -1265],
      ['USD', D, 575],
      ['USD', 'house', 0],
    ]);
    const outstanding = (await c.get('/v1/balances?outstanding=true&currency=USD')).body.items;
    expect(outstanding.map((b: { name: string }) => b.name)).toEqual(['Anna', 'Ben', 'Cleo', 'Dan']);
    expect((await c.get(`/v1/balances?playerId=${D}`)).body.items).toEqual([{ playerId: D, name: 'Dan', currency: 'USD', balanceMinor: 575 }]);
  });

  it('R6.6: a player statement over a date range', async () => {
    const all = await c.get(`/v1/players/${D}/statement`);
    expect(all.status).toBe(200);
    expect(all.body.sessions.map((s: Record<string, unknown>) => [s.name, s.date, s.games, s.netMinor, s.paidMinor, s.receivedMinor, s.outstandingMinor])).toEqual([
      ['Tuesday night', '2026-11-03', 2, 2675, 0, 2000, 675],
      ['Friday night', '2026-11-06', 1, -200, 100, 0, -100],
    ]);
    expect(all.body.totals).toEqual([{ currency: 'USD', openingMinor: 0, netMinor: 2475, paidMinor: 100, receivedMinor: 2000, closingMinor: 575, balanceMinor: 575 }]);
    expect(all.body.payments.map((p: Record<string, unknown>) => [p.fromName, p.toName, p.amountMinor])).toEqual([
      ['Cleo', 'Dan', 2000],
      ['Dan', 'Anna', 100],
    ]);

    const later = (await c.get(`/v1/players/${D}/statement?from=2026-11-05`)).body;
    expect(later.sessions.map((s: { name: string }) => s.name)).toEqual(['Friday night']);
    expect(later.totals).toEqual([{ currency: 'USD', openingMinor: 675, netMinor: -200, paidMinor: 100, receivedMinor: 0, closingMinor: 575, balanceMinor: 575 }]);
    expect(later.payments).toHaveLength(1);

    const earlier = (await c.get(`/v1/players/${D}/statement?from=2026-11-01&to=2026-11-04`)).body;
    expect(earlier.sessions.map((s: { name: string }) => s.name)).toEqual(['Tuesday night']);
    expect(earlier.totals[0]).toMatchObject({ openingMinor: 0, closingMinor: 675, balanceMinor: 575 });

    const anna = (await c.get(`/v1/players/${A}/statement?from=2026-11-07T00:00:00Z`)).body;
    expect(anna.totals).toEqual([
      { currency: 'EUR', openingMinor: 0, netMinor: 300, paidMinor: 0, receivedMinor: 0, closingMinor: 300, balanceMinor: 300 },
      { currency: 'USD', openingMinor: 595, netMinor: 0, paidMinor: 0, receivedMinor: 0, closingMinor: 595, balanceMinor: 595 },
    ]);

    expect((await c.get(`/v1/players/${D}/statement?from=2026-02-30`)).status).toBe(400);
    expect((await c.get(`/v1/players/${D}/statement?to=yesterday`)).status).toBe(400);
    expect((await c.get('/v1/players/0190aaaa-0000-7000-8000-000000000000/statement')).status).toBe(404);
  });

  it('keeps the running totals equal to the ledger and the finished games, voids included', async () => {
    // What the statement reads (session_totals) against a recount from the ledger and the games.
    const totals = await t.sql<{ session_id: string; party: string; net: string; games: number }>(
      `SELECT session_id, party, net_minor::text AS net, games FROM session_totals ORDER BY session_id, party`,
    );
    const recount = await t.sql<{ session_id: string; party: string; net: string; games: number }>(
      `SELECT session_id, party, sum(net)::text AS net, sum(games)::int AS games FROM (
         SELECT l.session_id, p.party, p.amount AS net, 0 AS games FROM ledger_entries l
          CROSS JOIN LATERAL (VALUES (l.to_party, l.amount_minor), (l.from_party, -l.amount_minor)) AS p (party, amount)
         UNION ALL
         SELECT t.session_id, p::text, 0, 1 FROM games g JOIN game_tables t ON t.club_id = g.club_id AND t.id = g.table_id
          CROSS JOIN unnest(g.players) AS p WHERE g.status = 'finished' AND t.session_id IS NOT NULL
       ) x GROUP BY session_id, party ORDER BY session_id, party`,
    );
    expect(totals.length).toBeGreaterThan(10);
    expect(totals).toEqual(recount);
  });
});
