import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Operation {
  operationId?: string;
  tags?: string[];
}

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document: "METHOD /path" and its operationId. */
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, id: op.operationId })),
);

const idOf = (route: string) => operations.find((o) => o.route === route)?.id;

describe("the OpenAPI document's operations", () => {
  it('each have an operationId in lowerCamelCase (what client generators name their methods by)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(72);
    const wrong = operations.filter((o) => !/^[a-z][A-Za-z0-9]+$/.test(o.id ?? '')).map((o) => `${o.route}: ${o.id}`);
    expect(wrong).toEqual([]);
  });

  it('have operationIds that are unique', () => {
    const seen = new Map<string, string[]>();
    for (const o of operations) seen.set(o.id ?? '', [...(seen.get(o.id ?? '') ?? []), o.route]);
    expect([...seen].filter(([, routes]) => routes.length > 1)).toEqual([]);
  });

  it('start with a verb and name the resource, the same way across the three kinds of table', () => {
    expect(operations.filter((o) => !/^(get|list|create|update|delete|revoke|record|start|undo|void|abandon|join|leave|close|award|export|stream|test)[A-Z]/.test(o.id ?? ''))).toEqual([]);
    expect(idOf('POST /v1/clubs')).toBe('createClub');
    expect(idOf('GET /v1/players')).toBe('listPlayers');
    expect(idOf('GET /v1/players/{id}')).toBe('getPlayer');
    expect(idOf('PATCH /v1/players/{id}')).toBe('updatePlayer');
    expect(idOf('POST /v1/api-keys')).toBe('createApiKey');
    expect(idOf('DELETE /v1/api-keys/{id}')).toBe('revokeApiKey');
    expect(idOf('GET /v1/sessions/{id}/settlement')).toBe('getSessionStatement');
    expect(idOf('GET /v1/events')).toBe('listEvents');
    expect(idOf('GET /v1/events/stream')).toBe('streamEvents');
    expect(idOf('GET /health')).toBe('getHealth');
    expect(idOf('POST /v1/chouettes/{id}/games')).toBe('startChouetteGame');
    expect(idOf('POST /v1/matches/{id}/games/{gameNo}/actions')).toBe('recordMatchGameAction');
    expect(idOf('POST /v1/money-games/{id}/games/{gameNo}/actions')).toBe('recordMoneyTableGameAction');
    expect(idOf('POST /v1/chouettes/{id}/games/{gameNo}/actions')).toBe('recordChouetteGameAction');
  });
});

describe("the OpenAPI document's bearer scheme", () => {
  it('is HTTP bearer without a JWT label: a key (bgk_…) and the operator token are opaque', () => {
    const bearer = doc.components.securitySchemes.bearer;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer.bearerFormat).toBeUndefined();
    expect(bearer.description).toMatch(/bgk_/);
  });
});
