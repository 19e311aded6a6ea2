import request from 'supertest';
import { decodeEventId, encodeEventId } from '../src/outbox/event-id';
import { anotherInstance, bearer, newClub, RunningApp, startApp, TestApp } from './support/app';
import { EVENT_VISIBLE_WITHIN_MS, sleep, waitFor } from './support/concurrency';
import { SseClient } from './support/sse';

/**
 * GET /v1/events/stream (the HTTP contract, "Events: live updates and webhooks"): two
 * instances A and B on one database, and a third, C, with small limits (2 streams per
 * club, 3 in all, 64 KiB left untaken at most, a 2 s request timeout, the default 15 s
 * heartbeat).
 */
describe('GET /v1/events/stream', () => {
  let t: TestApp;
  let b: RunningApp;
  let c: RunningApp;
  const opened: SseClient[] = [];

  beforeAll(async () => {
    t = await startApp({ EVENTS_HEARTBEAT_SECONDS: '1' });
    [b, c] = await Promise.all([
      anotherInstance(t, { RATE_LIMIT: '0', EVENTS_HEARTBEAT_SECONDS: '1' }),
      anotherInstance(t, {
        RATE_LIMIT: '0',
        EVENTS_STREAM_BUFFER_BYTES: '65536',
        EVENTS_MAX_STREAMS_PER_CLUB: '2',
        EVENTS_MAX_STREAMS: '3',
        REQUEST_TIMEOUT_SECONDS: '2',
        HEADERS_TIMEOUT_SECONDS: '1',
      }),
    ]);
  });
  afterEach(() => {
    for (const s of opened.splice(0)) s.close();
  });
  afterAll(async () => {
    await Promise.all([b.stop(), c.stop()]);
    await t.close();
  });

  const open = async (url: string, token: string, query = '', headers: Record<string, string> = {}) => {
    const s = await SseClient.open(url, `/v1/events/stream${query}`, { ...bearer(token), ...headers });
    opened.push(s);
    return s;
  };
  /** A stream that has started: its status and headers checked, its opening lines in. */
  const started = async (url: string, token: string, query = '', headers: Record<string, string> = {}) => {
    const s = await open(url, token, query, headers);
    expect(s.status).toBe(200);
    await s.until(() => s.frames.length > 0, 5000, 'the opening lines');
    return s;
  };
  const addPlayer = async (url: string, token: string, name: string) => {
    const res = await request(url).post('/v1/players').set(bearer(token)).send({ name });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** Waits until the club's log shows `n` events through GET /v1/events (every older transaction on the server has ended). */
  const readable = (token: string, n: number) =>
    waitFor(
      `${n} readable events`,
      async () => {
        const items = (await t.http().get('/v1/events').query({ limit: 500 }).set(bearer(token))).body.items as Array<{ id: string }>;
        return items.length >= n ? items : null;
      },
      EVENT_VISIBLE_WITHIN_MS,
    );

  it('serves a stream that resumes on another instance with Last-Event-ID: every event exactly once, in order (8 writers, 200 writes, two instances)', async () => {
    const { owner, clubId } = await newClub(t);
    const a = await started(t.url, owner);
    expect(a.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(a.res.headers['cache-control']).toBe('no-store');
    expect(a.res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // The opening: the reconnection delay, and the place the stream starts from (no event).
    expect(a.frames[0]).toEqual({ retry: '1000', id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const start = decodeEventId(a.frames[0].id!)!;

    // 8 writers, each adding 5 players and changing each 4 times, through both instances.
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let p = 0; p < 5; p++) {
        const id = await addPlayer(p % 2 === 0 ? t.url : b.url, owner, `W${w} P${p}`);
        for (let u = 1; u <= 4; u++) {
          const res = await request((w + u) % 2 === 0 ? t.url : b.url)
            .patch(`/v1/players/${id}`)
            .set(bearer(owner))
            .send({ rating: 1500 + u });
          expect(res.status).toBe(200);
        }
      }
    });
    // Part of the stream on A, then the client goes, and comes back on B.
    await a.until(() => a.events.length >= 40, 30000, '40 events on A');
    a.close();
    const fromA = a.events;
    const resumeAt = a.lastId!;
    expect(resumeAt).toBe(fromA[fromA.length - 1].id);
    const onB = await started(b.url, owner, '', { 'last-event-id': resumeAt });
    expect(onB.frames[0]).toEqual({ retry: '1000' });
    await Promise.all(writers);

    // Every event written since the stream started, as the table has them.
    const rows = await t.sql<{ tx: string; seq: string; type: string; occurred_at: Date; session_id: string | null; subject_kind: string; subject_id: string; data: unknown }>(
      'SELECT tx::text, seq::text, type, occurred_at, session_id, subject_kind, subject_id, data FROM events WHERE club_id = $1 AND (tx, seq) > ($2::bigint, $3::bigint) ORDER BY tx, seq',
      [clubId, start.tx, start.seq],
    );
    expect(rows).toHaveLength(200);
    const expected = rows.map((r) => ({
      id: encodeEventId(r),
      type: r.type,
      occurredAt: r.occurred_at.toISOString(),
      sessionId: r.session_id,
      subject: { kind: r.subject_kind, id: r.subject_id },
      data: r.data,
    }));
    await onB.until(() => fromA.length + onB.events.length >= 200, 30000, 'all 200 events');
    await sleep(1500);
    const received = [...fromA, ...onB.events];
    expect(received.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(received.map((e) => e.data)).toEqual(expected);
    expect(received.every((e) => e.event === e.data.type && e.id === e.data.id)).toBe(true);
    for (let i = 1; i < received.length; i++) expect(received[i].id > received[i - 1].id).toBe(true);
    expect(received.filter((e) => e.event === 'player.created')).toHaveLength(40);
  });

  it('sends a comment line at least every EVENTS_HEARTBEAT_SECONDS', async () => {
    const { owner } = await newClub(t);
    const s = await started(t.url, owner);
    const t0 = Date.now();
    await s.until(() => s.comments.length >= 2, 5000, 'two heartbeats');
    expect(Date.now() - t0).toBeLessThan(3500);
    expect(s.comments[0]).toBe('keep-alive');
    expect(s.events).toEqual([]);
  });

  it('starts at "now" without Last-Event-ID: none of the events already readable, every one after', async () => {
    const { owner } = await newClub(t);
    for (const name of ['Old 1', 'Old 2', 'Old 3']) await addPlayer(t.url, owner, name);
    await readable(owner, 3);
    const s = await started(b.url, owner);
    const id = await addPlayer(t.url, owner, 'New');
    await s.until(() => s.events.length >= 1, 10000, 'the new event');
    await sleep(1500);
    expect(s.events.map((e) => [e.event, e.data.subject])).toEqual([['player.created', { kind: 'player', id }]]);
  });

  it('resumes from lastEventId in the query (the Last-Event-ID header wins when both come)', async () => {
    const { owner } = await newClub(t);
    for (const name of ['One', 'Two', 'Three']) await addPlayer(t.url, owner, name);
    const [one, two, three] = await readable(owner, 3);
    const byQuery = await started(t.url, owner, `?lastEventId=${one.id}`);
    await byQuery.until(() => byQuery.events.length >= 2, 10000, 'two events');
    expect(byQuery.events.map((e) => e.id)).toEqual([two.id, three.id]);
    const both = await started(b.url, owner, `?lastEventId=${one.id}`, { 'last-event-id': two.id });
    await both.until(() => both.events.length >= 1, 10000, 'one event');
    await sleep(1200);
    expect(both.events.map((e) => e.id)).toEqual([three.id]);
  });

  it('filters by types and by session', async () => {
    const { owner, clubId } = await newClub(t);
    const updates = await started(t.url, owner, '?types=player.updated');
    const session = '0190c3a2-0000-7000-8000-0000000000c1';
    const closings = await started(b.url, owner, `?types=session.closed,session.updated&sessionId=${session}`);
    const id = await addPlayer(t.url, owner, 'Filtered');
    expect((await request(b.url).patch(`/v1/players/${id}`).set(bearer(owner)).send({ name: 'Filtered too' })).status).toBe(200);
    await t.sql(
      `INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data)
       VALUES ($1, 'session.created', $2::uuid, 'session', $2::text, '{}'), ($1, 'session.closed', $2::uuid, 'session', $2::text, '{"n":1}'), ($1, 'session.closed', NULL, 'session', 'x', '{}')`,
      [clubId, session],
    );
    await updates.until(() => updates.events.length >= 1, 10000, 'the update');
    await closings.until(() => closings.events.length >= 1, 10000, 'the closing');
    await sleep(1500);
    expect(updates.events.map((e) => [e.event, e.data.subject, (e.data.data as { name: string }).name])).toEqual([['player.updated', { kind: 'player', id }, 'Filtered too']]);
    expect(closings.events.map((e) => [e.event, e.data.sessionId, e.data.data])).toEqual([['session.closed', session, { n: 1 }]]);
  });

  it('refuses before streaming: no key 401, Accept without text/event-stream 406, a bad Last-Event-ID or type 400, as problem+json', async () => {
    const { owner } = await newClub(t);
    const anonymous = await SseClient.open(t.url, '/v1/events/stream', {});
    opened.push(anonymous);
    expect(anonymous.status).toBe(401);
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['', { accept: 'application/json' }, 406, 'NOT_ACCEPTABLE'],
      ['', { 'last-event-id': 'not-an-id' }, 400, 'INVALID_EVENT_ID'],
      ['?lastEventId=123', {}, 400, 'INVALID_EVENT_ID'],
      ['?types=player.created,nope', {}, 400, 'INVALID_EVENT_TYPE'],
      ['?sessionId=x', {}, 400, 'VALIDATION_FAILED'],
      ['?after=00000000000002f1000000000000003c', {}, 400, 'VALIDATION_FAILED'],
    ];
    for (const [query, headers, status, code] of cases) {
      const s = await open(t.url, owner, query, headers);
      expect([query, s.status]).toEqual([query, status]);
      expect(s.res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(await s.body())).toMatchObject({ status, code });
    }
    // EventSource's own Accept, and none at all, are fine.
    expect((await started(t.url, owner, '', { accept: 'text/event-stream' })).status).toBe(200);
  });

  it('answers HEAD with the headers of a stream, and no stream', async () => {
    const { owner } = await newClub(t);
    const res = await request(t.url).head('/v1/events/stream').set(bearer(owner)).timeout(5000);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('ends the streams of a key when it is revoked', async () => {
    const { owner } = await newClub(t);
    const key = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Board', role: 'viewer' })).body;
    const s = await started(b.url, key.token);
    expect((await t.http().delete(`/v1/api-keys/${key.id}`).set(bearer(owner))).status).toBe(204);
    await s.until(() => s.ending !== null, 10000, 'the end of the stream');
    expect(s.ending).toBe('end');
  });

  it('bounds the streams per club (429) and per instance (503), and frees a place as soon as a client goes', async () => {
    const x = await newClub(t);
    const y = await newClub(t);
    const x1 = await started(c.url, x.owner);
    await started(c.url, x.owner);
    const x3 = await open(c.url, x.owner);
    expect(x3.status).toBe(429);
    expect(x3.res.headers['retry-after']).toBeDefined();
    expect(JSON.parse(await x3.body())).toMatchObject({ status: 429, code: 'TOO_MANY_STREAMS' });
    // The club's limit is the club's: another club still gets one, the last place on the instance.
    await started(c.url, y.owner);
    const y2 = await open(c.url, y.owner);
    expect(y2.status).toBe(503);
    expect(JSON.parse(await y2.body())).toMatchObject({ status: 503, code: 'STREAMS_AT_CAPACITY' });
    // A client that goes frees its place at once.
    x1.close();
    const again = await waitFor(
      'a place for the club',
      async () => {
        const s = await open(c.url, x.owner);
        if (s.status === 200) return s;
        s.close();
        return null;
      },
      3000,
    );
    expect(again.status).toBe(200);
  });

  it('is not cut by the request timeout while quiet (REQUEST_TIMEOUT_SECONDS=2, no heartbeat for 15 s)', async () => {
    const { owner } = await newClub(t);
    const s = await started(c.url, owner);
    await sleep(4500);
    expect(s.ending).toBeNull();
    await addPlayer(t.url, owner, 'Late');
    await s.until(() => s.events.length >= 1, 10000, 'the event after the quiet');
    expect(s.ending).toBeNull();
  });

  it('drops a client that stops reading, once it leaves more than EVENTS_STREAM_BUFFER_BYTES untaken', async () => {
    const { owner, clubId } = await newClub(t);
    const slow = await started(c.url, owner);
    slow.pause();
    // 300 events of 100 kB (30 MB): far more than the socket buffers and the 64 KiB cap.
    await t.sql(
      `INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data)
       SELECT $1, 'table.updated', NULL, 'match', i::text, jsonb_build_object('pad', repeat('x', 100000)) FROM generate_series(1, 300) AS i`,
      [clubId],
    );
    // Its place is freed when it is dropped: the club (2 streams at most) gets two more.
    const probe = await started(c.url, owner, '?types=player.created');
    await waitFor(
      'the slow client to be dropped',
      async () => {
        const s = await open(c.url, owner, '?types=player.created');
        if (s.status === 200) return true;
        s.close();
        return false;
      },
      20000,
      200,
    );
    expect(probe.ending).toBeNull();
    // What it had not read yet is all it gets, then the end: far from the 300 events.
    slow.resume();
    await slow.until(() => slow.ending !== null, 15000, 'the end of the slow stream');
    expect(slow.events.length).toBeLessThan(300);
    expect(slow.received).toBeLessThan(300 * 100000);
  });

  it('opens its LISTEN connection again when it drops; streams keep up meanwhile', async () => {
    const { owner } = await newClub(t);
    const s = await started(b.url, owner);
    const listeners = () => t.sql<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bg-club-scorekeeping-listen' ORDER BY pid");
    const before = (await listeners()).map((r) => r.pid);
    expect(before).toHaveLength(3);
    await t.sql('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
    const id = await addPlayer(t.url, owner, 'While reconnecting');
    await s.until(() => s.events.length >= 1, 10000, 'the event');
    expect(s.events.map((e) => e.data.subject)).toEqual([{ kind: 'player', id }]);
    const after = await waitFor('the listeners back', async () => {
      const pids = (await listeners()).map((r) => r.pid);
      return pids.length === 3 && pids.every((p) => !before.includes(p)) ? pids : null;
    });
    expect(after).toHaveLength(3);
    // Listening again: an event reaches the stream (by notice or poll) and nothing is repeated.
    await addPlayer(b.url, owner, 'After');
    await s.until(() => s.events.length >= 2, 10000, 'the second event');
    expect(s.events.map((e) => (e.data.data as { name: string }).name)).toEqual(['While reconnecting', 'After']);
  });

  it('holds one LISTEN connection per instance, shared by the key cache and the streams', async () => {
    // The listener's connections (the key cache's own, before, was "-keys").
    const rows = await t.sql<{ application_name: string; n: number }>(
      "SELECT application_name, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name IN ('bg-club-scorekeeping-listen', 'bg-club-scorekeeping-keys') GROUP BY 1",
    );
    expect(rows).toEqual([{ application_name: 'bg-club-scorekeeping-listen', n: 3 }]);
  });

  it('ends its streams when the instance stops, and stops at once', async () => {
    const { owner } = await newClub(t);
    const s = await started(c.url, owner);
    const t0 = Date.now();
    expect(await c.stop()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    await s.until(() => s.ending !== null, 5000, 'the end of the stream');
    expect(s.ending).toBe('end');
  });
});
