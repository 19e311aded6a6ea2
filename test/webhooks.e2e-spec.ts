import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { encodeEventId } from '../src/outbox/event-id';
import { anotherInstance, bearer, newClub, RunningApp, startApp, TestApp } from './support/app';
import { Receiver, startReceiver, until } from './support/webhook-receiver';

/** A fast retry schedule (three retries a second apart) and a worker that looks ten times a second. */
const FAST = { WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_POLL_MS: '100' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every row of every table of the app's database, as text. */
async function everyRow(t: TestApp): Promise<string[]> {
  const tables = await t.sql<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`);
  const rows: string[] = [];
  for (const { name } of tables) {
    for (const r of await t.sql<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`)) rows.push(`${name}: ${r.row}`);
  }
  return rows;
}

/** The event the log holds for a subject, as readers get it (id from its place in the log). */
async function eventOf(t: TestApp, type: string, subjectId: string) {
  const rows = await t.sql<{ tx: string; seq: string; type: string; occurred_at: Date; session_id: string | null; subject_kind: string; subject_id: string; data: unknown }>(
    'SELECT tx::text AS tx, seq::text AS seq, type, occurred_at, session_id, subject_kind, subject_id, data FROM events WHERE type = $1 AND subject_id = $2',
    [type, subjectId],
  );
  expect(rows).toHaveLength(1);
  const e = rows[0];
  return {
    id: encodeEventId({ tx: e.tx, seq: e.seq }),
    type: e.type,
    occurredAt: e.occurred_at.toISOString(),
    sessionId: e.session_id,
    subject: { kind: e.subject_kind, id: e.subject_id },
    data: e.data,
  };
}

