import { Client } from 'pg';
import { bearer, newClub, startApp, anotherInstance, TestApp } from './support/app';

describe('Idempotency-Key (the HTTP contract: conventions)', () => {
  let t: TestApp;
  let owner: string;
  let clubId: string;
  let ownerKeyId: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner, clubId } = await newClub(t));
    ownerKeyId = (await t.sql<{ id: string }>('SELECT id FROM api_keys WHERE club_id = $1', [clubId]))[0].id;
  });
  afterAll(() => t.close());

  const players = async (name: string) => Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM players WHERE name = $1', [name]))[0].n);

  it('replays the first response, status and body, for the same key and body', async () => {
    const first = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-anna').send({ name: 'Anna' });
    expect(first.status).toBe(201);
    const again = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-anna').send({ name: 'Anna' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe('"1"');
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(first.headers.etag).toBe('"1"');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // the same body with its keys in another order is the same request
    const reordered = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-ben').send({ name: 'Ben', nickname: 'B' });
    const same = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-ben').set('content-type', 'application/json').send('{"nickname":"B","name":"Ben"}');
    expect(same.text).toBe(reordered.text);
    expect(await players('Anna')).toBe(1);
    expect(await players('Ben')).toBe(1);
  });

  it('replays a 204 as a 204 with no body', async () => {
    const key = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Old tablet', role: 'scorer' })).body;
    const first = await t.http().delete(`/v1/api-keys/${key.id}`).set(bearer(owner)).set('idempotency-key', 'k-revoke');
    expect(first.status).toBe(204);
    const again = await t.http().delete(`/v1/api-keys/${key.id}`).set(bearer(owner)).set('idempotency-key', 'k-revoke');
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBeUndefined();
  });

  it("replays each route's own success status (200 for a POST with @HttpCode(200), a PATCH), writes nothing, and is neither logged nor counted as a failure", async () => {
    const session = (await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'Replay night' })).body as { id: string };
    const close = () => t.http().post(`/v1/sessions/${session.id}/close`).set(bearer(owner)).set('idempotency-key', 'k-close');
    const first = await close();
    expect(first.status).toBe(200);
    const again = await close();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);

    const player = (await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Patched' })).body as { id: string };
    const rename = () => t.http().patch(`/v1/players/${player.id}`).set(bearer(owner)).set('idempotency-key', 'k-rename').send({ name: 'Renamed' });
    const renamed = await rename();
    expect(renamed.status).toBe(200);
    const renamedAgain = await rename();
    expect([renamedAgain.status, renamedAgain.text, renamedAgain.headers['idempotent-replayed'], renamedAgain.headers.etag]).toEqual([200, renamed.text, 'true', '"2"']);

    // One audit line each, with the route's status: the replays wrote nothing.
    const audit = await t.sql<{ route: string; status: number }>(
      "SELECT route, status FROM audit_log WHERE club_id = $1 AND route IN ('/v1/sessions/:id/close', '/v1/players/:id') ORDER BY id",
      [clubId],
    );
    expect(audit).toEqual([
      { route: '/v1/sessions/:id/close', status: 200 },
      { route: '/v1/players/:id', status: 200 },
    ]);
    // Counted under their 2xx status; nothing logged as a failure (the app logs warnings and errors here).
    const metrics = (await t.http().get('/metrics')).text;
    expect(metrics).toMatch(/bgclub_http_requests_total\{method="POST",route="\/v1\/sessions\/:id\/close",status="200"\} 2\b/);
    expect(metrics).not.toMatch(/bgclub_http_requests_total\{[^}]*status="5\d\d"\}/);
    expect(t.app.output()).not.toMatch(/unhandled failure|request errored|"level":50/);
  });

  it('refuses the same key with a different body (422 IDEMPOTENCY_KEY_REUSED) and writes nothing', async () => {
    await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-carla').send({ name: 'Carla' });
    const other = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-carla').send({ name: 'Dora' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await players('Dora')).toBe(0);
  });

  it('scopes keys to the API key: another key may use the same key string', async () => {
    const scorer = await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Tablet', role: 'scorer' });
    const res = await t.http().post('/v1/players').set(bearer(scorer.body.token)).set('idempotency-key', 'k-anna').send({ name: 'Anna' });
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await players('Anna')).toBe(2);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    // Hold the lock the service takes for this key, as a first request in flight would.
    const holder = new Client({ connectionString: t.dbUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`idem/${clubId}/${ownerKeyId}/k-busy`]);
      const res = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-busy').send({ name: 'Eve' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      await holder.query('ROLLBACK');
      const after = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-busy').send({ name: 'Eve' });
      expect(after.status).toBe(201);
    } finally {
      await holder.end();
    }
    expect(await players('Eve')).toBe(1);
  });

  it('records one player when the same request is sent 10 times at once', async () => {
    const sends = Array.from({ length: 10 }, () => t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-burst').send({ name: 'Burst' }));
    const results = await Promise.all(sends);
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(await players('Burst')).toBe(1);
  });

  it('refuses an unreadable key with 400', async () => {
    const res = await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'x'.repeat(300)).send({ name: 'Long' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(await players('Long')).toBe(0);
  });

  it('works for the operator creating clubs', async () => {
    const a = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).set('idempotency-key', 'club-1').send({ name: 'Once' });
    const b = await t.http().post('/v1/clubs').set(bearer(t.adminToken)).set('idempotency-key', 'club-1').send({ name: 'Once' });
    expect(b.status).toBe(201);
    expect(b.text).toBe(a.text);
    expect((await t.sql(`SELECT 1 FROM clubs WHERE name = 'Once'`)).length).toBe(1);
  });

  it('keeps records for the window (24 h), then forgets them', async () => {
    await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-old').send({ name: 'Old' });
    await t.http().post('/v1/players').set(bearer(owner)).set('idempotency-key', 'k-recent').send({ name: 'Recent' });
    await t.sql(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'k-old'`);
    await t.sql(`UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = 'k-recent'`);
    // The clean-up runs when an instance starts (and every 15 minutes).
    const second = await anotherInstance(t);
    try {
      let keys: string[] = [];
      for (let i = 0; i < 40; i++) {
        keys = (await t.sql<{ key: string }>(`SELECT key FROM idempotency_keys WHERE key IN ('k-old', 'k-recent')`)).map((r) => r.key);
        if (!keys.includes('k-old')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(keys).toEqual(['k-recent']);
    } finally {
      await second.stop();
    }
  });
});
