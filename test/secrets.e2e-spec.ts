import { bearer, startApp, TestApp } from './support/app';

/** Every row of every table of the app's database, as text. */
async function everyRow(t: TestApp): Promise<string[]> {
  const tables = await t.sql<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
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
