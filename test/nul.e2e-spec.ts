import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { bearer, newClub, startApp, TestApp } from './support/app';
import { recordRawExchange } from './support/contract';

/**
 * U+0000 cannot be stored in PostgreSQL text: wherever it comes (a body string at any
 * depth, a query parameter, a cursor, a path segment, a header) the answer is a 4xx
 * problem+json naming where it was, never a 500.
 */
type Schema = { [key: string]: any };
const DOC: Schema = JSON.parse(readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8'));
const NUL = 'a\u0000b';
const isNulMessage = (m: string) => /U\+0000|NUL/.test(m);

function deref(s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) {
    let node: any = DOC;
    for (const part of s.$ref.slice(2).split('/')) node = node[part];
    return deref(node);
  }
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map(deref), { properties: Object.assign({}, ...s.allOf.map((p: Schema) => deref(p).properties ?? {})) });
  return s;
}

/** Paths (dotted, array items as index 0) of every string field a request body schema names. */
function stringPaths(s0: Schema, prefix: string[] = [], depth = 0): string[][] {
  const s = deref(s0);
  if (depth > 5) return [];
  if (s.type === 'string') return [prefix];
  if (s.type === 'array' && s.items) return stringPaths(s.items, [...prefix, '0'], depth + 1);
  if (s.properties) return Object.entries(s.properties as Record<string, Schema>).flatMap(([k, p]) => stringPaths(p, [...prefix, k], depth + 1));
  return [];
}

function build(path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (head === '0') return [build(rest, value)];
  return { [head]: build(rest, value) };
}

interface Operation {
  method: string;
  path: string;
  params: Schema[];
  body: Schema | null;
}
const OPS: Operation[] = Object.entries(DOC.paths as Record<string, Schema>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([m]) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
    .map(([m, op]: [string, Schema]) => {
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content).find((c) => /json/.test(c));
      return { method: m.toUpperCase(), path, params: op.parameters ?? [], body: type ? content[type].schema : null };
    }),
);

