import request from 'supertest';
import { anotherInstance, bearer, newClub, startApp, TestApp } from './support/app';

describe('auth and tenancy (the HTTP contract: auth)', () => {
  let t: TestApp;
  let owner: string;
  let clubId: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner, clubId } = await newClub(t, 'Riverside'));
  });
  afterAll(() => t.close());

  const expectProblem = (res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  };

  it('refuses a request without a token, with a malformed one and with a forged one (401)', async () => {
    expectProblem(await t.http().get('/v1/club'), 401, 'UNAUTHENTICATED');
    expectProblem(await t.http().get('/v1/club').set('authorization', 'Basic abc'), 401, 'UNAUTHENTICATED');
    expectProblem(await t.http().get('/v1/club').set(bearer('not-a-key')), 401, 'UNAUTHENTICATED');
    // Right club and key id, wrong secret.
    const forged = `${owner.slice(0, -10)}AAAAAAAAAA`;
    expectProblem(await t.http().get('/v1/club').set(bearer(forged)), 401, 'UNAUTHENTICATED');
  });

  it('lets only the operator create clubs, and the operator nothing else', async () => {
    expectProblem(await t.http().post('/v1/clubs').set(bearer(owner)).send({ name: 'Mine' }), 403, 'FORBIDDEN');
    expectProblem(await t.http().get('/v1/club').set(bearer(t.adminToken)), 403, 'FORBIDDEN');
    expectProblem(await t.http().post('/v1/clubs').send({ name: 'Nobody' }), 401, 'UNAUTHENTICATED');
    const clubs = await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM clubs');
    expect(clubs[0].n).toBe('1');
  });

  it('takes an operator token shaped like a club key as the operator token, and club keys as club keys', async () => {
    // A club key's token is checked against the operator token only when the operator token could be one.
    const keyShaped = `bgk_${'0'.repeat(64)}_${'A'.repeat(43)}`;
    const other = await anotherInstance(t, { ADMIN_TOKEN: keyShaped });
    try {
      const created = await request(other.url).post('/v1/clubs').set(bearer(keyShaped)).send({ name: 'Shaped operator' });
      expect(created.status).toBe(201);
      expect((await request(other.url).get('/v1/club').set(bearer(keyShaped))).status).toBe(403);
      const club = await request(other.url).get('/v1/club').set(bearer(owner));
      expect(club.status).toBe(200);
      expect(club.body.id).toBe(clubId);
      expect((await request(other.url).post('/v1/clubs').set(bearer(owner)).send({ name: 'Not by a key' })).status).toBe(403);
    } finally {
      await other.stop();
    }
  });

  it('creates a club with defaults and an owner key shown once', async () => {
    const res = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name: 'Harbour BG' });
    expect(res.status).toBe(201);
    expect(res.body.club).toMatchObject({ name: 'Harbour BG', currency: 'USD', timezone: 'UTC', version: 1 });
    expect(res.body.apiKey).toMatchObject({ role: 'owner', token: expect.stringMatching(/^bgk_[0-9a-f]{64}_[A-Za-z0-9_-]{43}$/) });
    // the id is a UUIDv7 made by the app
    expect(res.body.club.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const club = await t.http().get('/v1/club').set(bearer(res.body.apiKey.token));
    expect(club.status).toBe(200);
    expect(club.body.id).toBe(res.body.club.id);
  });

  it('gives keys roles: viewer reads only, scorer writes but does not manage keys', async () => {
    const viewer = await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Board', role: 'viewer' });
    expect(viewer.status).toBe(201);
    expect(viewer.body).toMatchObject({ name: 'Board', role: 'viewer', token: expect.stringMatching(/^bgk_/) });
    const scorer = await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Tablet', role: 'scorer' });
    expect(scorer.status).toBe(201);

    expect((await t.http().get('/v1/players').set(bearer(viewer.body.token))).status).toBe(200);
    expectProblem(await t.http().post('/v1/players').set(bearer(viewer.body.token)).send({ name: 'X' }), 403, 'FORBIDDEN');
    expect((await t.http().post('/v1/players').set(bearer(scorer.body.token)).send({ name: 'Anna' })).status).toBe(201);
    expectProblem(await t.http().post('/v1/api-keys').set(bearer(scorer.body.token)).send({ name: 'x', role: 'owner' }), 403, 'FORBIDDEN');
    expectProblem(await t.http().get('/v1/api-keys').set(bearer(scorer.body.token)), 403, 'FORBIDDEN');
    expectProblem(await t.http().patch('/v1/club').set(bearer(scorer.body.token)).send({ name: 'x' }), 403, 'FORBIDDEN');
  });

  it('stores only a hash of each token and never lists tokens', async () => {
    const list = await t.http().get('/v1/api-keys').set(bearer(owner));
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(3);
    for (const k of list.body.items) {
      expect(k).not.toHaveProperty('token');
      expect(Object.keys(k).sort()).toEqual(['createdAt', 'hint', 'id', 'name', 'revokedAt', 'role']);
    }
    const secret = owner.split('_').slice(2).join('_');
    const rows = await t.sql<{ hit: boolean }>(`SELECT bool_or(position($1 in t::text) > 0 OR position($2 in t::text) > 0) AS hit FROM api_keys t`, [owner, secret]);
    expect(rows[0].hit).toBe(false);
  });

  it('revokes a key at once, and refuses to revoke the last owner key', async () => {
    const k = await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Temp', role: 'scorer' });
    expect((await t.http().get('/v1/club').set(bearer(k.body.token))).status).toBe(200);
    const del = await t.http().delete(`/v1/api-keys/${k.body.id}`).set(bearer(owner));
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectProblem(await t.http().get('/v1/club').set(bearer(k.body.token)), 401, 'UNAUTHENTICATED');
    const listed = await t.http().get('/v1/api-keys').set(bearer(owner));
    expect(listed.body.items.find((x: { id: string }) => x.id === k.body.id).revokedAt).toEqual(expect.any(String));

    const ownerKeyId = (await t.sql<{ id: string }>(`SELECT id FROM api_keys WHERE club_id = $1 AND role = 'owner'`, [clubId]))[0].id;
    const last = await t.http().delete(`/v1/api-keys/${ownerKeyId}`).set(bearer(owner));
    expectProblem(last, 422, 'LAST_OWNER_KEY');
    expect((await t.http().get('/v1/club').set(bearer(owner))).status).toBe(200);
  });

  it("answers 404 for another club's resources, never their data", async () => {
    const other = await newClub(t, 'Other club');
    const p = await t.http().post('/v1/players').set(bearer(other.owner)).send({ name: 'Secret Sam' });
    const s = await t.http().post('/v1/sessions').set(bearer(other.owner)).send({ name: 'Their night' });
    const otherKeys = await t.http().get('/v1/api-keys').set(bearer(other.owner));

    expectProblem(await t.http().get(`/v1/players/${p.body.id}`).set(bearer(owner)), 404, 'NOT_FOUND');
    expectProblem(await t.http().patch(`/v1/players/${p.body.id}`).set(bearer(owner)).send({ name: 'Mine now' }), 404, 'NOT_FOUND');
    expectProblem(await t.http().get(`/v1/sessions/${s.body.id}`).set(bearer(owner)), 404, 'NOT_FOUND');
    expectProblem(await t.http().post(`/v1/sessions/${s.body.id}/close`).set(bearer(owner)), 404, 'NOT_FOUND');
    expectProblem(await t.http().delete(`/v1/api-keys/${otherKeys.body.items[0].id}`).set(bearer(owner)), 404, 'NOT_FOUND');

    const mine = await t.http().get('/v1/players?limit=200').set(bearer(owner));
    expect(mine.body.items.map((x: { name: string }) => x.name)).not.toContain('Secret Sam');
    const theirs = await t.http().get(`/v1/players/${p.body.id}`).set(bearer(other.owner));
    expect(theirs.body.name).toBe('Secret Sam');
    const sessions = await t.http().get(`/v1/sessions/${s.body.id}`).set(bearer(other.owner));
    expect(sessions.body.status).toBe('open');
  });

  it('treats a path id that is not a UUID as not found', async () => {
    expectProblem(await t.http().get('/v1/players/12345').set(bearer(owner)), 404, 'NOT_FOUND');
  });
});
