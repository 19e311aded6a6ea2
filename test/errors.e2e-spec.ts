import { bearer, cloneDatabase, newClub, startApp, startProcess, TestApp } from './support/app';
import { Relay } from './support/relay';

const countPlayers = async (t: TestApp) => Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM players'))[0].n);

describe('errors: problem+json, and bad input changes nothing', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t));
  });
  afterAll(() => t.close());

  const post = (body: string, type = 'application/json') => t.http().post('/v1/players').set(bearer(owner)).set('content-type', type).send(body);

  it('answers a method a path does not take with 405 and Allow, and a path that does not exist with 404', async () => {
    const put = await t.http().put('/v1/players').set(bearer(owner)).send({ name: 'Anna' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    expect(put.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(put.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405, instance: '/v1/players' });
    // A path with a parameter, and one that only takes GET.
    const del = await t.http().delete('/v1/sessions/0190a6c3-0000-7000-8000-000000000000/standings').set(bearer(owner));
    expect([del.status, del.headers.allow]).toEqual([405, 'GET, HEAD']);
    const post = await t.http().post('/v1/players/0190a6c3-0000-7000-8000-000000000000').set(bearer(owner)).send({});
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD, PATCH']);
    expect((await t.http().put('/v1/nothing-here').set(bearer(owner))).status).toBe(404);
    expect((await t.http().get('/v1/players/0190a6c3-0000-7000-8000-000000000000/nothing').set(bearer(owner))).status).toBe(404);
    expect(await countPlayers(t)).toBe(0);
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await post('{"name": "Anna"');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'MALFORMED_JSON', status: 400, instance: '/v1/players', requestId: res.headers['x-request-id'] });
    expect(await countPlayers(t)).toBe(0);
  });

  it('refuses unknown, missing and mistyped fields with 400 and every field named', async () => {
    const unknown = await post(JSON.stringify({ name: 'Anna', handicap: 3 }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    expect(unknown.body.errors).toEqual([{ field: 'handicap', message: 'unknown field handicap' }]);

    const missing = await post('{}');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);

    const typed = await post(JSON.stringify({ name: 42, experience: 1.5, rating: 'high' }));
    expect(typed.status).toBe(400);
    expect(typed.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['experience', 'name', 'rating']);

    const notObject = await post('[1,2]');
    expect(notObject.status).toBe(400);
    const proto = await post('{"name":"x","__proto__":{"admin":true}}');
    expect(proto.status).toBe(400);
    const empty = await t.http().post('/v1/players').set(bearer(owner));
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
    expect(await countPlayers(t)).toBe(0);
  });

  it('refuses numbers past 2^53 − 1 and other out-of-range values', async () => {
    const huge = await post('{"name":"Big","experience":9007199254740993}');
    expect(huge.status).toBe(400);
    const neg = await post('{"name":"Neg","experience":-1}');
    expect(neg.status).toBe(400);
    const longName = await post(JSON.stringify({ name: 'x'.repeat(101) }));
    expect(longName.status).toBe(400);
    expect(await countPlayers(t)).toBe(0);
  });

  it('answers a body over 1 MiB with 413 and a body that is not JSON with 415', async () => {
    const big = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    const text = await post('name=Anna', 'text/plain');
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await countPlayers(t)).toBe(0);
  });

  it('answers an unknown route with a 404 problem', async () => {
    const res = await t.http().get('/v1/nothing-here').set(bearer(owner));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it("answers its own X-Request-Id, not the caller's (which is kept beside it in the logs and the audit record)", async () => {
    const res = await t.http().get('/v1/club').set(bearer(owner)).set('x-request-id', 'scorer-app-42');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('answers a failure of ours with 500, a request id and no internals', async () => {
    // Break this file's own database under the running app.
    await t.sql('ALTER TABLE players RENAME TO players_gone');
    const res = await t.http().get('/v1/players').set(bearer(owner));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      type: 'urn:bgclub:problem:internal-error',
      title: 'Internal Server Error',
      status: 500,
      code: 'INTERNAL_ERROR',
      detail: expect.stringContaining(res.headers['x-request-id']),
      requestId: res.headers['x-request-id'],
      instance: '/v1/players',
    });
    expect(res.text).not.toMatch(/players_gone|SELECT|relation|at .*\.js/);
    await t.sql('ALTER TABLE players_gone RENAME TO players');
  });
});

