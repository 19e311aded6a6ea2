import { bearer, newClub, startApp, anotherInstance, TestApp, RunningApp } from './support/app';
import request from 'supertest';
import { clubWith, double, finish, take } from './support/club';

/** Rate limits per API key, shared by every instance (the HTTP contract: 429 with Retry-After). */
describe('rate limits per API key', () => {
  let t: TestApp;
  let second: RunningApp;

  beforeAll(async () => {
    // 5 requests per key per minute, so the test crosses the limit at once.
    t = await startApp({ RATE_LIMIT: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
    second = await anotherInstance(t, { RATE_LIMIT: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(async () => {
    await second.stop();
    await t.close();
  });

  it('counts per key across two app instances, then answers 429 with Retry-After and RateLimit fields', async () => {
    const { owner } = await newClub(t);
    const other = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Board', role: 'viewer' })).body.token as string;
    // The key creation above was request 1 of the owner key. Four more, alternating instances.
    const urls = [t.url, second.url, t.url, second.url];
    for (const [i, url] of urls.entries()) {
      const res = await request(url).get('/v1/players').set(bearer(owner));
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=5;w=60');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"per-key";r=${5 - 2 - i};t=\\d+$`));
    }
    const limited = await request(second.url).get('/v1/players').set(bearer(owner));
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.ratelimit).toBe(`"per-key";r=0;t=${retryAfter}`);
    // Limited means refused before any work: a POST changes nothing.
    const post = await request(t.url).post('/v1/players').set(bearer(owner)).send({ name: 'Late' });
    expect(post.status).toBe(429);
    expect((await t.sql("SELECT count(*)::int AS n FROM players WHERE name = 'Late'"))[0].n).toBe(0);
    // Another key of the same club has its own count.
    expect((await request(t.url).get('/v1/players').set(bearer(other))).status).toBe(200);
  });
});

/**
 * Hits are leased from the shared counter (1 % of the limit per lease): two instances
 * together still never answer more than the limit in a window.
 */
describe('rate limit leases across instances', () => {
  let t: TestApp;
  let second: RunningApp;

  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT: '300', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    second = await anotherInstance(t, { RATE_LIMIT: '300', RATE_LIMIT_WINDOW_SECONDS: '3600' });
  });
  afterAll(async () => {
    await second.stop();
    await t.close();
  });

  it('answers at most the limit in all, losing at most one lease per instance, then 429 on both', async () => {
    const { owner } = await newClub(t);
    const statuses: number[] = [];
    // 320 requests, 8 at a time, spread over both instances.
    for (let i = 0; i < 40; i++) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, (_, j) =>
          request((i * 8 + j) % 2 === 0 ? t.url : second.url)
            .get('/v1/players')
            .set(bearer(owner)),
        ),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // 300 allowed, leases of 3: each instance may strand at most 2 hits of its last lease.
    expect(ok).toBeLessThanOrEqual(300);
    expect(ok).toBeGreaterThanOrEqual(300 - 2 * 2);
    // Once refused, refused everywhere for the rest of the window.
    const firstRefused = statuses.indexOf(429);
    expect(statuses.slice(firstRefused + 16).every((s) => s === 429)).toBe(true);
    for (const url of [t.url, second.url]) expect((await request(url).get('/v1/players').set(bearer(owner))).status).toBe(429);
  });
});

/** API key records are cached; a revocation reaches every instance (ApiKeyCache). */
describe('revoking a key on one instance', () => {
  let t: TestApp;
  let second: RunningApp;

  beforeAll(async () => {
    t = await startApp();
    second = await anotherInstance(t, { RATE_LIMIT: '0' });
  });
  afterAll(async () => {
    await second.stop();
    await t.close();
  });

  it('stops the key on the other instance too, though that instance had it cached', async () => {
    const { owner } = await newClub(t);
    const tablet = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Tablet', role: 'scorer' })).body;
    // Both instances have used (and cached) the key.
    for (const url of [t.url, second.url, t.url, second.url]) expect((await request(url).get('/v1/players').set(bearer(tablet.token))).status).toBe(200);
    expect((await t.http().delete(`/v1/api-keys/${tablet.id}`).set(bearer(owner))).status).toBe(204);
    // The revoking instance refuses it at once.
    expect((await request(t.url).get('/v1/players').set(bearer(tablet.token))).status).toBe(401);
    // The other as soon as the notice has crossed (well under a second; the cache would keep it 60 s).
    const deadline = Date.now() + 2000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await request(second.url).get('/v1/players').set(bearer(tablet.token))).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    // A write too, and nothing is written.
    const post = await request(second.url).post('/v1/players').set(bearer(tablet.token)).send({ name: 'Ghost' });
    expect(post.status).toBe(401);
    expect((await t.sql("SELECT count(*)::int AS n FROM players WHERE name = 'Ghost'"))[0].n).toBe(0);
  });
});

describe('audit record, CORS and club isolation', () => {
  let t: TestApp;
  let cors: RunningApp;

  beforeAll(async () => {
    t = await startApp();
    cors = await anotherInstance(t, { RATE_LIMIT: '0', CORS_ORIGINS: 'https://scores.example' });
  });
  afterAll(async () => {
    await cors.stop();
    await t.close();
  });

  it("records which key did each command: the club's creation, games, actions, voids, payments, closes", async () => {
    const c = await clubWith(t, ['Anna', 'Ben']);
    const tablet = (await c.post('/v1/api-keys', { name: 'Tablet 1', role: 'scorer' })).body;
    const h = bearer(tablet.token);
    const session = await c.session();
    const table = (
      await t
        .http()
        .post('/v1/money-games')
        .set(h)
        .send({ sessionId: session, players: [c.ids.Anna, c.ids.Ben], stakeMinor: 100 })
    ).body.id;
    expect((await t.http().post(`/v1/money-games/${table}/games`).set(h).send({})).status).toBe(201);
    await t.http().post(`/v1/money-games/${table}/games/1/actions`).set(h).send(double(c.ids.Anna));
    await t.http().post(`/v1/money-games/${table}/games/1/actions`).set(h).send(take(c.ids.Ben));
    await t.http().post(`/v1/money-games/${table}/games/1/actions`).set(h).send(finish(c.ids.Anna));
    // Refused commands change nothing and leave no record.
    expect((await t.http().post(`/v1/money-games/${table}/games/1/actions`).set(h).send(take(c.ids.Ben))).status).toBe(422);
    await c.post(`/v1/money-games/${table}/games/1/void`, { reason: 'wrong players' });
    await t.http().post(`/v1/sessions/${session}/payments`).set(h).send({ from: c.ids.Ben, to: c.ids.Anna, amountMinor: 50 });
    await c.post(`/v1/sessions/${session}/close`);

    const viewerDenied = await t.http().get('/v1/audit').set(h);
    expect(viewerDenied.status).toBe(403);
    const audit = (await c.get('/v1/audit?limit=200')).body.items as Array<Record<string, unknown>>;
    const lines = audit.filter((a) => a.route !== '/v1/players').map((a) => [a.keyName, a.method, a.route, a.status]);
    expect(lines).toEqual([
      [null, 'POST', '/v1/clubs', 201],
      ['Owner key', 'POST', '/v1/api-keys', 201],
      ['Owner key', 'POST', '/v1/sessions', 201],
      ['Tablet 1', 'POST', '/v1/money-games', 201],
      ['Tablet 1', 'POST', '/v1/money-games/:id/games', 201],
      ['Tablet 1', 'POST', '/v1/money-games/:id/games/:gameNo/actions', 200],
      ['Tablet 1', 'POST', '/v1/money-games/:id/games/:gameNo/actions', 200],
      ['Tablet 1', 'POST', '/v1/money-games/:id/games/:gameNo/actions', 200],
      ['Owner key', 'POST', '/v1/money-games/:id/games/:gameNo/void', 200],
      ['Tablet 1', 'POST', '/v1/sessions/:id/payments', 201],
      ['Owner key', 'POST', '/v1/sessions/:id/close', 200],
    ]);
    const voided = audit.find((a) => String(a.route).endsWith('/void'))!;
    expect(voided).toMatchObject({ path: `/v1/money-games/${table}/games/1/void`, body: { reason: 'wrong players' } });
    expect(audit.find((a) => a.route === '/v1/sessions/:id/payments')).toMatchObject({ apiKeyId: tablet.id, body: { amountMinor: 50 } });
    // Append-only, like the ledger.
    await expect(t.sql('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    // Tokens never reach the record.
    expect(JSON.stringify(audit)).not.toContain(tablet.token);
  });

  it('CORS is off by default; with CORS_ORIGINS it answers the allowed origin only', async () => {
    const { owner } = await newClub(t);
    const plain = await t.http().get('/v1/players').set(bearer(owner)).set('Origin', 'https://scores.example');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();

    const allowed = await request(cors.url).get('/v1/players').set(bearer(owner)).set('Origin', 'https://scores.example');
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://scores.example');
    expect(allowed.headers['access-control-expose-headers']).toContain('ETag');
    const preflight = await request(cors.url)
      .options('/v1/sessions')
      .set('Origin', 'https://scores.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Idempotency-Key/);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
    const stranger = await request(cors.url).get('/v1/players').set(bearer(owner)).set('Origin', 'https://evil.example');
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("another club's ids in any path or body field answer 404/422, never data", async () => {
    // Club X: everything a club has.
    const x = await clubWith(t, ['Xena', 'Xavier', 'Xander']);
    const [X1, X2, X3] = [x.ids.Xena, x.ids.Xavier, x.ids.Xander];
    const xKey = (await x.post('/v1/api-keys', { name: 'X tablet', role: 'scorer' })).body.id as string;
    const xSession = await x.session();
    const xMoney = (await x.post('/v1/money-games', { sessionId: xSession, players: [X1, X2], stakeMinor: 100 })).body.id as string;
    await x.post(`/v1/money-games/${xMoney}/games`, { actions: [finish(X1)] });
    await x.post(`/v1/money-games/${xMoney}/games`, {});
    const xMatch = (await x.post('/v1/matches', { sessionId: xSession, sides: [[X1], [X2]], target: 3 })).body.id as string;
    await x.post(`/v1/matches/${xMatch}/games`, {});
    const xChouette = (await x.post('/v1/chouettes', { sessionId: xSession, stakeMinor: 100, seating: { order: [X1, X2, X3] } })).body.id as string;
    await x.post(`/v1/sessions/${xSession}/payments`, { from: X2, to: X1, amountMinor: 10 });
    const secrets = [X1, X2, X3, xKey, xSession, xMoney, xMatch, xChouette];

    // Club Y, with its own players and session, tries X's ids everywhere.
    const y = await clubWith(t, ['Yann', 'Yves', 'Yara']);
    const [Y1, Y2] = [y.ids.Yann, y.ids.Yves];
    const ySession = await y.session();
    const yMoney = (await y.post('/v1/money-games', { sessionId: ySession, players: [Y1, Y2], stakeMinor: 100 })).body.id as string;
    const yChouette = (await y.post('/v1/chouettes', { sessionId: ySession, stakeMinor: 100, seating: { order: [Y1, Y2, y.ids.Yara] } })).body.id as string;
    const hy = bearer(y.owner);
    const http = () => t.http();
    const answers: Array<{ what: string; status: number; text: string }> = [];
    const send = async (what: string, req: request.Test) => {
      const res = await req;
      answers.push({ what, status: res.status, text: res.text });
    };

    const paths: string[] = [
      `/v1/players/${X1}`,
      `/v1/players/${X1}/statement`,
      `/v1/sessions/${xSession}`,
      `/v1/sessions/${xSession}/ledger`,
      `/v1/sessions/${xSession}/settlement`,
      `/v1/sessions/${xSession}/payments`,
      `/v1/money-games/${xMoney}`,
      `/v1/money-games/${xMoney}/games`,
      `/v1/money-games/${xMoney}/games/1`,
      `/v1/matches/${xMatch}`,
      `/v1/matches/${xMatch}/games/1`,
      `/v1/chouettes/${xChouette}`,
      `/v1/chouettes/${xChouette}/games`,
    ];
    for (const p of paths) await send(`GET ${p}`, http().get(p).set(hy));
    await send('PATCH player', http().patch(`/v1/players/${X1}`).set(hy).send({ name: 'Mine' }));
    await send('PATCH session', http().patch(`/v1/sessions/${xSession}`).set(hy).send({ name: 'Mine' }));
    await send('close session', http().post(`/v1/sessions/${xSession}/close`).set(hy));
    await send('pay into session', http().post(`/v1/sessions/${xSession}/payments`).set(hy).send({ from: Y1, to: Y2, amountMinor: 1 }));
    await send('revoke key', http().delete(`/v1/api-keys/${xKey}`).set(hy));
    await send('start game', http().post(`/v1/money-games/${xMoney}/games`).set(hy).send({}));
    await send('act', http().post(`/v1/money-games/${xMoney}/games/2/actions`).set(hy).send(finish(X1)));
    await send('undo', http().post(`/v1/money-games/${xMoney}/games/2/undo`).set(hy));
    await send('abandon', http().post(`/v1/money-games/${xMoney}/games/2/abandon`).set(hy));
    await send('void', http().post(`/v1/money-games/${xMoney}/games/1/void`).set(hy).send({ reason: 'x' }));
    await send('penalty', http().post(`/v1/matches/${xMatch}/penalties`).set(hy).send({ side: 0, points: 1, reason: 'x' }));
    await send('join', http().post(`/v1/chouettes/${xChouette}/players`).set(hy).send({ playerId: Y1 }));
    await send('leave', http().delete(`/v1/chouettes/${xChouette}/players/${X1}`).set(hy));
    const notFound = answers.filter((a) => a.status !== 404);
    expect(notFound.map((a) => `${a.what}: ${a.status}`)).toEqual([]);

    // X's ids inside Y's own requests' bodies.
    const bodies: Array<[string, string, object]> = [
      ['money game with X players', '/v1/money-games', { sessionId: ySession, players: [X1, Y1], stakeMinor: 100 }],
      ['money game in X session', '/v1/money-games', { sessionId: xSession, players: [Y1, Y2], stakeMinor: 100 }],
      ['match with X player', '/v1/matches', { sides: [[Y1], [X2]], target: 3 }],
      ['chouette with X player', '/v1/chouettes', { sessionId: ySession, stakeMinor: 100, seating: { order: [Y1, Y2, X3] } }],
      ['X player joins Y chouette', `/v1/chouettes/${yChouette}/players`, { playerId: X1 }],
      ['payment to X player', `/v1/sessions/${ySession}/payments`, { from: Y1, to: X1, amountMinor: 5 }],
      ['game naming X players', `/v1/money-games/${yMoney}/games`, { actions: [finish(X1)] }],
    ];
    answers.length = 0;
    for (const [what, url, body] of bodies) await send(what, http().post(url).set(hy).send(body));
    expect(answers.filter((a) => a.status !== 422).map((a) => `${a.what}: ${a.status} ${a.text}`)).toEqual([]);

    // Y's lists and filters never show X's data.
    answers.length = 0;
    for (const url of [
      '/v1/players',
      '/v1/sessions',
      '/v1/money-games',
      '/v1/matches',
      '/v1/chouettes',
      '/v1/balances',
      '/v1/audit',
      '/v1/api-keys',
      `/v1/balances?playerId=${X1}`,
      `/v1/sessions/${ySession}/ledger?party=${X1}`,
      `/v1/money-games?playerId=${X1}`,
    ]) {
      await send(url, http().get(url).set(hy));
    }
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.what}: ${a.status}`)).toEqual([]);
    for (const a of answers) for (const s of secrets) expect(`${a.what} → ${a.text.includes(s) ? s : ''}`).toBe(`${a.what} → `);

    // And X's data is exactly as X left it.
    expect((await x.get(`/v1/money-games/${xMoney}/games/2`)).body).toMatchObject({ status: 'in-progress', actions: [] });
    expect((await x.get(`/v1/sessions/${xSession}`)).body).toMatchObject({ status: 'open', name: 'Club night' });
  });
});

describe('tokens are never logged', () => {
  it('logs every request at trace level without a token, a secret or an Idempotency-Key in it', async () => {
    const t = await startApp({ LOG_LEVEL: 'trace' });
    try {
      const club = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).set('Idempotency-Key', 'club-key-secretive-1').send({ name: 'Logged club' });
      const owner = club.body.apiKey.token as string;
      const key = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Tablet', role: 'scorer' })).body.token as string;
      await t.http().get('/v1/players').set(bearer(key));
      await t
        .http()
        .get('/v1/players')
        .set(bearer(`${key.slice(0, -4)}AAAA`));
      await t.http().get('/v1/players?cursor=garbage').set(bearer(owner));
      await new Promise((r) => setTimeout(r, 200));
      const logs = t.app.output();
      expect(logs).toMatch(/"url":"\/v1\/players"/);
      // The secret is everything after bgk_<ids>_ (it may itself contain underscores).
      const secretOf = (token: string) => token.slice(token.indexOf('_', 4) + 1);
      for (const secret of [t.adminToken, owner, key, secretOf(owner), secretOf(key), 'club-key-secretive-1']) {
        expect(secret.length).toBeGreaterThanOrEqual(20);
        expect(logs.includes(secret)).toBe(false);
      }
    } finally {
      await t.close();
    }
  });
});
