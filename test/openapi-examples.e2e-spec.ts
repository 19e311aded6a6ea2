import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_ID } from '../src/common/example-ids';
import { bearer, newClub, startApp, TestApp } from './support/app';

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

const doc = JSON.parse(readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, MediaType> } }>>;
};

/** Every request body example the committed document shows, in its order. */
const examples = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) => {
    const m = op.requestBody?.content['application/json'];
    if (!m) return [];
    const values = [...(m.example !== undefined ? [['example', m.example] as const] : []), ...Object.entries(m.examples ?? {}).map(([name, e]) => [name, e.value] as const)];
    return values.map(([name, value]) => ({ method, path, name, value }));
  }),
);

/**
 * Every request body example of the document, sent as a client would send it, passes the
 * route's validation. In a fresh club whose players and session stand in for the example
 * ids, an example that creates something at the top of the API is accepted outright; on a
 * route under a table, session or player that does not exist, validation passes and the
 * route then answers 404 (a 400 would be the body refused).
 */
describe('the request body examples of the OpenAPI document', () => {
  let t: TestApp;
  let owner: string;
  /** Example id → the id of the club's player or session that stands for it. */
  const real = new Map<string, string>();

  beforeAll(async () => {
    t = await startApp();
    ({ owner } = await newClub(t, 'Examples club'));
    for (const [name, exampleId] of Object.entries(EXAMPLE_ID)) {
      const knockout = examples.find((e) => e.path === '/v1/tournaments' && e.name === 'knockout');
      const res =
        name === 'session'
          ? await t.http().post('/v1/sessions').set(bearer(owner)).send({ name: 'Tuesday club night', currency: 'EUR' })
          : name === 'tournament'
            ? await t
                .http()
                .post('/v1/tournaments')
                .set(bearer(owner))
                .send(withRealIds(knockout?.value) as object)
            : await t.http().post('/v1/players').set(bearer(owner)).send({ name });
      expect(res.status).toBe(201);
      real.set(exampleId, res.body.id as string);
    }
  });
  afterAll(() => t.close());

  const withRealIds = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => real.get(id) ?? id)) as unknown;

  it('there are examples to send, on every kind of write', () => {
    expect(examples.length).toBeGreaterThanOrEqual(40);
    expect(new Set(examples.map((e) => e.method))).toEqual(new Set(['post', 'patch']));
  });

  it('are each accepted by the validation of their route', async () => {
    const wrong: string[] = [];
    for (const { method, path, name, value } of examples) {
      const url = path.replace(/\{(\w+)\}/g, (_, p: string) => (p === 'gameNo' ? '1' : randomUUID()));
      const token = path === '/v1/clubs' ? t.adminToken : owner;
      const req = method === 'post' ? t.http().post(url) : t.http().patch(url);
      const res = await req.set(bearer(token)).send(withRealIds(value) as object);
      const code = (res.body as { code?: string }).code;
      const answer = `${method.toUpperCase()} ${path} ${name}: ${res.status} ${code ?? ''} ${res.status >= 400 ? res.text : ''}`;
      if (path.includes('{')) {
        if (res.status !== 404 || code !== 'NOT_FOUND') wrong.push(answer);
      } else if (path === '/v1/webhooks') {
        // The example hosts (scores.example, relay.example) are not reachable from a test.
        if (res.status !== 201 && !(res.status === 422 && /^WEBHOOK_URL_(UNRESOLVABLE|PRIVATE)$/.test(code ?? ''))) wrong.push(answer);
      } else if (res.status !== 200 && res.status !== 201) {
        wrong.push(answer);
      }
    }
    expect(wrong).toEqual([]);
  });

  /** The example `name` of `METHOD path`, with the club's ids in place of the example ids. */
  const exampleOf = (route: string, name: string): object => {
    const [method, path] = route.split(' ');
    const found = examples.find((e) => e.method === method.toLowerCase() && e.path === path && e.name === name);
    if (!found) throw new Error(`no example ${name} on ${route}`);
    return withRealIds(found.value) as object;
  };

  /** Sends the example to the route with its path parameters filled in; answers status and body. */
  const send = async (route: string, name: string, params: Record<string, string | number> = {}) => {
    const [method, path] = route.split(' ');
    const url = path.replace(/\{(\w+)\}/g, (_, p: string) => String(params[p]));
    const req = method === 'POST' ? t.http().post(url) : t.http().patch(url);
    const res = await req.set(bearer(owner)).send(exampleOf(route, name));
    return { answer: `${route} ${name}: ${res.status}${res.status >= 400 ? ` ${res.text}` : ''}`, body: res.body as Record<string, unknown> & { id: string; gameNo: number } };
  };

  it('play, on real tables, as the rules allow: a match, a money game and a chouette, with their games and actions', async () => {
    const game = (kind: string) => `/v1/${kind}/{id}/games`;

    // A match to 5: Anna doubles, Ben takes, Anna wins a gammon (2 × 2 = 4, R1.1); the
    // Crawford game (R3.4) Ben resigns a single game: 5-0, and the match is over.
    const m1 = await send('POST /v1/matches', 'backgammon');
    expect(m1.answer).toBe('POST /v1/matches backgammon: 201');
    expect((await send(`POST ${game('matches')}`, 'afterTheFact', { id: m1.body.id })).answer).toMatch(/: 201$/);
    const crawford = await send(`POST ${game('matches')}`, 'next', { id: m1.body.id });
    expect(crawford.answer).toMatch(/: 201$/);
    expect((await send(`POST ${game('matches')}/{gameNo}/actions`, 'resigned', { id: m1.body.id, gameNo: crawford.body.gameNo })).answer).toMatch(/: 200$/);
    expect((await t.http().get(`/v1/matches/${m1.body.id}`).set(bearer(owner))).body).toMatchObject({ score: [5, 0], status: 'finished' });

    // Another: a penalty point to side 1 (R3.6); Anna doubles and Ben passes (1-1), which
    // is voided (R6.3: 0-1); then Anna doubles, Ben takes, Anna wins a gammon: 4-1.
    const m2 = (await send('POST /v1/matches', 'backgammon')).body.id;
    expect((await send('POST /v1/matches/{id}/penalties', 'late', { id: m2 })).answer).toMatch(/: 201$/);
    const first = await send(`POST ${game('matches')}`, 'next', { id: m2 });
    for (const action of ['double', 'pass']) {
      expect((await send(`POST ${game('matches')}/{gameNo}/actions`, action, { id: m2, gameNo: first.body.gameNo })).answer).toMatch(/: 200$/);
    }
    expect((await send(`POST ${game('matches')}/{gameNo}/void`, 'wrongWinner', { id: m2, gameNo: first.body.gameNo })).answer).toMatch(/: 200$/);
    const second = await send(`POST ${game('matches')}`, 'next', { id: m2 });
    for (const action of ['double', 'take', 'finish']) {
      expect((await send(`POST ${game('matches')}/{gameNo}/actions`, action, { id: m2, gameNo: second.body.gameNo })).answer).toMatch(/: 200$/);
    }
    expect((await t.http().get(`/v1/matches/${m2}`).set(bearer(owner))).body).toMatchObject({ score: [4, 1], status: 'in-progress' });

    // Anna and Ben's money game, with beavers: Anna doubles, Ben beavers, Anna takes the
    // beaver (R2.4), Ben wins a backgammon.
    const money = (await send('POST /v1/money-games', 'backgammon')).body.id;
    const g1 = await send(`POST ${game('money-games')}`, 'next', { id: money });
    expect(g1.answer).toMatch(/: 201$/);
    for (const action of ['double', 'beaver', 'takeBeaver', 'finish']) {
      expect((await send(`POST ${game('money-games')}/{gameNo}/actions`, action, { id: money, gameNo: g1.body.gameNo })).answer).toMatch(/: 200$/);
    }
    // A table with one automatic double a game (R2.7): a game that opens with one, then
    // double, take and a finish, which is voided.
    const automatic = (await send('POST /v1/money-games', 'automaticDoubles')).body.id;
    const g2 = await send(`POST ${game('money-games')}`, 'automaticDouble', { id: automatic });
    expect(g2.answer).toMatch(/: 201$/);
    for (const action of ['double', 'take', 'finish']) {
      expect((await send(`POST ${game('money-games')}/{gameNo}/actions`, action, { id: automatic, gameNo: g2.body.gameNo })).answer).toMatch(/: 200$/);
    }
    expect((await send(`POST ${game('money-games')}/{gameNo}/void`, 'wrongWinner', { id: automatic, gameNo: g2.body.gameNo })).answer).toMatch(/: 200$/);

    // A chouette seated by the roll-off (Anna box, Ben captain, Carla, Dmitri): a game
    // recorded at once; Farid joins between games; the box doubles Carla and Dmitri,
    // Carla takes, Dmitri passes, the team wins; that game is voided.
    const chouette = (await send('POST /v1/chouettes', 'rollOff')).body.id;
    expect((await send(`POST ${game('chouettes')}`, 'afterTheFact', { id: chouette })).answer).toMatch(/: 201$/);
    expect((await send('POST /v1/chouettes/{id}/players', 'join', { id: chouette })).answer).toMatch(/: 201$/);
    const c2 = await send(`POST ${game('chouettes')}`, 'next', { id: chouette });
    for (const action of ['double', 'take', 'pass', 'finish']) {
      expect((await send(`POST ${game('chouettes')}/{gameNo}/actions`, action, { id: chouette, gameNo: c2.body.gameNo })).answer).toMatch(/: 200$/);
    }
    expect((await send(`POST ${game('chouettes')}/{gameNo}/void`, 'wrongWinner', { id: chouette, gameNo: c2.body.gameNo })).answer).toMatch(/: 200$/);
  });

  it('change and pay on a real session and player', async () => {
    const session = real.get(EXAMPLE_ID.session)!;
    const anna = real.get(EXAMPLE_ID.anna)!;
    for (const name of ['settle', 'rake']) expect((await send('POST /v1/sessions/{id}/payments', name, { id: session })).answer).toMatch(/: 201$/);
    for (const name of ['rake', 'later']) expect((await send('PATCH /v1/sessions/{id}', name, { id: session })).answer).toMatch(/: 200$/);
    for (const name of ['nickname', 'noNickname', 'rating']) expect((await send('PATCH /v1/players/{id}', name, { id: anna })).answer).toMatch(/: 200$/);
  });
});
