import { newClub, bearer, startApp, TestApp } from './support/app';

/**
 * The unit of work is retried whole on a serialization failure or a deadlock
 * (40001, 40P01), a bounded number of times, then 503. The failures are injected
 * with a trigger in this suite's own database; sequences are not rolled back, so
 * they count the attempts.
 */
describe('retrying the whole unit of work on 40001/40P01', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t));
    await t.sql(`CREATE SEQUENCE attempts_flaky`);
    await t.sql(`CREATE SEQUENCE attempts_doomed`);
    // The trigger runs as the app's role (a member of bgclub_app), not as this owner.
    await t.sql(`GRANT USAGE ON SEQUENCE attempts_flaky, attempts_doomed TO bgclub_app`);
    await t.sql(`
      CREATE FUNCTION inject_failures() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name LIKE 'Flaky%' AND nextval('attempts_flaky') <= 2 THEN
          RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001';
        END IF;
        IF NEW.name LIKE 'Doomed%' THEN
          PERFORM nextval('attempts_doomed');
          RAISE EXCEPTION 'injected deadlock' USING ERRCODE = '40P01';
        END IF;
        RETURN NEW;
      END $$`);
    await t.sql(`CREATE TRIGGER inject_failures BEFORE INSERT ON players FOR EACH ROW EXECUTE FUNCTION inject_failures()`);
  });
  afterAll(() => t.close());

  const attempts = async (seq: string) => (await t.sql<{ n: string }>(`SELECT last_value::text AS n FROM ${seq}`))[0].n;
  const players = async (like: string) => (await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM players WHERE name LIKE $1`, [like]))[0].n;

  it('succeeds on the third attempt after two serialization failures, writing once', async () => {
    const res = await t.http().post('/v1/players').set(bearer(owner)).set('Idempotency-Key', 'flaky-1').send({ name: 'Flaky Fred' });
    expect(res.status).toBe(201);
    expect(await attempts('attempts_flaky')).toBe('3');
    expect(await players('Flaky%')).toBe(1);
    // The idempotency record was written by the attempt that committed: a retry replays it.
    const again = await t.http().post('/v1/players').set(bearer(owner)).set('Idempotency-Key', 'flaky-1').send({ name: 'Flaky Fred' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(res.body.id);
  });

  it('gives up after 5 attempts with 503 DATABASE_BUSY and Retry-After, having written nothing', async () => {
    const res = await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Doomed Dora' });
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'DATABASE_BUSY', status: 503, detail: 'Too many scorers changed this at once; try again.' });
    expect(res.headers['retry-after']).toBe('1');
    expect(await attempts('attempts_doomed')).toBe('5');
    expect(await players('Doomed%')).toBe(0);
  });
});
