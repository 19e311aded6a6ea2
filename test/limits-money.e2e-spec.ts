import { PARTY_VOLUMES_FROM_HISTORY } from '../migrations/1765158240000-PartyVolumes';
import { startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { pdfText } from './support/pdf-text';

/**
 * R6.2 at the edge of the range: every figure the API reports about a party (balances,
 * statements, nets, table nets, stats, standings) is a safe integer, so writes that
 * would take a party's money past ±(2^53 − 1) are refused, and the largest allowed
 * values are reported exactly.
 */
const MAX = Number.MAX_SAFE_INTEGER;

const refusedR62 = { status: 422, code: 'AMOUNT_OUT_OF_RANGE', rule: 'R6.2' };

describe('money at ±(2^53 − 1) (R6.2) over HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const binary = (r: { on: (e: string, f: (x?: Buffer) => void) => void }, cb: (err: null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    r.on('data', (x?: Buffer) => chunks.push(x!));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  };

  it('two payments of 2^53 − 1 between the same players: the second is refused, every read stays exact', async () => {
    const c = await clubWith(t, ['Anna', 'Ben', 'Cleo']);
    const { Anna: A, Ben: B, Cleo: C } = c.ids;
    const s = await c.session();
    const first = await c.post(`/v1/sessions/${s}/payments`, { from: A, to: B, amountMinor: MAX });
    expect(first.status).toBe(201);
    expect(first.body.amountMinor).toBe(MAX);

    const second = await c.post(`/v1/sessions/${s}/payments`, { from: A, to: B, amountMinor: MAX });
    expect(second.status).toBe(422);
    expect(second.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(second.body).toMatchObject(refusedR62);
    // Ben has received 2^53 − 1 already: one more unit from anyone would take him past it.
    expect((await c.post(`/v1/sessions/${s}/payments`, { from: C, to: B, amountMinor: 1 })).body).toMatchObject(refusedR62);
    // In a later session too: balances add up across sessions.
    const s2 = await c.session({ name: 'Next night' });
    expect((await c.post(`/v1/sessions/${s2}/payments`, { from: B, to: C, amountMinor: 1 })).body).toMatchObject(refusedR62);
    expect((await c.get(`/v1/sessions/${s}/payments`)).body.items).toHaveLength(1);
    expect((await c.get(`/v1/sessions/${s2}/payments`)).body.items).toHaveLength(0);

    // R6.6: Anna paid 2^53 − 1, so she is owed it; Ben received it, so he owes it.
    const balances = await c.get('/v1/balances');
    expect(balances.status).toBe(200);
    expect(balances.body.items).toEqual([
      { playerId: A, name: 'Anna', currency: 'USD', balanceMinor: MAX },
      { playerId: B, name: 'Ben', currency: 'USD', balanceMinor: -MAX },
    ]);
    const statement = await c.get(`/v1/players/${B}/statement`);
    expect(statement.status).toBe(200);
    expect(statement.body.totals).toEqual([{ currency: 'USD', openingMinor: 0, netMinor: 0, paidMinor: 0, receivedMinor: MAX, closingMinor: -MAX, balanceMinor: -MAX }]);
    const settlement = await c.get(`/v1/sessions/${s}/settlement`);
    expect(settlement.status).toBe(200);
    expect(settlement.body.players.find((p: { playerId: string }) => p.playerId === A)).toMatchObject({ paidMinor: MAX, outstandingMinor: MAX });
    expect(settlement.body.transfers).toEqual([expect.objectContaining({ from: B, to: A, amountMinor: MAX })]);
    const csv = await c.get(`/v1/sessions/${s}/settlement`).set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(String(MAX));
    const pdf = await c.get(`/v1/sessions/${s}/settlement`).set('Accept', 'application/pdf').buffer(true).parse(binary);
    expect(pdf.status).toBe(200);
    // 9007199254740991 minor units of USD: 90,071,992,547,409.91.
    expect(pdfText(pdf.body as Buffer).text.join('\n')).toContain('90,071,992,547,409.91');
  });

  it('a payment that brings a party to exactly 2^53 − 1 is accepted and reported exactly', async () => {
    const c = await clubWith(t, ['Cleo', 'Dan']);
    const { Cleo: C, Dan: D } = c.ids;
    const s = await c.session();
    expect((await c.post(`/v1/sessions/${s}/payments`, { from: C, to: D, amountMinor: MAX - 1 })).status).toBe(201);
    expect((await c.post(`/v1/sessions/${s}/payments`, { from: D, to: C, amountMinor: 1 })).status).toBe(201);
    expect((await c.post(`/v1/sessions/${s}/payments`, { from: C, to: D, amountMinor: 1 })).body).toMatchObject(refusedR62);
    const balances = (await c.get('/v1/balances')).body.items;
    expect(balances).toEqual([
      { playerId: C, name: 'Cleo', currency: 'USD', balanceMinor: MAX - 2 },
      { playerId: D, name: 'Dan', currency: 'USD', balanceMinor: -(MAX - 2) },
    ]);
    const statement = (await c.get(`/v1/sessions/${s}/settlement`)).body;
    expect(statement.players.find((p: { playerId: string }) => p.playerId === C)).toMatchObject({ paidMinor: MAX - 1, receivedMinor: 1, outstandingMinor: MAX - 2 });
  });

  it('money games at a stake of 2^53 − 1: the largest payout is exact; a finish that would pass the bound is refused and writes nothing', async () => {
    const c = await clubWith(t, ['Anna', 'Ben']);
    const { Anna: A, Ben: B } = c.ids;
    const s = await c.session();
    const table = await c.post('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: MAX, rules: { jacoby: false } });
    expect(table.status).toBe(201);
    const id = table.body.id as string;

    const g1 = await c.post(`/v1/money-games/${id}/games`, { actions: [finish(A)] });
    expect(g1.status).toBe(201);
    expect(g1.body).toMatchObject({ points: 1, payouts: [{ from: B, to: A, amountMinor: MAX }] });
    expect((await c.get(`/v1/money-games/${id}`)).body.netMinor).toEqual({ [A]: MAX, [B]: -MAX });

    // A second game would take Anna's and Ben's money past 2^53 − 1, whoever wins.
    const started = await c.post(`/v1/money-games/${id}/games`);
    expect(started.status).toBe(201);
    for (const winner of [A, B]) {
      const refused = await c.post(`/v1/money-games/${id}/games/2/actions`, finish(winner));
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject(refusedR62);
    }
    const game2 = (await c.get(`/v1/money-games/${id}/games/2`)).body;
    expect(game2).toMatchObject({ status: 'in-progress', result: null, payouts: [], version: started.body.version });
    // Recorded whole, the game is refused as a whole: no third game appears.
    expect((await c.post(`/v1/money-games/${id}/games/2/abandon`)).status).toBe(200);
    const whole = await c.post(`/v1/money-games/${id}/games`, { actions: [finish(B)] });
    expect(whole.body).toMatchObject(refusedR62);
    expect((await c.get(`/v1/money-games/${id}/games`)).body.items).toHaveLength(2);

    // Nothing was written: one ledger entry, the same balances, and every read answers.
    expect((await c.get(`/v1/sessions/${s}/ledger`)).body.items).toHaveLength(1);
    expect((await c.get('/v1/balances')).body.items).toEqual([
      { playerId: A, name: 'Anna', currency: 'USD', balanceMinor: MAX },
      { playerId: B, name: 'Ben', currency: 'USD', balanceMinor: -MAX },
    ]);
    expect((await c.get(`/v1/money-games/${id}`)).body.netMinor).toEqual({ [A]: MAX, [B]: -MAX });
    expect((await c.get(`/v1/money-games?sessionId=${s}`)).status).toBe(200);
    const anna = await c.get(`/v1/players/${A}`);
    expect(anna.status).toBe(200);
    expect(anna.body.stats.money).toEqual([{ currency: 'USD', netMinor: MAX }]);
    const standings = await c.get(`/v1/sessions/${s}/standings`);
    expect(standings.status).toBe(200);
    expect(standings.body.items.map((i: { netMinor: number }) => i.netMinor)).toEqual([MAX, -MAX]);
    const settlement = await c.get(`/v1/sessions/${s}/settlement`);
    expect(settlement.status).toBe(200);
    expect(settlement.body).toMatchObject({ totalMinor: 0, transfers: [{ from: B, to: A, amountMinor: MAX }] });
    expect((await c.get(`/v1/players/${A}/statement`)).body.totals).toEqual([
      { currency: 'USD', openingMinor: 0, netMinor: MAX, paidMinor: 0, receivedMinor: 0, closingMinor: MAX, balanceMinor: MAX },
    ]);
    // The void of the one game stays possible: it brings both back to zero.
    expect((await c.post(`/v1/money-games/${id}/games/1/void`, { reason: 'test' })).status).toBe(200);
    expect((await c.get('/v1/balances')).body.items.map((i: { balanceMinor: number }) => i.balanceMinor)).toEqual([0, 0]);
  });

  it('a payout beyond 2^53 − 1 (stake × cube) is refused at the finish; the game is unchanged and can be abandoned', async () => {
    const c = await clubWith(t, ['Anna', 'Ben']);
    const { Anna: A, Ben: B } = c.ids;
    const s = await c.session();
    const id = (await c.post('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: MAX })).body.id as string;
    await c.post(`/v1/money-games/${id}/games`, { actions: [double(A), take(B)] });
    const before = (await c.get(`/v1/money-games/${id}/games/1`)).body;
    const refused = await c.post(`/v1/money-games/${id}/games/1/actions`, finish(A));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject(refusedR62);
    expect((await c.get(`/v1/money-games/${id}/games/1`)).body).toEqual(before);
    expect((await c.post(`/v1/money-games/${id}/games/1/abandon`)).status).toBe(200);
    expect((await c.get(`/v1/sessions/${s}/ledger`)).body.items).toEqual([]);
  });

  it('the house counts too: rake that would take it past 2^53 − 1 is refused', async () => {
    const c = await clubWith(t, ['Anna', 'Ben', 'Cleo']);
    const { Anna: A, Ben: B, Cleo: C } = c.ids;
    const s = await c.session({ rakePercent: 10 });
    expect((await c.post(`/v1/sessions/${s}/payments`, { from: C, to: 'house', amountMinor: MAX - 10 })).status).toBe(201);
    const id = (await c.post('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: 100 })).body.id as string;
    // Anna wins 100 → rake 10: the house reaches exactly 2^53 − 1.
    const fine = await c.post(`/v1/money-games/${id}/games`, { actions: [finish(A)] });
    expect(fine.status).toBe(201);
    const raked = await c.post('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: 50 });
    expect((await c.post(`/v1/money-games/${raked.body.id}/games`, { actions: [finish(B)] })).body).toMatchObject(refusedR62);
    // R6.6: the house's outstanding = its net (rake 10) + paid (0) − received (2^53 − 11).
    const house = (await c.get('/v1/balances')).body.items.find((i: { playerId: string }) => i.playerId === 'house');
    expect(house.balanceMinor).toBe(10 - (MAX - 10));
    expect((await c.get(`/v1/sessions/${s}/settlement`)).body.houseMinor).toBe(10);
  });

  it('a chouette box whose winnings would pass 2^53 − 1 is refused (R6.2)', async () => {
    const c = await clubWith(t, ['Anna', 'Ben', 'Cleo']);
    const { Anna: A, Ben: B, Cleo: C } = c.ids;
    const s = await c.session();
    const stake = Math.floor(MAX / 2) + 1;
    const ch = await c.post('/v1/chouettes', { sessionId: s, stakeMinor: stake, seating: { order: [A, B, C] } });
    expect(ch.status).toBe(201);
    const refused = await c.post(`/v1/chouettes/${ch.body.id}/games`, { actions: [finish(A)] });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject(refusedR62);
    expect((await c.get(`/v1/sessions/${s}/ledger`)).body.items).toEqual([]);
  });

  it("what counts against the bound is each party's amounts, exactly: games, rake, voids and payments", async () => {
    const c = await clubWith(t, ['Anna', 'Ben', 'Cleo']);
    const { Anna: A, Ben: B, Cleo: C } = c.ids;
    const s = await c.session({ rakePercent: 10 });
    const id = (await c.post('/v1/money-games', { sessionId: s, players: [A, B], stakeMinor: 100, rules: { jacoby: false } })).body.id as string;
    await c.post(`/v1/money-games/${id}/games`, { actions: [double(A), take(B), finish(A, 'gammon')] }); // B pays 400, A pays 40 rake
    await c.post(`/v1/money-games/${id}/games`, { actions: [finish(B)] }); // A pays 100, B pays 10 rake
    await c.post(`/v1/money-games/${id}/games/2/void`, { reason: 'misrecorded' });
    await c.post(`/v1/sessions/${s}/payments`, { from: B, to: C, amountMinor: 250 });
    await c.post(`/v1/sessions/${s}/payments`, { from: C, to: 'house', amountMinor: 7 });
    const club = (await c.get('/v1/club')).body.id as string;
    const rows = await t.sql<{ party: string; currency: string; gross: string }>('SELECT party, currency, gross_minor::text AS gross FROM party_volumes WHERE club_id = $1 ORDER BY party', [
      club,
    ]);
    // Game 1: A 400 + 40, B 400, house 40; game 2 voided: nothing; payments: B 250, C 250 + 7, house 7.
    const expected: Record<string, number> = { [A]: 440, [B]: 650, [C]: 257, house: 47 };
    expect(Object.fromEntries(rows.map((r) => [r.party, Number(r.gross)]))).toEqual(expected);
    expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['USD']));

    // The migration that fills the counts for money recorded before them finds the same, for every club.
    const all = 'SELECT club_id, party, currency, gross_minor::text AS gross FROM party_volumes ORDER BY 1, 2, 3';
    const kept = await t.sql(all);
    await t.sql('BEGIN');
    try {
      await t.sql('DELETE FROM party_volumes');
      await t.sql(PARTY_VOLUMES_FROM_HISTORY);
      expect(await t.sql(all)).toEqual(kept);
    } finally {
      await t.sql('ROLLBACK');
    }
  });

  it('figures already past the bound in stored data answer 422 (R6.2), never 500', async () => {
    const c = await clubWith(t, ['Anna', 'Ben']);
    const { Anna: A, Ben: B } = c.ids;
    const s = await c.session();
    const club = (await c.get('/v1/club')).body.id as string;
    // Written before the bound was kept: two sessions' nets that sum past 2^53 − 1.
    const s2 = await c.session({ name: 'Second night' });
    for (const session of [s, s2]) {
      await t.sql(`INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at) VALUES ($1, $2, $3, $5, 1, now()), ($1, $2, $4, -$5::bigint, 1, now())`, [
        club,
        session,
        A,
        B,
        String(MAX),
      ]);
    }
    // And the running money per party and currency kept alongside (balances, a player's money).
    await t.sql(
      `INSERT INTO party_volumes (club_id, party, currency, gross_minor, net_minor, has_totals)
       SELECT $1, p.party, s.currency, 0, p.net, true FROM sessions s, (VALUES ($2, $4::bigint * 2), ($3, -$4::bigint * 2)) AS p (party, net) WHERE s.id = $5
       ON CONFLICT (club_id, party, currency) DO UPDATE SET net_minor = excluded.net_minor, has_totals = true`,
      [club, A, B, String(MAX), s],
    );
    for (const path of ['/v1/balances', `/v1/players/${A}/statement`, `/v1/players/${A}`]) {
      const res = await c.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject(refusedR62);
    }
    // One session's figures are still in range.
    expect((await c.get(`/v1/sessions/${s}/settlement`)).status).toBe(200);
    expect((await c.get(`/v1/sessions/${s}/standings`)).status).toBe(200);
  });
});
