import { Client } from 'pg';
import { encodeEventId } from '../src/outbox/event-id';
import { pageStatement } from '../src/events/event-sql';
import { bearer, newClub, startApp, TestApp } from './support/app';
import { EVENT_VISIBLE_WITHIN_MS, waitFor } from './support/concurrency';

/** GET /v1/events: pages of the club's event log (the HTTP contract, "Events: live updates and webhooks"). */
describe('GET /v1/events', () => {
  let t: TestApp;
  let owner: string;
  let clubId: string;
  let viewer: string;
  let other: { clubId: string; owner: string };
  const players: Record<string, string> = {};

  const page = (token: string, query: Record<string, string | number> = {}) => t.http().get('/v1/events').query(query).set(bearer(token));
  /** Every event the club can read now, through the route (after `after`). */
  const all = async (token: string, after?: string) => {
    const res = await page(token, { limit: 500, ...(after ? { after } : {}) });
    expect(res.status).toBe(200);
    return res.body.items as Array<{ id: string; type: string; occurredAt: string; sessionId: string | null; subject: { kind: string; id: string }; data: Record<string, unknown> }>;
  };
  /**
   * Events become readable once every transaction older than theirs has ended, anywhere
   * on the server (other suites run beside this one): wait for them.
   */
  const visible = (token: string, n: number, after?: string) =>
    waitFor(`${n} readable events`, async () => ((await all(token, after)).length >= n ? all(token, after) : null), EVENT_VISIBLE_WITHIN_MS);

  beforeAll(async () => {
    t = await startApp();
    ({ owner, clubId } = await newClub(t));
    viewer = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: 'Board', role: 'viewer' })).body.token;
    other = await newClub(t, 'Other club');
    for (const name of ['Anna', 'Boris', 'Chen']) {
      const res = await t.http().post('/v1/players').set(bearer(owner)).send({ name });
      expect(res.status).toBe(201);
      players[name] = res.body.id;
    }
    expect((await t.http().patch(`/v1/players/${players.Boris}`).set(bearer(owner)).send({ nickname: 'Bo' })).status).toBe(200);
    expect((await t.http().post('/v1/players').set(bearer(other.owner)).send({ name: 'Dana' })).status).toBe(201);
  });
  afterAll(() => t.close());

  it("answers the club's events oldest first, each with its id, type, time, subject and the resource after the change", async () => {
    const items = await visible(viewer, 4);
    expect(items.map((e) => [e.type, e.subject])).toEqual([
      ['player.created', { kind: 'player', id: players.Anna }],
      ['player.created', { kind: 'player', id: players.Boris }],
      ['player.created', { kind: 'player', id: players.Chen }],
      ['player.updated', { kind: 'player', id: players.Boris }],
    ]);
    const ids = items.map((e) => e.id);
    expect(ids.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    const boris = (await t.http().get(`/v1/players/${players.Boris}`).set(bearer(owner))).body;
    expect(items[3]).toMatchObject({ sessionId: null, data: { id: players.Boris, name: 'Boris', nickname: 'Bo', version: 2 } });
    expect(items[1].data).toMatchObject({ id: players.Boris, name: 'Boris', nickname: null, version: 1 });
    expect(items[3].data.updatedAt).toBe(boris.updatedAt);
    expect(Date.parse(items[0].occurredAt)).not.toBeNaN();
    // The ids are the rows' places in the log, in their order.
    const rows = await t.sql<{ tx: string; seq: string }>('SELECT tx::text, seq::text FROM events WHERE club_id = $1 ORDER BY tx, seq', [clubId]);
    expect(rows.map((r) => encodeEventId(r))).toEqual(ids);
  });

  it('pages with limit and after; nextCursor is the last id, or the after given on an empty page', async () => {
    const items = await visible(owner, 4);
    const first = await page(owner, { limit: 3 });
    expect(first.status).toBe(200);
    expect(first.body.items.map((e: { id: string }) => e.id)).toEqual(items.slice(0, 3).map((e) => e.id));
    expect(first.body.nextCursor).toBe(items[2].id);
    const second = await page(owner, { limit: 3, after: first.body.nextCursor });
    expect(second.body.items.map((e: { id: string }) => e.id)).toEqual([items[3].id]);
    expect(second.body.nextCursor).toBe(items[3].id);
    const empty = await page(owner, { limit: 3, after: second.body.nextCursor });
    expect(empty.body).toEqual({ items: [], nextCursor: items[3].id });
    // The default page is 100; an empty log without after has no cursor.
    expect((await page(other.owner, { types: 'session.created' })).body).toEqual({ items: [], nextCursor: null });
  });

  it('filters by types (a comma-separated list) and by session', async () => {
    await visible(owner, 4);
    const updated = await page(owner, { types: 'player.updated' });
    expect(updated.body.items.map((e: { type: string; subject: { id: string } }) => [e.type, e.subject.id])).toEqual([['player.updated', players.Boris]]);
    const both = await page(owner, { types: ' player.updated , player.created,player.updated' });
    expect(both.body.items).toHaveLength(4);
    expect((await page(owner, { types: 'game.finished' })).body.items).toEqual([]);

    // Session events (written here by hand: the commands that write them are others').
    const sessionA = '0190c3a2-0000-7000-8000-00000000000a';
    const sessionB = '0190c3a2-0000-7000-8000-00000000000b';
    await t.sql(
      `INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data)
       VALUES ($1, 'session.created', $2::uuid, 'session', $2::text, '{"name":"A"}'), ($1, 'session.created', $3::uuid, 'session', $3::text, '{"name":"B"}'),
              ($1, 'session.closed', $2::uuid, 'session', $2::text, '{"name":"A"}'), ($4, 'session.created', $2::uuid, 'session', $2::text, '{"name":"elsewhere"}')`,
      [clubId, sessionA, sessionB, other.clubId],
    );
    await visible(owner, 7);
    const ofA = await page(owner, { sessionId: sessionA });
    expect(ofA.body.items.map((e: { type: string; sessionId: string }) => [e.type, e.sessionId])).toEqual([
      ['session.created', sessionA],
      ['session.closed', sessionA],
    ]);
    const closedOfA = await page(owner, { sessionId: sessionA.toUpperCase(), types: 'session.closed' });
    expect(closedOfA.body.items.map((e: { type: string }) => e.type)).toEqual(['session.closed']);
    expect((await page(owner, { sessionId: sessionB, types: 'session.closed' })).body.items).toEqual([]);
  });

  it("never shows another club's events", async () => {
    const mine = await visible(owner, 4);
    const theirs = await visible(other.owner, 2);
    expect(theirs.map((e) => [e.type, (e.data as { name: string }).name])).toEqual([
      ['player.created', 'Dana'],
      ['session.created', 'elsewhere'],
    ]);
    expect(mine.some((e) => (e.data as { name?: string }).name === 'Dana' || (e.data as { name?: string }).name === 'elsewhere')).toBe(false);
    // Resuming after another club's id does not open its log either.
    const after = await page(other.owner, { after: mine[0].id });
    expect(after.body.items.every((e: { data: { name: string } }) => ['Dana', 'elsewhere'].includes(e.data.name))).toBe(true);
  });

  it('needs a viewer key; without one, 401', async () => {
    expect((await page(viewer)).status).toBe(200);
    const anonymous = await t.http().get('/v1/events');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a malformed after (INVALID_EVENT_ID), an unknown type (INVALID_EVENT_TYPE) and a bad limit or session, as problem+json', async () => {
    for (const after of ['xyz', '00000000000002f1000000000000003', '00000000000002F1000000000000003C', '']) {
      const res = await page(owner, { after });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_EVENT_ID', errors: [{ field: 'after' }] });
    }
    for (const types of ['player.craeted', 'player.created,', 'webhook.test', '']) {
      const res = await page(owner, { types });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_EVENT_TYPE', errors: [{ field: 'types' }] });
    }
    expect((await page(owner, { types: 'player.craeted' })).body.detail).toMatch(/"player\.craeted"/);
    for (const q of [{ limit: 0 }, { limit: 501 }, { limit: 'ten' }, { sessionId: 'not-a-uuid' }, { cursor: 'x' }] as Array<Record<string, string | number>>) {
      const res = await page(owner, q);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });
});

