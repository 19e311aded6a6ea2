import { request as httpRequest } from 'node:http';
import { bearer, newClub, startApp, TestApp } from './support/app';
import { recordExchange } from './support/contract';

/**
 * Validation messages and the bounds on a request body: a missing field says that it is
 * required; a body is refused before validation when one object has too many keys, an array
 * too many items or the nesting is too deep; at most 20 field errors are listed, with the count.
 */
describe('input bounds: required fields, body complexity, capped error lists', () => {
  let t: TestApp;
  let owner: string;

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t));
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown, token = owner) =>
    t
      .http()
      .post(url)
      .set(bearer(token))
      .set('content-type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const countPlayers = async () => Number((await t.sql<{ n: string }>('SELECT count(*)::text AS n FROM players'))[0].n);
  const someId = '0190c3a2-0000-7000-8000-00000000abcd';

  describe('a missing required field is reported as required', () => {
    it('POST /v1/players {} names "name" as required, in errors and in detail', async () => {
      const res = await post('/v1/players', {});
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([{ field: 'name', message: 'name is required' }]);
      expect(res.body.detail).toContain('name is required');
      expect(res.body.detail).not.toMatch(/shorter than/);
    });

    it('a void without reason says reason is required', async () => {
      const res = await post(`/v1/matches/${someId}/games/1/void`, {});
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'reason', message: 'reason is required' }]);
    });

    it('every missing field of a body is named as required (API keys, payments, clubs, sessions)', async () => {
      const key = await post('/v1/api-keys', {});
      expect(key.status).toBe(400);
      expect(key.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'name', message: 'name is required' },
          { field: 'role', message: 'role is required' },
        ]),
      );
      expect(key.body.errors).toHaveLength(2);

      const pay = await post(`/v1/sessions/${someId}/payments`, { note: 'cash' });
      expect(pay.status).toBe(400);
      expect(pay.body.errors.map((e: { message: string }) => e.message).sort()).toEqual(['amountMinor is required', 'from is required', 'to is required']);

      const club = await t.http().post('/v1/clubs').set('authorization', `Bearer ${t.adminToken}`).send({ currency: 'EUR' });
      expect(club.status).toBe(400);
      expect(club.body.errors).toEqual([{ field: 'name', message: 'name is required' }]);

      const session = await post('/v1/sessions', { rakePercent: 2 });
      expect(session.status).toBe(400);
      expect(session.body.errors).toEqual([{ field: 'name', message: 'name is required' }]);
    });

    it('a required field missing inside a nested object is named by its path', async () => {
      const res = await post('/v1/team-events', { target: 3, teams: [{ name: 'North', players: [someId] }, { players: [someId] }] });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'teams.1.name', message: 'name is required' }]);
    });

    it('a present but wrong value keeps its own message', async () => {
      const res = await post('/v1/players', { name: 'x'.repeat(101) });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'name', message: 'name must be shorter than or equal to 100 characters' }]);
    });
  });

  describe('at most 20 errors are listed, with their count', () => {
    it('30 unknown fields: 20 listed, errorCount 30, the detail says 10 more', async () => {
      const body: Record<string, unknown> = { name: 'Anna' };
      for (let i = 0; i < 30; i++) body[`extra${i}`] = i;
      const res = await post('/v1/players', body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toHaveLength(20);
      expect(res.body.errorCount).toBe(30);
      for (const e of res.body.errors) expect(e.field).toMatch(/^extra\d+$/);
      expect(res.body.detail).toMatch(/10 more/);
      expect(await countPlayers()).toBe(0);
    });

    it('a short list carries its exact count', async () => {
      const res = await post('/v1/players', { name: 'Anna', handicap: 1 });
      expect(res.body.errors).toEqual([{ field: 'handicap', message: 'unknown field handicap' }]);
      expect(res.body.errorCount).toBe(1);
    });
  });

  describe('body complexity is bounded before validation', () => {
    const fields = (n: number) => {
      const o: Record<string, number> = {};
      for (let i = 0; i < n; i++) o[`f${i}`] = i;
      return o;
    };

    it('an object with more than 256 keys is a 400 BODY_TOO_COMPLEX naming the object', async () => {
      const res = await post('/v1/players', { name: 'Anna', ...fields(300) });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('BODY_TOO_COMPLEX');
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].field).toBe('');
      expect(res.body.errors[0].message).toMatch(/256/);

      const nested = await post('/v1/matches', { target: 3, rules: fields(257) });
      expect(nested.body.code).toBe('BODY_TOO_COMPLEX');
      expect(nested.body.errors[0].field).toBe('rules');
      expect(await countPlayers()).toBe(0);
    });

    it('256 keys still reach validation (unknown fields listed, counted)', async () => {
      const res = await post('/v1/players', { name: 'Anna', ...fields(255) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errorCount).toBe(255);
      expect(res.body.errors).toHaveLength(20);
    });

    it('a whole-game batch of 500 actions still reaches validation', async () => {
      const actions = Array.from({ length: 500 }, () => ({ type: 'double', by: someId, cubes: Array.from({ length: 12 }, () => someId) }));
      const res = await post(`/v1/matches/${someId}/games`, { actions });
      expect(res.body.code).not.toBe('BODY_TOO_COMPLEX');
      // The match does not exist: validation passed and the lookup answered.
      expect(res.status).toBe(404);
    });

    it('an array longer than any route accepts is refused the same way', async () => {
      const res = await post(`/v1/matches/${someId}/games`, { actions: Array.from({ length: 5000 }, () => ({})) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BODY_TOO_COMPLEX');
      expect(res.body.errors[0].field).toBe('actions');
    });

    it('nesting deeper than 32 levels is refused with the same code', async () => {
      const deep = `{"name":${'['.repeat(40)}${']'.repeat(40)}}`;
      const res = await post('/v1/players', deep);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BODY_TOO_COMPLEX');
      expect(res.body.detail).toMatch(/32/);
    });

    it('20 bodies of 60,000 unknown fields at once: small 400s, and /health answers within 1 s meanwhile', async () => {
      const parts: string[] = [];
      for (let i = 0; i < 60_000; i++) parts.push(`"k${i}":1`);
      const big = `{${parts.join(',')}}`;
      expect(Buffer.byteLength(big)).toBeLessThan(1024 * 1024);

      const send = () =>
        new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
          const u = new URL(`${t.url}/v1/players`);
          const req = httpRequest(
            {
              host: u.hostname,
              port: u.port,
              path: u.pathname,
              method: 'POST',
              headers: { ...bearer(owner), 'content-type': 'application/json', 'content-length': Buffer.byteLength(big) },
              agent: false,
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (c: string) => (text += c));
              res.on('end', () => {
                recordExchange({ method: 'POST', url: u.pathname, status: res.statusCode ?? 0, headers: res.headers, body: text });
                resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: text });
              });
            },
          );
          req.on('error', reject);
          req.end(big);
        });

      let running = true;
      const healthTimes: number[] = [];
      const probe = (async () => {
        while (running) {
          const started = Date.now();
          const h = await t.http().get('/health').timeout(10_000);
          healthTimes.push(Date.now() - started);
          expect(h.status).toBe(200);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const answers = await Promise.all(Array.from({ length: 20 }, send));
      running = false;
      await probe;

      for (const a of answers) {
        expect(a.status).toBe(400);
        expect(a.type).toMatch(/^application\/problem\+json/);
        expect(a.body.length).toBeLessThan(4096);
        const p = JSON.parse(a.body);
        expect(p.code).toBe('BODY_TOO_COMPLEX');
        expect(p.errors.length).toBeLessThanOrEqual(20);
      }
      expect(healthTimes.length).toBeGreaterThan(0);
      expect(Math.max(...healthTimes)).toBeLessThan(1000);
    }, 120_000);
  });
});
