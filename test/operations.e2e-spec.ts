import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { anotherInstance, bearer, newClub, RunningApp, startApp, TestApp } from './support/app';
import request from 'supertest';

// What an operator's tools see: readiness (GET /ready), Prometheus metrics (GET /metrics)
// and conditional GETs (ETag, If-None-Match, 304).

/** The migrations shipped in migrations/ (every file but the index). */
const MIGRATION_FILES = readdirSync(join(__dirname, '..', 'migrations')).filter((f) => /^\d+-\w+\.ts$/.test(f));

/** The value of one sample of the text exposition (`name{labels} value`), or null when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v) && Object.keys(have).length === Object.keys(labels).length) return Number(m[3]);
  }
  return null;
}

describe('operations: readiness, metrics, conditional GETs', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    // A webhook subscription on a local address (never called: its delivery is not due).
    t = await startApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    ({ owner } = await newClub(t, 'Ops club'));
  });
  afterAll(() => t.close());

  describe('GET /ready', () => {
    it('is 200 without a token once the database answers and every migration is applied', async () => {
      const res = await t.http().get('/ready');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ready', migrations: MIGRATION_FILES.length });
    });

    it('is 503 NOT_READY naming the migration that is not applied, and 200 again once it is', async () => {
      const [row] = await t.sql<{ timestamp: string; name: string }>("SELECT timestamp::text, name FROM migrations WHERE name LIKE 'TableListIndexes%'");
      expect(row).toBeDefined();
      await t.sql('DELETE FROM migrations WHERE name = $1', [row.name]);
      try {
        const res = await t.http().get('/ready');
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['retry-after']).toBeDefined();
        expect(res.body).toMatchObject({ status: 503, code: 'NOT_READY', missing: [`migration:${row.name}`] });
        expect(res.body.detail).toContain(row.name);
        // Liveness is another question: the process and its database are up.
        expect((await t.http().get('/health')).status).toBe(200);
      } finally {
        await t.sql('INSERT INTO migrations (timestamp, name) VALUES ($1, $2)', [row.timestamp, row.name]);
      }
      expect((await t.http().get('/ready')).status).toBe(200);
    });

    it('answers a burst of 50 probes at once, promptly', async () => {
      const started = Date.now();
      const all = await Promise.all(Array.from({ length: 50 }, () => t.http().get('/ready')));
      expect(all.map((r) => r.status)).toEqual(all.map(() => 200));
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  describe('GET /metrics', () => {
    it('counts requests by route template and status, never by raw path; unknown paths are "unmatched"', async () => {
      const missing = '0b7c2f64-5d7e-4a55-9a43-2b1c1f0e9d11';
      const before = (await t.http().get('/metrics')).text;
      const count = (text: string, route: string, status: string) => sample(text, 'bgclub_http_requests_total', { method: 'GET', route, status }) ?? 0;

      expect((await t.http().get(`/v1/players/${missing}`).set(bearer(owner))).status).toBe(404);
      expect((await t.http().get(`/v1/players/${missing}`).set(bearer(owner))).status).toBe(404);
      expect((await t.http().get('/v1/players').set(bearer(owner))).status).toBe(200);
      expect((await t.http().get('/no/such/path')).status).toBe(404);

      const res = await t.http().get('/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const after = res.text;
      expect(count(after, '/v1/players/:id', '404') - count(before, '/v1/players/:id', '404')).toBe(2);
      expect(count(after, '/v1/players', '200') - count(before, '/v1/players', '200')).toBe(1);
      expect(count(after, 'unmatched', '404') - count(before, 'unmatched', '404')).toBe(1);
      expect(after).not.toContain(missing);
      expect(after).not.toContain('/no/such/path');
      // Latency by route template.
      expect(sample(after, 'bgclub_http_request_duration_seconds_count', { method: 'GET', route: '/v1/players/:id' })).toBeGreaterThanOrEqual(2);
      expect(sample(after, 'bgclub_http_request_duration_seconds_bucket', { method: 'GET', route: '/v1/players/:id', le: '+Inf' })).toBeGreaterThanOrEqual(2);
    });

    it("shows the database pool, the event log, the webhook queue and the process's own figures", async () => {
      // An event (before the subscription, so it is not delivered to it)...
      expect((await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Eventful' })).status).toBe(201);
      // ...and a pending delivery created an hour ago and a failed one, for a subscription of the club.
      const hook = await t.http().post('/v1/webhooks').set(bearer(owner)).send({ url: 'http://127.0.0.1:9/bg' });
      expect(hook.status).toBe(201);
      const clubId = (await t.http().get('/v1/club').set(bearer(owner))).body.id as string;
      await t.sql(
        "INSERT INTO webhook_deliveries (club_id, webhook_id, event_tx, event_seq, state, next_attempt_at, created_at) VALUES ($1, $2, 1, 1, 'pending', now() + interval '1 hour', now() - interval '1 hour')",
        [clubId, hook.body.id],
      );
      await t.sql("INSERT INTO webhook_deliveries (club_id, webhook_id, event_tx, event_seq, state, created_at) VALUES ($1, $2, 1, 2, 'failed', now() - interval '1 day')", [
        clubId,
        hook.body.id,
      ]);

      const text = (await t.http().get('/metrics')).text;
      for (const name of ['bgclub_db_pool_connections_in_use', 'bgclub_db_pool_connections_idle', 'bgclub_db_pool_waiting']) {
        expect(sample(text, name)).toBeGreaterThanOrEqual(0);
      }
      expect(sample(text, 'bgclub_metrics_database_up')).toBe(1);
      expect(sample(text, 'bgclub_webhook_deliveries_pending')).toBe(1);
      expect(sample(text, 'bgclub_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(3600);
      expect(sample(text, 'bgclub_webhook_oldest_pending_age_seconds')).toBeLessThan(3700);
      expect(sample(text, 'bgclub_webhook_deliveries_failed_recent')).toBe(1);
      // Creating the player was an event: the newest is a few seconds old at most.
      expect(sample(text, 'bgclub_events_newest_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'bgclub_events_newest_age_seconds')).toBeLessThan(60);
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    });

    describe('with METRICS_TOKEN', () => {
      const token = 'scraper-token-0123456789abcdef';
      let guarded: RunningApp;
      beforeAll(async () => {
        guarded = await anotherInstance(t, { METRICS_TOKEN: token, WEBHOOK_WORKER: 'off' });
      });
      afterAll(() => guarded.stop());

      it('needs Authorization: Bearer <METRICS_TOKEN>; the rest of the API is unchanged', async () => {
        for (const auth of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${token}`, `Bearer ${token}x`]) {
          const req = request(guarded.url).get('/metrics');
          const res = await (auth === undefined ? req : req.set('authorization', auth));
          expect(res.status).toBe(401);
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(res.body.code).toBe('UNAUTHENTICATED');
          expect(res.text).not.toContain('bgclub_http_requests_total');
        }
        const ok = await request(guarded.url).get('/metrics').set('authorization', `Bearer ${token}`);
        expect(ok.status).toBe(200);
        expect(ok.text).toContain('bgclub_http_requests_total');
        expect((await request(guarded.url).get('/ready')).status).toBe(200);
      });
    });
  });

  describe('conditional GETs', () => {
    it('a JSON GET carries a weak ETag; If-None-Match naming it (alone, in a list, without W/, or *) is 304 with no body', async () => {
      const first = await t.http().get('/v1/players').set(bearer(owner));
      expect(first.status).toBe(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^W\/"[^"]+"$/);
      const again = await t.http().get('/v1/players').set(bearer(owner));
      expect(again.headers.etag).toBe(etag);

      for (const header of [etag, `"something-else", ${etag}`, etag.slice(2), '*']) {
        const res = await t.http().get('/v1/players').set(bearer(owner)).set('if-none-match', header);
        expect(res.status).toBe(304);
        expect(res.text ?? '').toBe('');
        expect(res.headers.etag).toBe(etag);
        expect(res.headers['content-type']).toBeUndefined();
      }
      const other = await t.http().get('/v1/players').set(bearer(owner)).set('if-none-match', 'W/"not-this-one"');
      expect(other.status).toBe(200);

      // A change changes the body, so the old tag no longer matches.
      expect((await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Newcomer' })).status).toBe(201);
      const changed = await t.http().get('/v1/players').set(bearer(owner)).set('if-none-match', etag);
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.body.items.map((p: { name: string }) => p.name)).toContain('Newcomer');
    });

    it('errors and writes get no ETag and never a 304; a version ETag (If-Match) answers 304 while the version is the same', async () => {
      const missing = await t.http().get('/v1/players/0b7c2f64-5d7e-4a55-9a43-2b1c1f0e9d11').set(bearer(owner)).set('if-none-match', '*');
      expect(missing.status).toBe(404);
      expect(missing.headers.etag).toBeUndefined();
      const created = await t.http().post('/v1/players').set(bearer(owner)).set('if-none-match', '*').send({ name: 'Versioned' });
      expect(created.status).toBe(201);
      const url = `/v1/players/${created.body.id}`;
      const read = await t.http().get(url).set(bearer(owner)).set('if-none-match', '"1"');
      expect(read.status).toBe(304);
      expect(read.headers.etag).toBe('"1"');
      expect((await t.http().patch(url).set(bearer(owner)).send({ nickname: 'V' })).status).toBe(200);
      const changed = await t.http().get(url).set(bearer(owner)).set('if-none-match', '"1"');
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).toBe('"2"');
      expect(changed.body).toMatchObject({ name: 'Versioned', nickname: 'V', version: 2 });
    });
  });
});