describe('webhook subscriptions', () => {
  let t: TestApp;
  let owner: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Private targets refused (the default); the worker runs, fast.
    t = await startApp(FAST);
    ({ owner } = await newClub(t, 'Hooks club'));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const post = (body: object, token = owner) => t.http().post('/v1/webhooks').set(bearer(token)).send(body);

  it('answers the secret once, in the Standard Webhooks form; GET never shows it; the database holds it only sealed', async () => {
    const res = await post({ url: 'https://203.0.113.7/hooks?club=1', types: ['player.created', 'game.finished'], description: 'Scoreboard' });
    expect(res.status).toBe(201);
    const secret = res.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://203.0.113.7/hooks?club=1',
      types: ['player.created', 'game.finished'],
      sessionId: null,
      description: 'Scoreboard',
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
      secret,
    });
    const { secret: _shown, ...withoutSecret } = res.body as Record<string, unknown>;

    const one = await t.http().get(`/v1/webhooks/${res.body.id}`).set(bearer(owner));
    expect(one.status).toBe(200);
    expect(one.body).toEqual(withoutSecret);
    const list = await t.http().get('/v1/webhooks').set(bearer(owner));
    expect(list.status).toBe(200);
    expect(list.body.items).toContainEqual(withoutSecret);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));

    // No table holds the secret, nor its key, in any form.
    const key = Buffer.from(secret.slice(6), 'base64');
    const rows = await everyRow(t);
    for (const form of [secret, secret.slice(6), key.toString('hex'), key.toString('base64url')]) {
      expect(rows.filter((r) => r.includes(form))).toEqual([]);
    }
    const [stored] = await t.sql<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE id = $1', [res.body.id]);
    expect(stored.secret_sealed).toMatch(/^aes256gcm:/);
  });

  it('takes every type when none are named, and only the named session when one is', async () => {
    const session = (await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'Club night' })).body.id as string;
    const all = await post({ url: 'https://203.0.113.8/all' });
    expect(all.status).toBe(201);
    expect(all.body).toMatchObject({ types: null, sessionId: null, description: null });
    const one = await post({ url: 'https://203.0.113.8/night', sessionId: session });
    expect(one.status).toBe(201);
    expect(one.body.sessionId).toBe(session);
    const longest = `https://203.0.113.8/${'x'.repeat(2048 - 'https://203.0.113.8/'.length)}`;
    expect((await post({ url: longest, types: ['rating.changed'] })).status).toBe(201);
    const none = await post({ url: 'https://203.0.113.8/none', sessionId: '0190a0a0-0000-7000-8000-000000000009' });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('REFERENCE_NOT_FOUND');
  });

  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1 is a loopback address'],
    ['http://10.1.2.3/hook', '10.1.2.3 is a private address'],
    ['http://[::1]/hook', '::1 is a loopback address'],
    ['http://localhost:3000/hook', 'localhost resolves to'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://100.64.0.1/', 'CGNAT'],
    ['http://[fd00::1]/', 'unique-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://2130706433/', 'loopback'],
  ])('refuses the private target %s (WEBHOOK_URL_PRIVATE)', async (url, why) => {
    const res = await post({ url });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('WEBHOOK_URL_PRIVATE');
    expect(res.body.detail).toContain(why);
    expect(res.body.errors).toEqual([{ field: 'url', message: expect.stringContaining(why) }]);
  });

  it('refuses a private target on PATCH too, and a host name that does not resolve', async () => {
    const id = (await post({ url: 'https://203.0.113.9/x' })).body.id as string;
    const patched = await t.http().patch(`/v1/webhooks/${id}`).set(bearer(owner)).send({ url: 'http://192.168.1.1/x' });
    expect(patched.status).toBe(422);
    expect(patched.body.code).toBe('WEBHOOK_URL_PRIVATE');
    const unresolvable = await post({ url: 'https://no-such-host.invalid/hook' });
    expect(unresolvable.status).toBe(422);
    expect(unresolvable.body.code).toBe('WEBHOOK_URL_UNRESOLVABLE');
    await t.http().delete(`/v1/webhooks/${id}`).set(bearer(owner)).expect(204);
  });

  it.each([
    ['an ftp URL', { url: 'ftp://203.0.113.7/x' }, 'url'],
    ['credentials in the URL', { url: 'https://user:pw@203.0.113.7/x' }, 'url'],
    ['no URL at all', { url: 'not a url' }, 'url'],
    ['a URL of 2049 characters', { url: `https://203.0.113.7/${'x'.repeat(2049 - 'https://203.0.113.7/'.length)}` }, 'url'],
    ['a missing URL', {}, 'url'],
    ['an empty list of types', { url: 'https://203.0.113.7/x', types: [] }, 'types'],
    ['a type twice', { url: 'https://203.0.113.7/x', types: ['player.created', 'player.created'] }, 'types'],
    ['an unknown type', { url: 'https://203.0.113.7/x', types: ['player.deleted'] }, 'types'],
    ['types not a list', { url: 'https://203.0.113.7/x', types: 'player.created' }, 'types'],
    ['a session id that is no UUID', { url: 'https://203.0.113.7/x', sessionId: 'tonight' }, 'sessionId'],
    ['a secret of its own', { url: 'https://203.0.113.7/x', secret: 'whsec_mine' }, 'secret'],
  ])('refuses %s (400 on the field)', async (_what, body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('is for owners only: scorer and viewer keys get 403, and another club sees none of it (404)', async () => {
    const id = (await post({ url: 'https://203.0.113.10/x' })).body.id as string;
    for (const role of ['scorer', 'viewer']) {
      const key = (await t.http().post('/v1/api-keys').set(bearer(owner)).send({ name: role, role })).body.token as string;
      const h = bearer(key);
      const answers = await Promise.all([
        t.http().post('/v1/webhooks').set(h).send({ url: 'https://203.0.113.10/y' }),
        t.http().get('/v1/webhooks').set(h),
        t.http().get(`/v1/webhooks/${id}`).set(h),
        t.http().patch(`/v1/webhooks/${id}`).set(h).send({ enabled: false }),
        t.http().delete(`/v1/webhooks/${id}`).set(h),
        t.http().get(`/v1/webhooks/${id}/deliveries`).set(h),
        t.http().post(`/v1/webhooks/${id}/test`).set(h),
      ]);
      expect(answers.map((a) => [a.status, a.body.code])).toEqual(Array(7).fill([403, 'FORBIDDEN']));
    }
    const other = await newClub(t, 'Other club');
    const h = bearer(other.owner);
    const answers = await Promise.all([
      t.http().get(`/v1/webhooks/${id}`).set(h),
      t.http().patch(`/v1/webhooks/${id}`).set(h).send({ enabled: false }),
      t.http().patch(`/v1/webhooks/${id}`).set(h).send({ url: 'http://127.0.0.1/' }),
      t.http().delete(`/v1/webhooks/${id}`).set(h),
      t.http().get(`/v1/webhooks/${id}/deliveries`).set(h),
      t.http().post(`/v1/webhooks/${id}/test`).set(h),
    ]);
    expect(answers.map((a) => [a.status, a.body.code])).toEqual(Array(6).fill([404, 'NOT_FOUND']));
    expect((await t.http().get('/v1/webhooks').set(h)).body.items).toEqual([]);
    // Still there, unchanged, for its own club.
    expect((await t.http().get(`/v1/webhooks/${id}`).set(bearer(owner))).body).toMatchObject({ enabled: true, version: 1 });
  });

  it('changes a subscription: types, disabled by hand with a reason, enabled again without one; If-Match honoured; deleted', async () => {
    const created = (await post({ url: 'https://203.0.113.11/x' })).body;
    const patch = (body: object, ifMatch?: string) => {
      const r = t.http().patch(`/v1/webhooks/${created.id}`).set(bearer(owner));
      return (ifMatch ? r.set('if-match', ifMatch) : r).send(body);
    };
    const typed = await patch({ types: ['game.finished'], description: 'Results' }, '"1"');
    expect(typed.status).toBe(200);
    expect(typed.body).toMatchObject({ types: ['game.finished'], description: 'Results', version: 2, enabled: true });
    expect(typed.body.secret).toBeUndefined();
    expect((await patch({ enabled: false }, '"1"')).status).toBe(412);
    const off = await patch({ enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'disabled by an owner', version: 3 });
    const on = await patch({ enabled: true, types: null });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, types: null, version: 4 });
    expect((await patch({ secret: 'x' })).status).toBe(400);
    expect((await t.http().delete(`/v1/webhooks/${created.id}`).set(bearer(owner))).status).toBe(204);
    expect((await t.http().get(`/v1/webhooks/${created.id}`).set(bearer(owner))).status).toBe(404);
    expect((await t.http().delete(`/v1/webhooks/${created.id}`).set(bearer(owner))).status).toBe(404);
  });

  it('bounds the subscriptions of a club at 20 (WEBHOOK_LIMIT_REACHED)', async () => {
    const club = await newClub(t, 'Busy club');
    const made = await Promise.all(Array.from({ length: 22 }, (_, i) => post({ url: `https://203.0.113.12/${i}` }, club.owner)));
    expect(made.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = made.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [422, 'WEBHOOK_LIMIT_REACHED'],
      [422, 'WEBHOOK_LIMIT_REACHED'],
    ]);
    const page1 = await t.http().get('/v1/webhooks?limit=15').set(bearer(club.owner));
    const page2 = await t.http().get(`/v1/webhooks?limit=15&cursor=${page1.body.nextCursor}`).set(bearer(club.owner));
    expect([page1.body.items.length, page2.body.items.length, page2.body.nextCursor]).toEqual([15, 5, null]);
  });

  it('checks the address again when sending: a URL that now points at a private address gets nothing', async () => {
    const club = await newClub(t, 'Moved club');
    const created = (await post({ url: 'https://203.0.113.13/x', types: ['player.created'] }, club.owner)).body;
    // As if its name now resolved to the service's own machine.
    await t.sql('UPDATE webhooks SET url = $1 WHERE id = $2', [`${receiver.base}/sneaky`, created.id]);
    receiver.expect('/sneaky', created.secret);
    await t.http().post('/v1/players').set(bearer(club.owner)).send({ name: 'Mallory' }).expect(201);
    let log: Array<Record<string, unknown>> = [];
    await until('the refused attempt in the log', async () => {
      log = (await t.http().get(`/v1/webhooks/${created.id}/deliveries`).set(bearer(club.owner))).body.items;
      return log.length >= 1;
    });
    expect(log[0]).toMatchObject({ attempt: 1, status: 'failed', responseStatus: null, error: expect.stringContaining('refused: 127.0.0.1 is a loopback address') });
    const tested = await t.http().post(`/v1/webhooks/${created.id}/test`).set(bearer(club.owner));
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ status: 'failed', error: expect.stringContaining('loopback') });
    expect(receiver.at('/sneaky')).toEqual([]);
    await t.http().delete(`/v1/webhooks/${created.id}`).set(bearer(club.owner)).expect(204);
  });
});