/**
 * The ordering proof (the HTTP contract: "resuming after an id never misses an event,
 * even one whose transaction committed after a later-numbered one"). A transaction takes
 * its id, another one writes and commits an event, then the first writes its own and
 * commits last: by sequence number the first's event comes later, by place in the log
 * (tx, seq) it comes first. A reader that went by sequence numbers alone would hand out
 * the second event while the first was still running, and a client resuming after it
 * would never see the first.
 */
describe('the visibility rule', () => {
  let t: TestApp;
  let owner: string;
  let clubId: string;
  let open: Client;

  beforeAll(async () => {
    t = await startApp();
    ({ owner, clubId } = await newClub(t));
    open = new Client({ connectionString: t.dbUrl });
    await open.connect();
  });
  afterAll(async () => {
    await open.end().catch(() => undefined);
    await t.close();
  });

  const page = async (after?: string) => {
    const res = await t
      .http()
      .get('/v1/events')
      .query(after ? { after } : {})
      .set(bearer(owner));
    expect(res.status).toBe(200);
    return res.body as { items: Array<{ id: string; data: { name: string } }>; nextCursor: string | null };
  };

  it('shows nothing past a transaction still running, then both events in (tx, seq) order once it commits', async () => {
    expect((await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Before' })).status).toBe(201);
    const before = await waitFor('the first event', async () => ((await page()).items.length === 1 ? page() : null), EVENT_VISIBLE_WITHIN_MS);
    const cursor = before.nextCursor!;

    // The first transaction takes its id and stays open.
    await open.query('BEGIN');
    const first = (await open.query<{ tx: string }>('SELECT pg_current_xact_id()::text AS tx')).rows[0].tx;
    // The second writes an event and commits (a command through the API).
    expect((await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Second' })).status).toBe(201);
    // Then the first writes its own: a higher sequence number, a lower transaction id.
    await open.query(`INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data) VALUES ($1, 'player.created', NULL, 'player', 'p1', '{"name":"First"}')`, [clubId]);
    const rows = await t.sql<{ name: string; tx: string; seq: string }>("SELECT data->>'name' AS name, tx::text, seq::text FROM events WHERE club_id = $1 AND data->>'name' = 'Second'", [
      clubId,
    ]);
    expect(rows).toHaveLength(1);
    const second = rows[0];
    expect(BigInt(second.tx)).toBeGreaterThan(BigInt(first));

    // The second event is committed, yet nothing past the running transaction is shown
    // (a reader by sequence numbers would show "Second" here).
    await new Promise((r) => setTimeout(r, 300));
    expect(await page(cursor)).toEqual({ items: [], nextCursor: cursor });

    await open.query('COMMIT');
    const after = await waitFor('both events', async () => ((await page(cursor)).items.length === 2 ? page(cursor) : null), EVENT_VISIBLE_WITHIN_MS);
    // By place in the log: First (lower tx) before Second, though its sequence number is higher.
    expect(after.items.map((e) => e.data.name)).toEqual(['First', 'Second']);
    const firstSeq = (await t.sql<{ seq: string }>("SELECT seq::text FROM events WHERE club_id = $1 AND data->>'name' = 'First'", [clubId]))[0].seq;
    expect(BigInt(firstSeq)).toBeGreaterThan(BigInt(second.seq));
    expect(after.items[1].id).toBe(encodeEventId(second));
    expect(after.nextCursor).toBe(after.items[1].id);
    // Resuming after the last one misses nothing and repeats nothing.
    expect((await page(after.nextCursor!)).items).toEqual([]);
  }, 150_000);

  it('reads a page with an index scan from the position (the primary key, or the session index)', async () => {
    // Enough rows, in enough clubs, that a scan of the table would cost more.
    await t.sql(
      `INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data)
       SELECT md5(i::text)::uuid, 'player.created', CASE WHEN i % 3 = 0 THEN md5((i % 50)::text)::uuid END, 'player', 'p', '{}'
         FROM generate_series(1, 20000) AS i`,
    );
    await t.sql('ANALYZE events');
    const plan = async (sessionId: string | null, types: ['player.created'] | null) => {
      const { text, values } = pageStatement(clubId, { tx: '5', seq: '0' }, { types, sessionId }, 100);
      const explain = new Client({ connectionString: t.dbUrl });
      await explain.connect();
      try {
        // A generic plan: the one that does not depend on the values at hand.
        await explain.query('SET plan_cache_mode = force_generic_plan');
        await explain.query(`PREPARE page AS ${text}`);
        const literals = values.map((v) => (Array.isArray(v) ? `ARRAY[${v.map((x) => `'${String(x)}'`).join(',')}]` : typeof v === 'number' ? String(v) : `'${String(v)}'`));
        return (await explain.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE page(${literals.join(', ')})`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await explain.end();
      }
    };
    const byClub = await plan(null, ['player.created']);
    expect(byClub).toMatch(/Index Scan using events_pkey on events/);
    expect(byClub).not.toMatch(/Sort|Seq Scan/);
    const bySession = await plan('0190c3a2-0000-7000-8000-00000000000a', null);
    expect(bySession).toMatch(/Index Scan using events_session on events/);
    expect(bySession).not.toMatch(/Sort|Seq Scan/);
  });
});