describe('database unreachable: 503, then recovery', () => {
  it('answers 503 DATABASE_UNAVAILABLE quickly while the database is gone, and recovers by itself', async () => {
    const db = await cloneDatabase();
    const target = new URL(db.appUrl);
    const relay = new Relay({ host: target.hostname, port: Number(target.port) });
    const port = await relay.open();
    const viaRelay = new URL(db.appUrl);
    viaRelay.port = String(port);
    const adminToken = 'relay-test-operator-token';
    const app = await startProcess({ DATABASE_URL: viaRelay.toString(), ADMIN_TOKEN: adminToken, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'fatal' });
    const request = (await import('supertest')).default;
    try {
      const club = await request(app.url).post('/v1/clubs').set(bearer(adminToken)).send({ name: 'Relay club' });
      expect(club.status).toBe(201);
      const key = club.body.apiKey.token;

      await relay.cut();
      const started = Date.now();
      const down = await request(app.url).get('/v1/players').set(bearer(key));
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('DATABASE_UNAVAILABLE');
      expect(down.headers['retry-after']).toBeDefined();
      const health = await request(app.url).get('/health');
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ status: 'unavailable', database: 'down' });
      expect(Date.now() - started).toBeLessThan(8000);

      await relay.open(port);
      let back = 0;
      for (let i = 0; i < 50 && back !== 200; i++) {
        back = (await request(app.url).get('/v1/players').set(bearer(key))).status;
        if (back !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(back).toBe(200);
      expect((await request(app.url).get('/health')).body).toEqual({ status: 'ok', database: 'up' });
    } finally {
      await relay.cut();
      await app.stop();
    }
  });
});

/** What the fuzzer found (test/fuzz.e2e-spec.ts), pinned down one by one. */
describe('hostile input found by fuzzing: a clear 4xx, never a 500', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t));
  });
  afterAll(() => t.close());

  const isProblem = (res: { status: number; headers: Record<string, string>; body: { status?: number; code?: string } }, status: number, code: string) => {
    expect({ status: res.status, type: res.headers['content-type'], code: res.body.code, bodyStatus: res.body.status }).toEqual({
      status,
      type: expect.stringMatching(/^application\/problem\+json/),
      code,
      bodyStatus: status,
    });
  };

  it('refuses a rakePercent in exponent notation (1e-7) with 400, not a crash (R6.4)', async () => {
    for (const rakePercent of [1e-7, 5e-324, 2.555, 100.01, -1]) {
      isProblem(await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'x', rakePercent }), 400, 'VALIDATION_FAILED');
    }
    expect((await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'x', rakePercent: 2.55 })).body.rakePercent).toBe(2.55);
  });

  it('refuses JSON nested deeper than 32 levels before anything walks it', async () => {
    const deep = `{"name":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const res = await t.http().post('/v1/players').set(bearer(owner)).set('content-type', 'application/json').set('Idempotency-Key', 'deep-1').send(deep);
    isProblem(res, 400, 'BODY_TOO_COMPLEX');
    const ok = `{"name":"Anna"}`;
    expect((await t.http().post('/v1/players').set(bearer(owner)).set('content-type', 'application/json').send(ok)).status).toBe(201);
  });

  it('answers a bad percent-encoding 400 and an over-long id 404, both problem+json', async () => {
    for (const path of ['/v1/players/%zz', '/v1/players/%C0%AF', '/v1/sessions/%ED%A0%80']) {
      isProblem(await t.http().get(path).set(bearer(owner)), 400, 'MALFORMED_URL');
    }
    isProblem(
      await t
        .http()
        .get(`/v1/players/${'x'.repeat(150)}`)
        .set(bearer(owner)),
      404,
      'NOT_FOUND',
    );
  });

  it('answers headers too large with 431 problem+json and closes the connection', async () => {
    const res = await t
      .http()
      .get(`/v1/sessions/${'x'.repeat(20000)}`)
      .set(bearer(owner));
    isProblem(res, 431, 'HEADERS_TOO_LARGE');
    expect(res.headers.connection).toBe('close');
  });

  it('refuses action fields that do not belong to the action, so nothing foreign is stored', async () => {
    const ids: string[] = [];
    for (const name of ['Anna', 'Ben']) ids.push((await t.http().post('/v1/players').set(bearer(owner)).send({ name })).body.id);
    const session = (await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'n' })).body.id;
    const table = (await t.http().post('/v1/money-games').set(bearer(owner)).send({ sessionId: session, players: ids, stakeMinor: 1 })).body.id;
    const res = await t
      .http()
      .post(`/v1/money-games/${table}/games`)
      .set(bearer(owner))
      .send({ actions: [{ type: 'finish', winner: ids[0], result: 'single', by: ids[1], cube: '00000000-0000-7000-8000-000000000000' }] });
    isProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['actions.0.by', 'actions.0.cube']);
    expect((await t.sql('SELECT count(*)::int AS n FROM games'))[0]).toEqual({ n: 0 });
  });
});