describe('webhook delivery', () => {
  let t: TestApp;
  let receiver: Receiver;
  let owner: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startApp({ WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST });
    ({ owner } = await newClub(t, 'Delivery club'));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** A subscription to a path of the receiver, its secret registered there. */
  async function subscribe(path: string, body: object = {}, answer?: (n: number) => number) {
    const res = await t
      .http()
      .post('/v1/webhooks')
      .set(bearer(owner))
      .send({ url: `${receiver.base}${path}`, ...body });
    expect(res.status).toBe(201);
    receiver.expect(path, res.body.secret, answer ? (_r, n) => answer(n) : undefined);
    return res.body as { id: string; secret: string };
  }
  const log = async (id: string) => (await t.http().get(`/v1/webhooks/${id}/deliveries`).set(bearer(owner))).body.items as Array<Record<string, unknown>>;
  const newPlayer = async (name: string) => {
    const res = await t.http().post('/v1/players').set(bearer(owner)).send({ name });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };

  it('answers 500 twice then 200: three signed attempts, logged newest first, one delivery, the payload the event', async () => {
    const hook = await subscribe('/flaky', { types: ['player.created'] }, (n) => (n <= 2 ? 500 : 200));
    const player = await newPlayer('Anna');
    await until('three attempts', () => receiver.at('/flaky').length >= 3);
    await sleep(1500);
    const got = receiver.at('/flaky');
    expect(got.map((r) => [r.attempt, r.status, r.verified])).toEqual([
      [1, 500, true],
      [2, 500, true],
      [3, 200, true],
    ]);
    const event = await eventOf(t, 'player.created', player.id);
    expect(event).toMatchObject({ type: 'player.created', sessionId: null, subject: { kind: 'player', id: player.id }, data: player });
    for (const r of got) {
      expect(r.json).toEqual(event);
      expect(r.webhookId).toBe(event.id);
      expect(r.headers['content-type']).toBe('application/json');
      expect(Number(r.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
      // The body is the event JSON, its fields in the contract's order.
      expect(Object.keys(JSON.parse(r.body) as object)).toEqual(['id', 'type', 'occurredAt', 'sessionId', 'subject', 'data']);
    }
    // Another secret does not verify them.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got[2].body, got[2].headers as Record<string, string>)).toThrow();

    const attempts = await log(hook.id);
    expect(attempts.map((a) => [a.eventId, a.attempt, a.status, a.responseStatus])).toEqual([
      [event.id, 3, 'delivered', 200],
      [event.id, 2, 'failed', 500],
      [event.id, 1, 'failed', 500],
    ]);
    expect(attempts[0]).toMatchObject({ error: null, nextAttemptAt: null });
    for (const failed of attempts.slice(1)) {
      expect(failed.error).toBe('HTTP 500: refused by the test receiver (500)');
      const wait = Date.parse(failed.nextAttemptAt as string) - Date.parse(failed.at as string);
      expect(wait).toBeGreaterThan(500);
      expect(wait).toBeLessThan(5000);
    }
    const deliveries = await t.sql('SELECT state, attempts, lease_until FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]);
    expect(deliveries).toEqual([{ state: 'delivered', attempts: 3, lease_until: null }]);

    // A type it did not ask for is not sent.
    await t.http().patch(`/v1/players/${player.id}`).set(bearer(owner)).send({ nickname: 'Annie' }).expect(200);
    await sleep(800);
    expect(receiver.at('/flaky')).toHaveLength(3);
  });

  it('sends a subscription its events in the order of the log, even when the earlier one commits last', async () => {
    await subscribe('/ordered', { types: ['player.created'] });
    const clubId = (await t.http().get('/v1/club').set(bearer(owner))).body.id as string;
    // A transaction writes an event (so takes its place in the log first) and stays open.
    const slow = new Client({ connectionString: t.dbUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await slow.query(`INSERT INTO events (club_id, type, session_id, subject_kind, subject_id, data) VALUES ($1, 'player.created', NULL, 'player', 'early', '{"name":"Early"}')`, [clubId]);
      const later = await newPlayer('Later');
      await sleep(1000);
      // The later event is committed, but the earlier place is still open: nothing is sent yet.
      expect(receiver.at('/ordered')).toEqual([]);
      await slow.query('COMMIT');
      await until('both events', () => receiver.at('/ordered').length >= 2);
      expect(receiver.at('/ordered').map((r) => r.json.subject.id)).toEqual(['early', later.id]);
    } finally {
      await slow.end();
    }
  });

  it('lets a receiver that does not answer hold up only its own subscription', async () => {
    await subscribe('/stuck', { types: ['player.created'] }, () => 0);
    await subscribe('/lively', { types: ['player.created'] });
    const first = await newPlayer('Stuck 1');
    await until('the first event at both', () => receiver.at('/stuck').length === 1 && receiver.at('/lively').length === 1);
    // While /stuck waits for its answer (up to 10 s), /lively gets the next event at once.
    const second = await newPlayer('Stuck 2');
    await until('the second event', () => receiver.at('/lively').length === 2, 3000);
    expect(receiver.at('/lively').map((r) => r.json.subject.id)).toEqual([first.id, second.id]);
    expect(receiver.at('/stuck')).toHaveLength(1);
  });

  it('pages the delivery log newest first', async () => {
    const hook = await subscribe('/pages', { types: ['player.created'] });
    for (const name of ['P1', 'P2', 'P3']) await newPlayer(name);
    await until('three deliveries', () => receiver.at('/pages').length >= 3);
    // An attempt is logged after its send, in a command of its own: the receiver may have
    // all three before the log does (a page of two was then the last, and its null cursor
    // was sent as "null").
    await until('three attempts logged', async () => (await log(hook.id)).length >= 3);
    const first = await t.http().get(`/v1/webhooks/${hook.id}/deliveries?limit=2`).set(bearer(owner));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(first.body.items).toHaveLength(2);
    const second = await t.http().get(`/v1/webhooks/${hook.id}/deliveries?limit=2&cursor=${first.body.nextCursor}`).set(bearer(owner));
    expect(second.body).toMatchObject({ nextCursor: null });
    const ids = [...first.body.items, ...second.body.items].map((a: { eventId: string }) => a.eventId);
    expect(ids).toEqual(
      receiver
        .at('/pages')
        .map((r) => r.webhookId)
        .reverse(),
    );
    const bad = await t
      .http()
      .get(`/v1/webhooks/${hook.id}/deliveries?cursor=${Buffer.from('["x","y"]').toString('base64url')}`)
      .set(bearer(owner));
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('disables the subscription on 410 Gone: no more attempts, and the log says why', async () => {
    const hook = await subscribe('/gone', { types: ['player.created'] }, () => 410);
    await newPlayer('Ben');
    await until('the 410', () => receiver.at('/gone').length >= 1);
    let state: Record<string, unknown> = {};
    await until('the subscription disabled', async () => {
      state = (await t.http().get(`/v1/webhooks/${hook.id}`).set(bearer(owner))).body;
      return state.enabled === false;
    });
    expect(state.disabledReason).toMatch(/410 Gone/);
    await newPlayer('Cleo');
    await sleep(1500);
    expect(receiver.at('/gone')).toHaveLength(1);
    expect(await log(hook.id)).toEqual([
      {
        eventId: receiver.at('/gone')[0].webhookId,
        attempt: 1,
        status: 'failed',
        responseStatus: 410,
        error: expect.stringContaining('HTTP 410 Gone: the subscription is disabled'),
        at: expect.any(String),
        nextAttemptAt: null,
      },
    ]);
    const queued = await t.sql<{ state: string }>('SELECT state FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]);
    expect(queued).toEqual([{ state: 'failed' }]);
  });

  it('gives up after the last attempt of the schedule (four with three retries)', async () => {
    const hook = await subscribe('/down', { types: ['player.created'] }, () => 503);
    await newPlayer('Dora');
    await until('four attempts', () => receiver.at('/down').length >= 4);
    await sleep(2000);
    expect(receiver.at('/down').map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    await until('the delivery failed', async () => (await t.sql<{ state: string }>('SELECT state FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]))[0]?.state === 'failed');
    const attempts = await log(hook.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.nextAttemptAt === null])).toEqual([
      [4, 'failed', true],
      [3, 'failed', false],
      [2, 'failed', false],
      [1, 'failed', false],
    ]);
  });

  it('logs a refused connection as a failed attempt', async () => {
    const closed = await startReceiver();
    const base = closed.base;
    await closed.close();
    const res = await t
      .http()
      .post('/v1/webhooks')
      .set(bearer(owner))
      .send({ url: `${base}/nobody`, types: ['player.updated'] });
    const tested = await t.http().post(`/v1/webhooks/${res.body.id}/test`).set(bearer(owner));
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ attempt: 1, status: 'failed', responseStatus: null, nextAttemptAt: null, error: expect.stringContaining('connection refused') });
  });

  it('POST …/test sends a signed webhook.test now, answers the attempt and logs it', async () => {
    const hook = await subscribe('/test', { types: ['game.finished'] });
    const res = await t.http().post(`/v1/webhooks/${hook.id}/test`).set(bearer(owner));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: expect.stringMatching(/^test_[0-9a-f]{32}$/),
      attempt: 1,
      status: 'delivered',
      responseStatus: 200,
      error: null,
      at: expect.any(String),
      nextAttemptAt: null,
    });
    const [got] = receiver.at('/test');
    expect(got.verified).toBe(true);
    expect(got.webhookId).toBe(res.body.eventId);
    const subscription = (await t.http().get(`/v1/webhooks/${hook.id}`).set(bearer(owner))).body;
    expect(got.json).toEqual({ id: res.body.eventId, type: 'webhook.test', occurredAt: expect.any(String), sessionId: null, subject: { kind: 'webhook', id: hook.id }, data: subscription });
    expect(await log(hook.id)).toEqual([res.body]);
    // Its secret is the one shown at creation: nothing else verifies it.
    expect(() => new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
  });
});

describe('webhook delivery across crashes and instances', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('delivers an event committed by an instance killed before it could send it, once, from another instance', async () => {
    const t = await startApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'off' });
    let other: RunningApp | null = null;
    try {
      const { owner } = await newClub(t, 'Crash club');
      const subscribe = async (path: string) => {
        const res = await t
          .http()
          .post('/v1/webhooks')
          .set(bearer(owner))
          .send({ url: `${receiver.base}${path}`, types: ['player.created'] });
        receiver.expect(path, res.body.secret);
        return res.body.id as string;
      };
      const plain = await subscribe('/crash');
      const midSend = await subscribe('/mid-send');
      const player = await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Eve' }).expect(201);
      await t.app.stop('SIGKILL');
      expect(await t.sql('SELECT state, attempts FROM webhook_deliveries ORDER BY webhook_id')).toEqual([
        { state: 'pending', attempts: 0 },
        { state: 'pending', attempts: 0 },
      ]);
      // As if an instance had claimed the second delivery's first attempt and died sending it (its lease ran out).
      await t.sql(`UPDATE webhook_deliveries SET attempts = 1, lease_until = now() - interval '1 second' WHERE webhook_id = $1`, [midSend]);

      other = await anotherInstance(t, { WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST });
      await until('both deliveries', () => receiver.at('/crash').length >= 1 && receiver.at('/mid-send').length >= 1);
      await sleep(1500);
      const event = await eventOf(t, 'player.created', player.body.id);
      expect(receiver.at('/crash').map((r) => [r.webhookId, r.attempt, r.verified])).toEqual([[event.id, 1, true]]);
      expect(receiver.at('/crash')[0].json).toEqual(event);
      expect(receiver.at('/mid-send').map((r) => [r.webhookId, r.attempt, r.verified])).toEqual([[event.id, 2, true]]);
      const log = (await request(other.url).get(`/v1/webhooks/${midSend}/deliveries`).set(bearer(owner))).body.items as Array<Record<string, unknown>>;
      expect(log.map((a) => [a.attempt, a.status])).toEqual([
        [2, 'delivered'],
        [1, 'unknown'],
      ]);
      expect(await t.sql('SELECT webhook_id, state, attempts FROM webhook_deliveries ORDER BY webhook_id')).toEqual([
        { webhook_id: plain, state: 'delivered', attempts: 1 },
        { webhook_id: midSend, state: 'delivered', attempts: 2 },
      ]);
    } finally {
      await other?.stop();
      await t.close();
    }
  });

  it('stops within a few seconds while a receiver hangs; the next instance retries the abandoned attempt and purges what is past 30 days', async () => {
    const t = await startApp({ WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST });
    let other: RunningApp | null = null;
    try {
      const { owner, clubId } = await newClub(t, 'Hanging club');
      const hook = (
        await t
          .http()
          .post('/v1/webhooks')
          .set(bearer(owner))
          .send({ url: `${receiver.base}/hang`, types: ['player.created'] })
      ).body;
      // The first attempt is never answered; the next ones are.
      receiver.expect('/hang', hook.secret, (_r, n) => (n === 1 ? 0 : 200));
      await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Fay' }).expect(201);
      await until('the hanging attempt', () => receiver.at('/hang').length === 1);
      const started = Date.now();
      expect(await t.app.stop('SIGTERM')).toBe(0);
      expect(Date.now() - started).toBeLessThan(8000);
      const [abandoned] = await t.sql<{ attempt: number; status: string; error: string; next_attempt_at: Date | null }>(
        'SELECT attempt, status, error, next_attempt_at FROM webhook_attempts WHERE webhook_id = $1',
        [hook.id],
      );
      expect(abandoned).toMatchObject({ attempt: 1, status: 'failed', error: 'abandoned: the instance stopped before the answer came', next_attempt_at: expect.any(Date) });
      expect(await t.sql('SELECT state, attempts, lease_until FROM webhook_deliveries WHERE webhook_id = $1', [hook.id])).toEqual([{ state: 'pending', attempts: 1, lease_until: null }]);

      // Records past keeping: an event of 31 days ago, and a delivery and an attempt as old.
      await t.sql(
        `INSERT INTO events (club_id, type, occurred_at, subject_kind, subject_id, data) VALUES ('0190a0a0-0000-7000-8000-0000000000aa', 'player.created', now() - interval '31 days', 'player', 'old', '{}')`,
      );
      await t.sql(`INSERT INTO webhook_deliveries (club_id, webhook_id, event_tx, event_seq, state, created_at) VALUES ($1, $2, 1, 1, 'delivered', now() - interval '31 days')`, [
        clubId,
        hook.id,
      ]);
      await t.sql(`INSERT INTO webhook_attempts (club_id, webhook_id, id, event_id, attempt, status, at) VALUES ($1, $2, $3, 'old', 1, 'delivered', now() - interval '31 days')`, [
        clubId,
        hook.id,
        '0190a0a0-0000-7000-8000-0000000000ab',
      ]);

      other = await anotherInstance(t, { WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST });
      await until('the retry', () => receiver.at('/hang').length === 2);
      expect(receiver.at('/hang').map((r) => [r.attempt, r.status, r.verified])).toEqual([
        [1, 0, true],
        [2, 200, true],
      ]);
      const old = async () =>
        (
          await t.sql<{ n: number }>(
            `SELECT (SELECT count(*) FROM events WHERE subject_id = 'old') + (SELECT count(*) FROM webhook_deliveries WHERE event_tx = 1) + (SELECT count(*) FROM webhook_attempts WHERE event_id = 'old') AS n`,
          )
        )[0].n;
      await until('the purge', async () => Number(await old()) === 0);
      // What is recent stays.
      expect(await t.sql(`SELECT count(*)::int AS n FROM events WHERE type = 'player.created'`)).toEqual([{ n: 1 }]);
      const log = (await request(other.url).get(`/v1/webhooks/${hook.id}/deliveries`).set(bearer(owner))).body.items as Array<Record<string, unknown>>;
      expect(log.map((a) => [a.attempt, a.status])).toEqual([
        [2, 'delivered'],
        [1, 'failed'],
      ]);
    } finally {
      await other?.stop();
      await t.close();
    }
  });

  it('two instances on one database deliver every event of ~50 to three subscriptions, in order, no attempt sent twice', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST };
    const t = await startApp(env);
    const other = await anotherInstance(t, env);
    try {
      const { owner } = await newClub(t, 'Busy club');
      const paths = ['/a', '/b', '/c'];
      const hooks: Record<string, string> = {};
      for (const path of paths) {
        const res = await t
          .http()
          .post('/v1/webhooks')
          .set(bearer(owner))
          .send({ url: `${receiver.base}${path}`, types: ['player.created'] });
        hooks[path] = res.body.id;
        // /b refuses the first attempt of every fifth event or so: those are sent again.
        receiver.expect(path, res.body.secret, path === '/b' ? (r) => (r.attempt === 1 && parseInt(r.webhookId.slice(-2), 16) % 5 === 0 ? 500 : 200) : undefined);
      }
      const instances = [t.url, other.url];
      const created: string[] = [];
      for (let round = 0; round < 10; round++) {
        const batch = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            request(instances[(round + i) % 2])
              .post('/v1/players')
              .set(bearer(owner))
              .send({ name: `Player ${round}.${i}` }),
          ),
        );
        for (const res of batch) {
          expect(res.status).toBe(201);
          created.push(res.body.id);
        }
      }
      const events = await t.sql<{ tx: string; seq: string }>(`SELECT tx::text AS tx, seq::text AS seq FROM events WHERE type = 'player.created' ORDER BY tx, seq`);
      const ids = events.map((e) => encodeEventId(e));
      expect(ids).toHaveLength(50);
      const delivered = (path: string) =>
        new Set(
          receiver
            .at(path)
            .filter((r) => r.status === 200)
            .map((r) => r.webhookId),
        );
      await until('every event at every subscription', () => paths.every((p) => delivered(p).size === 50), 30000);
      await sleep(1500);

      for (const path of paths) {
        const got = receiver.at(path);
        expect(got.every((r) => r.verified === true)).toBe(true);
        // Each event delivered exactly once, each attempt number sent once, numbered from 1 up.
        expect([...delivered(path)].sort()).toEqual([...ids].sort());
        expect(got.filter((r) => r.status === 200)).toHaveLength(50);
        const sent = got.map((r) => `${r.webhookId}#${r.attempt}`);
        expect(new Set(sent).size).toBe(sent.length);
        for (const id of ids) {
          const attempts = got.filter((r) => r.webhookId === id).map((r) => r.attempt);
          expect(attempts).toEqual(attempts.map((_, i) => i + 1));
        }
        // The log holds every attempt the receiver got.
        const logged = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM webhook_attempts WHERE webhook_id = $1', [hooks[path]]);
        expect(logged[0].n).toBe(got.length);
      }
      // Where nothing was retried, the events came in the order of the log.
      for (const path of ['/a', '/c']) expect(receiver.at(path).map((r) => r.webhookId)).toEqual(ids);
      expect(receiver.at('/b').filter((r) => r.attempt > 1).length).toBeGreaterThan(0);
      expect(await t.sql(`SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state`)).toEqual([{ state: 'delivered', n: 150 }]);
    } finally {
      await other.stop();
      await t.close();
    }
  });
});