describe('NUL characters anywhere in a request answer 4xx, never 500', () => {
  let t: TestApp;
  let owner: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t));
    const h = bearer(owner);
    const p = async (url: string, body: object) => {
      const res = await t.http().post(url).set(h).send(body);
      if (res.status !== 201) throw new Error(`${url}: ${res.status} ${res.text}`);
      return res.body;
    };
    const [a, b, c] = [await p('/v1/players', { name: 'Ann' }), await p('/v1/players', { name: 'Bob' }), await p('/v1/players', { name: 'Cy' })];
    ids.player = a.id;
    ids.player2 = b.id;
    ids.session = (await p('/v1/sessions', { name: 'Night' })).id;
    ids.match = (await p('/v1/matches', { sides: [[a.id], [b.id]], target: 3 })).id;
    ids.moneyGame = (await p('/v1/money-games', { sessionId: ids.session, players: [a.id, b.id], stakeMinor: 100 })).id;
    ids.chouette = (await p('/v1/chouettes', { sessionId: ids.session, stakeMinor: 100, seating: { order: [a.id, b.id, c.id] } })).id;
    await p(`/v1/matches/${ids.match}/games`, { actions: [{ type: 'finish', winner: a.id, result: 'single' }] });
    ids.apiKey = (await p('/v1/api-keys', { name: 'tablet', role: 'viewer' })).id;
  });
  afterAll(() => t.close());

  /** A real id for a path, by the resource the path names. */
  function fill(path: string): string {
    const base = path.split('/')[2];
    const own: Record<string, string> = {
      players: ids.player,
      sessions: ids.session,
      matches: ids.match,
      'money-games': ids.moneyGame,
      chouettes: ids.chouette,
      'api-keys': ids.apiKey,
      'team-events': ids.match,
    };
    return path
      .replace('{id}', own[base] ?? ids.player)
      .replace('{gameNo}', '1')
      .replace('{playerId}', ids.player2);
  }

  const send = (method: string, url: string, body?: unknown, token = owner) => {
    const r = t.http()[method.toLowerCase() as 'post'](url).set(bearer(token));
    return body === undefined ? r : r.set('content-type', 'application/json').send(JSON.stringify(body));
  };

  it('free text with NUL on the create and update routes: 400 naming the field, nothing stored', async () => {
    const cases: Array<[string, string, unknown, string[]]> = [
      ['POST', '/v1/players', { name: NUL }, ['name']],
      ['POST', '/v1/players', { name: 'Dee', nickname: NUL }, ['nickname']],
      ['PATCH', `/v1/players/${ids.player}`, { name: NUL }, ['name']],
      ['POST', '/v1/sessions', { name: NUL }, ['name']],
      ['PATCH', `/v1/sessions/${ids.session}`, { name: NUL }, ['name']],
      ['PATCH', '/v1/club', { name: NUL }, ['name']],
      ['POST', '/v1/api-keys', { name: NUL, role: 'viewer' }, ['name']],
      ['POST', `/v1/sessions/${ids.session}/payments`, { from: ids.player, to: ids.player2, amountMinor: 100, note: NUL }, ['note']],
      ['POST', `/v1/matches/${ids.match}/penalties`, { side: 0, points: 1, reason: NUL }, ['reason']],
      ['POST', `/v1/matches/${ids.match}/games/1/void`, { reason: NUL }, ['reason']],
      [
        'POST',
        '/v1/team-events',
        {
          name: NUL,
          target: 3,
          teams: [
            { name: 'N', players: [ids.player] },
            { name: `S${NUL}`, players: [ids.player2] },
          ],
        },
        ['name', 'teams.1.name'],
      ],
      [
        'POST',
        `/v1/money-games/${ids.moneyGame}/games`,
        {
          actions: [
            { type: 'double', by: ids.player },
            { type: 'take', by: ids.player2 },
            { type: 'finish', winner: ids.player },
            { type: 'finish', note: NUL },
          ],
        },
        ['actions.3.note'],
      ],
    ];
    const before = await t.sql(
      'SELECT (SELECT count(*) FROM players) AS p, (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM payments) AS pay, (SELECT count(*) FROM api_keys) AS k',
    );
    for (const [method, url, body, fields] of cases) {
      const res = await send(method, url, body);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'VALIDATION_FAILED' });
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      for (const e of res.body.errors) expect(isNulMessage(e.message)).toBe(true);
    }
    const club = await t.http().post('/v1/clubs').set('authorization', `Bearer ${t.adminToken}`).send({ name: NUL });
    expect(club.status).toBe(400);
    expect(club.body.errors).toEqual([{ field: 'name', message: expect.stringMatching(/U\+0000/) }]);
    expect(
      await t.sql('SELECT (SELECT count(*) FROM players) AS p, (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM payments) AS pay, (SELECT count(*) FROM api_keys) AS k'),
    ).toEqual(before);
  });

  it('a NUL key is refused too, named by its path', async () => {
    const res = await send('POST', '/v1/players', { name: 'Eve', [NUL]: 1 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: NUL, message: expect.stringMatching(/U\+0000/) }]);
  });

  it('every string field of every request body in the OpenAPI document: 400 naming its path', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const op of OPS.filter((o) => o.body)) {
      for (const path of stringPaths(op.body!)) {
        const url = fill(op.path);
        const res = op.path === '/v1/clubs' ? await send(op.method, url, build(path, NUL), t.adminToken) : await send(op.method, url, build(path, NUL));
        checked++;
        const field = path.join('.');
        const ok =
          res.status === 400 && res.body.code === 'VALIDATION_FAILED' && res.body.errors?.some((e: { field: string; message: string }) => e.field === field && isNulMessage(e.message));
        if (!ok) failures.push(`${op.method} ${op.path} ${field}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('every list route: a cursor holding NUL (raw or inside its key) is a 400 naming the cursor', async () => {
    const lists = OPS.filter((o) => o.method === 'GET' && o.params.some((p) => p.name === 'cursor'));
    expect(lists.length).toBeGreaterThanOrEqual(10);
    // Every key shape a cursor may have, up to three values, with NUL in each string.
    const shapes: unknown[][] = [];
    for (let n = 1; n <= 3; n++) {
      for (let mask = 0; mask < 1 << n; mask++) shapes.push(Array.from({ length: n }, (_, i) => (mask & (1 << i) ? 7 : NUL)));
    }
    const cursors = shapes.filter((s) => s.includes(NUL)).map((s) => Buffer.from(JSON.stringify(s)).toString('base64url'));
    const failures: string[] = [];
    for (const op of lists) {
      const url = fill(op.path);
      const raw = await t.http().get(`${url}?cursor=a%00b`).set(bearer(owner));
      if (!(raw.status === 400 && raw.body.errors?.some((e: { field: string }) => e.field === 'cursor'))) failures.push(`${op.path} raw: ${raw.status} ${raw.text.slice(0, 200)}`);
      for (const c of cursors) {
        const res = await t.http().get(url).query({ cursor: c }).set(bearer(owner));
        const ok = res.status === 400 && ['INVALID_CURSOR', 'VALIDATION_FAILED'].includes(res.body.code) && res.body.errors?.some((e: { field: string }) => e.field === 'cursor');
        if (!ok) failures.push(`${op.path} ${Buffer.from(c, 'base64url').toString()}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every query parameter with NUL: 400 naming it', async () => {
    const failures: string[] = [];
    for (const op of OPS.filter((o) => o.method === 'GET')) {
      for (const p of op.params.filter((x) => x.in === 'query')) {
        const res = await t
          .http()
          .get(`${fill(op.path)}?${p.name}=a%00b`)
          .set(bearer(owner));
        const ok = res.status === 400 && res.body.errors?.some((e: { field: string; message: string }) => e.field === p.name && isNulMessage(e.message));
        if (!ok) failures.push(`${op.path}?${p.name}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    // The reviewer's own: a party, a kind, a currency.
    for (const url of [`/v1/sessions/${ids.session}/ledger?party=a%00b`, `/v1/sessions/${ids.session}/ledger?kind=a%00b`, '/v1/balances?currency=a%00b']) {
      const res = await t.http().get(url).set(bearer(owner));
      if (res.status !== 400) failures.push(`${url}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('every path parameter with NUL: 4xx problem+json, never 5xx', async () => {
    const failures: string[] = [];
    for (const op of OPS.filter((o) => o.path.includes('{'))) {
      for (const name of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        const url = fill(op.path.replace(`{${name}}`, 'a%00b'));
        const res = await send(op.method, url, op.body ? {} : undefined);
        if (res.status >= 500 || res.status < 400 || !/problem\+json/.test(String(res.headers['content-type']))) failures.push(`${op.method} ${url}: ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('NUL in Idempotency-Key, If-Match or X-Request-Id headers: never 5xx', async () => {
    const raw = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const u = new URL(t.url);
        const s = connect(Number(u.port), u.hostname);
        let out = '';
        s.on('data', (d) => (out += d.toString('latin1')));
        s.on('end', () => resolve(out));
        s.on('close', () => resolve(out));
        s.on('error', reject);
        const body = '{"name":"Hank"}';
        s.write(`${head}Authorization: Bearer ${owner}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      });
    for (const header of ['Idempotency-Key: a\u0000b', 'If-Match: "1\u0000"', 'X-Request-Id: a\u0000b']) {
      const out = await raw(`POST /v1/players HTTP/1.1\r\nHost: x\r\n${header}\r\n`);
      recordRawExchange('POST', '/v1/players', out);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1]);
      expect({ header, status: status >= 400 && status < 500 }).toEqual({ header, status: true });
    }
    const names = await t.sql<{ name: string }>('SELECT name FROM players WHERE name = $1', ['Hank']);
    expect(names).toEqual([]);
  });
});
