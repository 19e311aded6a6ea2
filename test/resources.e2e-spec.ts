import { bearer, newClub, startApp, TestApp } from './support/app';

describe('clubs, players and sessions: versions, ETag, If-Match, lists', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t, 'Riverside', 'EUR'));
  });
  afterAll(() => t.close());

  it('creates a player with the defaults of R7 and an ETag', async () => {
    const res = await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Anna Schmidt', nickname: 'Annie' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Anna Schmidt', nickname: 'Annie', rating: 1500, experience: 0, version: 1 });
    expect(res.headers.etag).toBe('"1"');
    const carried = await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Ben', rating: 1723.5, experience: 412 });
    expect(carried.body).toMatchObject({ rating: 1723.5, experience: 412, nickname: null });
  });

  it('PATCHes a player with If-Match, and refuses a stale version with 412 without changing anything', async () => {
    const p = (await t.http().post('/v1/players').set(bearer(owner)).send({ name: 'Carla' })).body;
    const ok = await t.http().patch(`/v1/players/${p.id}`).set(bearer(owner)).set('if-match', '"1"').send({ nickname: 'CC' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Carla', nickname: 'CC', version: 2 });
    expect(ok.headers.etag).toBe('"2"');

    const stale = await t.http().patch(`/v1/players/${p.id}`).set(bearer(owner)).set('if-match', '"1"').send({ name: 'Karla' });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('VERSION_MISMATCH');
    const now = await t.http().get(`/v1/players/${p.id}`).set(bearer(owner));
    expect(now.body).toMatchObject({ name: 'Carla', version: 2 });
    expect(now.headers.etag).toBe('"2"');

    const cleared = await t.http().patch(`/v1/players/${p.id}`).set(bearer(owner)).send({ nickname: null });
    expect(cleared.body).toMatchObject({ nickname: null, version: 3 });
    const bad = await t.http().patch(`/v1/players/${p.id}`).set(bearer(owner)).send({ name: null });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'name' })]);
  });

  it('reads and PATCHes the club', async () => {
    const club = await t.http().get('/v1/club').set(bearer(owner));
    expect(club.body).toMatchObject({ name: 'Riverside', currency: 'EUR', timezone: 'UTC', version: 1 });
    const changed = await t.http().patch('/v1/club').set(bearer(owner)).set('if-match', '"1"').send({ timezone: 'Europe/Berlin', name: 'Riverside BG' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Riverside BG', timezone: 'Europe/Berlin', version: 2 });
    const bad = await t.http().patch('/v1/club').set(bearer(owner)).send({ timezone: 'Mars/Olympus', currency: 'XYZ1' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['currency', 'timezone']);
    expect((await t.http().get('/v1/club').set(bearer(owner))).body.version).toBe(2);
  });

  it('opens a session in the club currency with a rake, and closes it once (R6.1, R6.4, R6.7)', async () => {
    const s = await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'Tuesday', rakePercent: 2.5, startsAt: '2026-12-01T19:00:00Z' });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ name: 'Tuesday', currency: 'EUR', status: 'open', rakePercent: 2.5, startsAt: '2026-12-01T19:00:00.000Z', closedAt: null, version: 1 });
    const usd = await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'Open night', currency: 'USD' });
    expect(usd.body).toMatchObject({ currency: 'USD', rakePercent: 0 });

    const closed = await t.http().post(`/v1/sessions/${s.body.id}/close`).set(bearer(owner));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', version: 2, closedAt: expect.any(String) });
    const again = await t.http().post(`/v1/sessions/${s.body.id}/close`).set(bearer(owner));
    expect(again.body).toMatchObject({ status: 'closed', version: 2 });

    const rake = await t.http().patch(`/v1/sessions/${s.body.id}`).set(bearer(owner)).send({ rakePercent: 5 });
    expect(rake.status).toBe(422);
    expect(rake.body).toMatchObject({ code: 'SESSION_CLOSED', rule: 'R6.7' });
    const renamed = await t.http().patch(`/v1/sessions/${s.body.id}`).set(bearer(owner)).send({ name: 'Tuesday (final)' });
    expect(renamed.body).toMatchObject({ name: 'Tuesday (final)', rakePercent: 2.5, version: 3 });

    const open = await t.http().get('/v1/sessions?status=open').set(bearer(owner));
    expect(open.body.items.map((x: { id: string }) => x.id)).toEqual([usd.body.id]);
    const closedList = await t.http().get('/v1/sessions?status=closed').set(bearer(owner));
    expect(closedList.body.items.map((x: { id: string }) => x.id)).toEqual([s.body.id]);
  });

  it('refuses bad session values (400) and stores nothing', async () => {
    const before = await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM sessions');
    for (const body of [
      { name: 'x', rakePercent: 101 },
      { name: 'x', rakePercent: 2.555 },
      { name: 'x', rakePercent: '2' },
      { name: 'x', currency: 'EURO' },
      { name: 'x', startsAt: 'tomorrow' },
      { name: '' },
      {},
    ]) {
      const res = await t.http().post('/v1/sessions').set(bearer(owner)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await t.sql('SELECT count(*)::text AS n FROM sessions')).toEqual(before);
  });

  it('pages lists with keyset cursors (limit 1–200)', async () => {
    const { owner: o } = await newClub(t, 'Paging club');
    const names = ['P1', 'P2', 'P3', 'P4', 'P5'];
    for (const name of names) await t.http().post('/v1/players').set(bearer(o)).send({ name });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/players?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await t.http().get(url).set(bearer(o));
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((p: { name: string }) => p.name));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(names);
    expect(pages).toBe(3);

    const all = await t.http().get('/v1/players').set(bearer(o));
    expect(all.body).toEqual({ items: expect.any(Array), nextCursor: null });
    expect(all.body.items).toHaveLength(5);

    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'limit=2.5']) {
      const res = await t.http().get(`/v1/players?${q}`).set(bearer(o));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const bad = await t.http().get('/v1/players?cursor=bm90LWEtY3Vyc29y').set(bearer(o));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CURSOR');
  });
});
