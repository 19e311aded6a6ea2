import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface MediaType {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown }>;
}

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, MediaType> } }>>;
  components: { schemas: Record<string, unknown> };
};

/** Every request body example of the document, with the schema of its media type. */
const examples = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) =>
    Object.entries(op.requestBody?.content ?? {}).flatMap(([media, m]) => [
      ...(m.example !== undefined ? [{ route: `${method.toUpperCase()} ${path}`, media, name: 'example', value: m.example, schema: m.schema }] : []),
      ...Object.entries(m.examples ?? {}).map(([name, e]) => ({ route: `${method.toUpperCase()} ${path}`, media, name, value: e.value, schema: m.schema })),
    ]),
  ),
);

/**
 * The body schemas as the API applies them: it refuses a field it does not know
 * (VALIDATION_FAILED), so every object schema with properties is closed here.
 */
function closed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(closed);
  if (!v || typeof v !== 'object') return v;
  const o = Object.fromEntries(
    Object.entries(v).map(([k, child]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(child as object).map(([p, s]) => [p, closed(s)])) : closed(child)]),
  );
  if (o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
  return o;
}

describe("the OpenAPI document's request body examples", () => {
  const ajv = new Ajv({ strict: false, logger: false, allErrors: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)));
  ajv.addSchema({ $id: 'doc', components: { schemas: closed(doc.components.schemas) } });

  it('are given for every write that takes a body, at its media type', () => {
    const writes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method, op]) => ['post', 'put', 'patch'].includes(method) && op.requestBody)
        .flatMap(([method, op]) => Object.keys(op.requestBody!.content).map((media) => `${method.toUpperCase()} ${path} ${media}`)),
    );
    expect(writes.length).toBeGreaterThanOrEqual(20);
    const shown = new Set(examples.map((e) => `${e.route} ${e.media}`));
    expect(writes.filter((w) => !shown.has(w))).toEqual([]);
  });

  it("each match the schema of the route's body, with no field the schema does not declare", () => {
    const wrong = examples.flatMap(({ route, name, value, schema }) => {
      if (!schema?.$ref) return [`${route} ${name}: the body has no schema to check against`];
      const validate = ajv.getSchema(`doc${schema.$ref}`) ?? ajv.compile({ $ref: `doc${schema.$ref}` });
      return validate(value) ? [] : [`${route} ${name}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('would notice an example that rotted (the check itself)', () => {
    const validate = ajv.compile({ $ref: 'doc#/components/schemas/ActionDto' });
    expect(validate({ type: 'double', by: '0190c3a2-0000-7000-8000-000000000001' })).toBe(true);
    expect(validate({ type: 'redouble', by: '0190c3a2-0000-7000-8000-000000000001' })).toBe(false);
    expect(validate({ type: 'double', by: 'anna' })).toBe(false);
    expect(validate({ type: 'double', player: '0190c3a2-0000-7000-8000-000000000001' })).toBe(false);
  });
});
