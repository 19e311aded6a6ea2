import http from 'node:http';
import { bearer, startApp, TestApp } from './support/app';
import { recordExchange } from './support/contract';

/** A request sent from another loopback address (127.0.0.2): another client as the server sees it. */
function fromOtherAddress(
  t: TestApp,
  method: string,
  path: string,
  token: string | null,
  body?: object,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: Record<string, unknown> }> {
  const u = new URL(t.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: Number(u.port),
        method,
        path,
        localAddress: '127.0.0.2',
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          recordExchange({ method, url: path, status: res.statusCode!, headers: res.headers, body: text });
          resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every row of every table of the app's database, as text. */
async function everyRow(t: TestApp): Promise<string[]> {
  const tables = await t.sql<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`);
  const rows: string[] = [];
  for (const { name } of tables) {
    for (const r of await t.sql<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`)) rows.push(`${name}: ${r.row}`);
  }
  return rows;
}

/** The secret part of a club API key: everything after `bgk_<ids>_`. */
const secretOf = (token: string) => token.slice(token.indexOf('_', 4) + 1);

describe('tokens at rest: idempotent replays of answers that carry a token', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('keeps no usable token in any table, and the same caller still gets its token back byte for byte', async () => {
    const clubBody = { name: 'Sealed club', currency: 'EUR' };
    const club = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).set('idempotency-key', 'club-sealed').send(clubBody);
    expect(club.status).toBe(201);
    const owner = club.body.apiKey.token as string;
    expect(owner).toMatch(/^bgk_[0-9a-f]{64}_/);

    const keyBody = { name: 'Tablet', role: 'scorer' };
    const key = await t.http().post('/v1/api-keys').set(bearer(owner)).set('idempotency-key', 'key-sealed').send(keyBody);
    expect(key.status).toBe(201);
    const tablet = key.body.token as string;
    expect(tablet).toMatch(/^bgk_[0-9a-f]{64}_/);

    // Both answers were remembered for replay...
    expect((await t.sql('SELECT 1 FROM operator_idempotency_keys WHERE key = $1', ['club-sealed'])).length).toBe(1);
    expect((await t.sql('SELECT 1 FROM idempotency_keys WHERE key = $1', ['key-sealed'])).length).toBe(1);
    // ...but no table holds either token, nor its secret part, nor the operator token.
    const rows = await everyRow(t);
    expect(rows.length).toBeGreaterThan(0);
    for (const secret of [owner, secretOf(owner), tablet, secretOf(tablet), t.adminToken]) {
      expect(secret.length).toBeGreaterThanOrEqual(20);
      expect(rows.filter((r) => r.includes(secret))).toEqual([]);
    }

    // The genuine retries get the very same answers.
    const clubAgain = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).set('idempotency-key', 'club-sealed').send(clubBody);
    expect(clubAgain.status).toBe(201);
    expect(clubAgain.headers['idempotent-replayed']).toBe('true');
    expect(clubAgain.text).toBe(club.text);
    expect(clubAgain.body.apiKey.token).toBe(owner);
    const keyAgain = await t.http().post('/v1/api-keys').set(bearer(owner)).set('idempotency-key', 'key-sealed').send(keyBody);
    expect(keyAgain.status).toBe(201);
    expect(keyAgain.headers['idempotent-replayed']).toBe('true');
    expect(keyAgain.text).toBe(key.text);
    expect((await t.sql('SELECT count(*)::int AS n FROM api_keys'))[0].n).toBe(2);
  });

  it('replays every other answer unchanged too, and never to another key', async () => {
    const owner = (await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Other club' })).body.apiKey.token as string;
    const first = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'p-1').send({ name: 'Anna' });
    expect(first.status).toBe(201);
    // The stored answer is not readable as the player either.
    const stored = await t.sql<{ body: string }>('SELECT body FROM idempotency_keys WHERE key = $1', ['p-1']);
    expect(stored[0].body).not.toContain('Anna');
    const again = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'p-1').send({ name: 'Anna' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe('"1"');
    // Another key of the club with the same Idempotency-Key gets its own answer, not this one.
    const scorer = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Scorer', role: 'scorer' })).body.token as string;
    const other = await t.http().post('/v1/players').set(bearer(scorer)).set('idempotency-key', 'p-1').send({ name: 'Anna' });
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.id).not.toBe(first.body.id);
  });
});

