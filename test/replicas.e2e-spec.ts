import request from 'supertest';
import { anotherInstance, bearer, RunningApp, startApp, TestApp } from './support/app';
import { clubWith, double, finish, take } from './support/club';

const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;

/**
 * Reads a client accepts from a standby (Prefer: replica) and the Consistency-Token of
 * writes, on one server: the "standby" configured here is the primary itself, so every
 * read is left to the primary (it is not in recovery). The standby's own answers are
 * checked on a real cluster by the fault test (npm run cluster-test).
 */
describe('Consistency-Token and Prefer: replica', () => {
  let t: TestApp;
  let withReplica: RunningApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let sessionId: string;
  let tableId: string;

  beforeAll(async () => {
    t = await startApp();
    withReplica = await anotherInstance(t, { DATABASE_REPLICA_URL: t.appDbUrl });
    c = await clubWith(t, ['Anna', 'Ben']);
    sessionId = await c.session();
    tableId = (await c.post('/v1/money-games', { sessionId, players: [c.ids.Anna, c.ids.Ben], stakeMinor: 100 })).body.id;
  });
  afterAll(async () => {
    await withReplica?.stop();
    await t?.close();
  });

  const viaReplica = () => request(withReplica.url);
  const game = () => ({ actions: [double(c.ids.Anna), take(c.ids.Ben), finish(c.ids.Anna)] });

  it("answers every write with the primary's WAL position, later writes never lower", async () => {
    const first = await viaReplica().post(`/v1/money-games/${tableId}/games`).set(bearer(c.owner)).send(game()).expect(201);
    expect(first.headers['consistency-token']).toMatch(LSN);
    const second = await viaReplica().post(`/v1/money-games/${tableId}/games`).set(bearer(c.owner)).send(game()).expect(201);
    const lsn = (s: string) => s.split('/').reduce((v, part) => v * 2n ** 32n + BigInt(`0x${part}`), 0n);
    expect(lsn(second.headers['consistency-token'])).toBeGreaterThan(lsn(first.headers['consistency-token']));
  });

  it('answers no token without a standby configured, and none on a refusal or a read', async () => {
    const plain = await c.post(`/v1/money-games/${tableId}/games`, game()).expect(201);
    expect(plain.headers['consistency-token']).toBeUndefined();
    const refused = await viaReplica()
      .post(`/v1/money-games/${tableId}/games`)
      .set(bearer(c.owner))
      .send({ actions: [{ type: 'take', by: c.ids.Ben }] });
    expect(refused.status).toBe(422);
    expect(refused.headers['consistency-token']).toBeUndefined();
    const read = await viaReplica().get(`/v1/sessions/${sessionId}`).set(bearer(c.owner)).expect(200);
    expect(read.headers['consistency-token']).toBeUndefined();
  });

  it('serves the statement, standings and games with Prefer: replica from the primary when the "standby" is not one, the same answer', async () => {
    const w = await viaReplica().post(`/v1/money-games/${tableId}/games`).set(bearer(c.owner)).send(game()).expect(201);
    const token = w.headers['consistency-token'];
    for (const path of [`/v1/sessions/${sessionId}/settlement`, `/v1/sessions/${sessionId}/standings`, `/v1/sessions/${sessionId}/games`]) {
      const plain = await c.get(path).expect(200);
      const preferred = await viaReplica().get(path).set(bearer(c.owner)).set('prefer', 'replica').set('consistency-token', token).expect(200);
      expect(preferred.headers['preference-applied']).toBeUndefined();
      expect(preferred.headers.vary).toMatch(/Prefer, Consistency-Token/);
      expect(preferred.body).toEqual(plain.body);
    }
    // Four games of 2 points each for Anna, at 100 a point.
    const st = await viaReplica().get(`/v1/sessions/${sessionId}/settlement`).set(bearer(c.owner)).set('prefer', 'replica').set('consistency-token', token).expect(200);
    expect(st.body.players.find((p: { playerId: string }) => p.playerId === c.ids.Anna).netMinor).toBe(800);
    const csv = await viaReplica().get(`/v1/sessions/${sessionId}/games`).set(bearer(c.owner)).set('accept', 'text/csv').set('prefer', 'replica').expect(200);
    expect(csv.text.trim().split('\n')).toHaveLength(5);
  });

  it('refuses a Consistency-Token that is not a WAL position (400 VALIDATION_FAILED), with Prefer: replica only', async () => {
    const bad = await viaReplica().get(`/v1/sessions/${sessionId}/settlement`).set(bearer(c.owner)).set('prefer', 'replica').set('consistency-token', "0/1'; SELECT 1").expect(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    await viaReplica().get(`/v1/sessions/${sessionId}/settlement`).set(bearer(c.owner)).set('consistency-token', 'nonsense').expect(200);
  });
});

describe('A write that reaches a server taking no writes (a standby, a demoted primary)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const appRole = () => new URL(t.appDbUrl).username;
  const database = () => new URL(t.dbUrl).pathname.slice(1);
  /** The app's new connections come up read-only, as on a standby; its open ones are closed. */
  async function readOnly(on: boolean) {
    await t.sql(`ALTER ROLE "${appRole()}" IN DATABASE "${database()}" ${on ? 'SET default_transaction_read_only = on' : 'RESET default_transaction_read_only'}`);
    await t.sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND datname = $2', [appRole(), database()]);
  }

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After (SQLSTATE 25006), writes nothing, and writes once the primary is back', async () => {
    const c = await clubWith(t, ['Anna']);
    const before = await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM sessions');
    await readOnly(true);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await c.post('/v1/sessions', { name: 'Refused night' });
        // The first request may meet a connection that was just closed: 503 as well.
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('DATABASE_UNAVAILABLE');
        expect(res.headers['retry-after']).toBe('1');
      }
      expect(await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM sessions')).toEqual(before);
    } finally {
      await readOnly(false);
    }
    // The read-only connections were dropped, not kept: the next write goes through.
    let status = 0;
    for (let i = 0; i < 20 && status !== 201; i++) status = (await c.post('/v1/sessions', { name: 'Club night' })).status;
    expect(status).toBe(201);
  });
});
