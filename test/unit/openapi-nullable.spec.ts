import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The committed OpenAPI document admits the nulls the API sends: a nullable object field
 * (a game's `result` and `voided`, a cube's `pending`) is either the object or null, as a
 * strict validator reads OpenAPI 3.0 (`nullable` only widens a `type` beside it).
 */
describe('nullable objects in openapi/openapi.json', () => {
  const doc = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as { components: Record<string, unknown> };
  const ajv = new Ajv({ strict: false, logger: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const schema = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });

  it("a cube's pending offer: null or an offer, nothing else", () => {
    const cube = schema('CubeDto');
    const base = { member: null, value: 1, owner: null, status: 'in-play' };
    expect(cube({ ...base, pending: null })).toBe(true);
    expect(cube({ ...base, pending: { by: 'a', value: 2, kind: 'double' } })).toBe(true);
    expect(cube({ ...base, pending: 5 })).toBe(false);
  });

  it('no property is left as `allOf` with `nullable` (the form strict validators refuse null for)', () => {
    const found: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.nullable === true && Array.isArray(o.allOf)) found.push(path);
      for (const [k, child] of Object.entries(o)) walk(child, `${path}/${k}`);
    };
    walk(doc, '');
    expect(found).toEqual([]);
  });

  it('every nullable enum lists null among its values (else a strict validator refuses the null)', () => {
    const found: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) found.push(path);
      for (const [k, child] of Object.entries(o)) walk(child, `${path}/${k}`);
    };
    walk(doc, '');
    expect(found).toEqual([]);
  });
});