describe("audit record: the operator's actions and both request ids", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("records the club creation by the operator, with the server's request id and the caller's beside it", async () => {
    const created = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).set('x-request-id', 'ops-console-7').send({ name: 'Audited club', currency: 'GBP' });
    expect(created.status).toBe(201);
    const owner = created.body.apiKey.token as string;
    // The server answers with its own id, never the caller's.
    const serverId = created.headers['x-request-id'];
    expect(serverId).toMatch(UUID);

    const audit = await t.http().get('/v1/audit').set(bearer(owner));
    expect(audit.status).toBe(200);
    const items = audit.body.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(1);
    expect(items[0]).toEqual({
      id: expect.stringMatching(UUID),
      actor: 'operator',
      apiKeyId: null,
      keyName: null,
      method: 'POST',
      route: '/v1/clubs',
      path: '/v1/clubs',
      status: 201,
      requestId: serverId,
      clientRequestId: 'ops-console-7',
      body: { name: 'Audited club', currency: 'GBP' },
      at: expect.any(String),
    });
    expect(JSON.stringify(items)).not.toContain(owner);
    expect(JSON.stringify(items)).not.toContain(t.adminToken);
    // It is the new club's record: another club does not see it.
    const other = (await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Other' })).body.apiKey.token as string;
    const otherItems = (await t.http().get('/v1/audit').set(bearer(other))).body.items as Array<Record<string, unknown>>;
    expect(otherItems.map((a) => a.clientRequestId)).toEqual([null]);
  });

  it("keeps both ids for a club key's command too, and a made-up id when the caller sends none", async () => {
    const owner = (await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Ids club' })).body.apiKey.token as string;
    const withId = await t.http().post('/v1/players').set(bearer(owner)).set('x-request-id', 'tablet-42').send({ name: 'Anna' });
    expect(withId.status).toBe(201);
    expect(withId.headers['x-request-id']).toMatch(UUID);
    const without = await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Ben' });
    const items = (await t.http().get('/v1/audit').set(bearer(owner))).body.items as Array<Record<string, unknown>>;
    expect(items.map((a) => [a.actor, a.keyName, a.route, a.requestId, a.clientRequestId])).toEqual([
      ['operator', null, '/v1/clubs', expect.stringMatching(UUID), null],
      ['key', 'Owner key', '/v1/players', withId.headers['x-request-id'], 'tablet-42'],
      ['key', 'Owner key', '/v1/players', without.headers['x-request-id'], null],
    ]);
    expect(items[1].requestId).not.toBe(items[2].requestId);
  });
});

describe('failed logins are throttled per client address', () => {
  let t: TestApp;

  beforeAll(async () => {
    // 5 failures per address per minute; per-key limits off, so only the new limit speaks.
    t = await startApp({ AUTH_FAILURE_LIMIT: '5', RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT: '0' });
  });
  afterAll(() => t.close());

  it('answers 401 up to the limit, then 429 with Retry-After; valid keys keep working, the operator token waits', async () => {
    const { body: club } = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Guarded' });
    const owner = club.apiKey.token as string;
    const forged = `${owner.slice(0, owner.lastIndexOf('_') + 1)}${'A'.repeat(43)}`;
    // Five failures of every kind: no token, garbage, a forged secret for a real key, a wrong operator token.
    const bad = [
      () => t.http().get('/v1/players'),
      () => t.http().get('/v1/players').set(bearer('not-a-token-at-all')),
      () => t.http().get('/v1/players').set(bearer(forged)),
      () =>
        t
          .http()
          .post('/v1/clubs')
          .set(bearer(`${t.adminToken}x`))
          .send({ name: 'Nope' }),
      () => t.http().get('/v1/club').set(bearer(forged)),
    ];
    for (const send of bad) {
      const res = await send();
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
    // The sixth and every later one: 429, problem+json, with Retry-After.
    for (let i = 0; i < 20; i++) {
      const res = await bad[i % bad.length]();
      expect(res.status).toBe(429);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    expect((await t.sql("SELECT count(*)::int AS n FROM clubs WHERE name = 'Nope'"))[0].n).toBe(0);
    // A valid club key from the same address still works.
    expect((await t.http().get('/v1/players').set(bearer(owner))).status).toBe(200);
    // The operator token is not accepted from that address while it is over the limit.
    const op = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Blocked' });
    expect(op.status).toBe(429);
    expect(op.body.code).toBe('RATE_LIMITED');
    expect(Number(op.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address has its own count: its failures are 401, the operator token works there.
    const otherBad = await fromOtherAddress(t, 'GET', '/v1/players', 'wrong-token');
    expect(otherBad.status).toBe(401);
    const otherOp = await fromOtherAddress(t, 'POST', '/v1/clubs', t.adminToken, { name: 'From elsewhere' });
    expect(otherOp.status).toBe(201);
    const otherKey = await fromOtherAddress(t, 'GET', '/v1/players', owner);
    expect(otherKey.status).toBe(200);
  });
});

describe('the operator token is rate limited', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ OPERATOR_RATE_LIMIT: '4', RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT: '0' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After over OPERATOR_RATE_LIMIT, and creates nothing more', async () => {
    for (let i = 1; i <= 4; i++) {
      const res = await t
        .http()
        .post('/v1/clubs')
        .set(bearer(t.adminToken))
        .send({ name: `Club ${i}` });
      expect(res.status).toBe(201);
      expect(res.headers['ratelimit-policy']).toBe('"operator";q=4;w=60');
    }
    const over = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Club 5' });
    expect(over.status).toBe(429);
    expect(over.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(over.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // From any address: the operator token has one count.
    expect((await fromOtherAddress(t, 'POST', '/v1/clubs', t.adminToken, { name: 'Club 6' })).status).toBe(429);
    expect((await t.sql<{ n: number }>("SELECT count(*)::int AS n FROM clubs WHERE name LIKE 'Club %'"))[0].n).toBe(4);
  });
});
