import fc from 'fast-check';
import { BODY_LIMITS, BodyLimits, findNul, scanJson } from '../../src/common/body-limits';

const fields = (n: number, prefix = 'f') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
const refused = (text: string, limits?: BodyLimits) => {
  const e = scanJson(text, limits);
  return e ? { code: e.code, status: e.status, field: e.extra.errors?.[0].field } : null;
};

/** The limits judged on the parsed value, the obvious way: the first container at fault, depth first. */
function reference(v: unknown, l: BodyLimits): string | null {
  let total = 0;
  const walk = (x: unknown, depth: number, path: string[]): string | null => {
    if (x === null || typeof x !== 'object') return null;
    if (depth > l.maxDepth) return `depth@${path.join('.')}`;
    const entries: Array<[string, unknown]> = Array.isArray(x) ? x.map((y, i) => [String(i), y]) : Object.entries(x);
    for (let i = 0; i < entries.length; i++) {
      total++;
      if (i + 1 > (Array.isArray(x) ? l.maxItems : l.maxKeys)) return `size@${path.join('.')}`;
      if (total > l.maxEntries) return 'total@';
      const [k, y] = entries[i];
      const r = walk(y, depth + 1, [...path, k]);
      if (r) return r;
    }
    return null;
  };
  return walk(v, 1, []);
}

describe('scanJson: body complexity judged on the text, before parsing', () => {
  it('accepts up to 256 keys in an object and refuses the 257th, naming the object', () => {
    expect(scanJson(JSON.stringify(fields(256)))).toBeNull();
    expect(refused(JSON.stringify(fields(257)))).toEqual({ code: 'BODY_TOO_COMPLEX', status: 400, field: '' });
    expect(refused(JSON.stringify({ target: 3, rules: fields(300) }))).toMatchObject({ field: 'rules' });
    expect(refused(JSON.stringify({ a: [{}, { 'we"ird,{key': fields(257) }] }))).toMatchObject({ field: 'a.1.we"ird,{key' });
  });

  it('accepts 1,000 items in an array and refuses more, naming the array', () => {
    expect(scanJson(JSON.stringify({ actions: Array(1000).fill(1) }))).toBeNull();
    expect(refused(JSON.stringify({ actions: Array(1001).fill({}) }))).toMatchObject({ field: 'actions' });
  });

  it('accepts 32 levels of nesting and refuses 33', () => {
    expect(scanJson(`${'['.repeat(32)}${']'.repeat(32)}`)).toBeNull();
    expect(refused(`${'['.repeat(33)}${']'.repeat(33)}`)).toMatchObject({ code: 'BODY_TOO_COMPLEX', field: Array(32).fill('0').join('.') });
    expect(refused(`{"name":${'['.repeat(2000)}`)).toMatchObject({ code: 'BODY_TOO_COMPLEX' });
  });

  it('counts keys and items of the whole body', () => {
    const body = { a: Array.from({ length: 50 }, () => fields(250)) };
    expect(refused(JSON.stringify(body))).toMatchObject({ code: 'BODY_TOO_COMPLEX', field: '' });
  });

  it('the largest legitimate bodies pass: 500 doubles with 12 cubes each; a full chouette', () => {
    const id = '0190c3a2-0000-7000-8000-000000000001';
    expect(scanJson(JSON.stringify({ automaticDoubles: 0, actions: Array.from({ length: 500 }, () => ({ type: 'double', by: id, cubes: Array(12).fill(id) })) }))).toBeNull();
    const seats = Array.from({ length: 12 }, (_, i) => ({ playerId: id, roll: i + 1 }));
    expect(
      scanJson(
        JSON.stringify({
          sessionId: id,
          stakeMinor: 100,
          seating: { rolls: seats },
          stakes: seats.map((s) => ({ playerId: s.playerId, stakeMinor: 5 })),
          rules: { cubes: 'single', jacoby: true },
        }),
      ),
    ).toBeNull();
  });

  it('ignores commas, braces and quotes inside strings', () => {
    const s = 'a,b,{c},[d],\\"e\\",\\\\';
    expect(scanJson(`{"x":"${s.repeat(300)}","y":["${s}"]}`)).toBeNull();
  });

  it('leaves text that is not JSON to the parser', () => {
    for (const t of ['{"a":', '"unterminated', '}}]]', 'nonsense', '']) expect(scanJson(t)).toBeNull();
  });

  it('agrees with a count on the parsed value, for any JSON (small limits)', () => {
    const limits: BodyLimits = { maxDepth: 3, maxKeys: 3, maxItems: 4, maxEntries: 12 };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const text = JSON.stringify(v);
        const ref = reference(JSON.parse(text), limits);
        const got = scanJson(text, limits);
        expect(got === null).toBe(ref === null);
        if (got && ref && !ref.startsWith('total')) expect(got.extra.errors?.[0].field).toBe(ref.slice(ref.indexOf('@') + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('has the documented limits', () => {
    expect(BODY_LIMITS).toEqual({ maxDepth: 32, maxKeys: 256, maxItems: 1000, maxEntries: 10000 });
  });
});

describe('findNul: U+0000 named by its path', () => {
  it('names every string and key holding U+0000, in document order', () => {
    const body = { name: 'a\u0000b', teams: [{ name: 'ok' }, { name: '\u0000' }], actions: [{}, {}, {}, { note: 'x\u0000' }], ['k\u0000']: 1 };
    const e = findNul(JSON.stringify(body), body);
    expect(e?.code).toBe('VALIDATION_FAILED');
    expect(e?.extra.errors?.map((x) => x.field)).toEqual(['k\u0000', 'name', 'teams.1.name', 'actions.3.note']);
    expect(e?.extra.errors?.[1].message).toBe('name must not contain the NUL character (U+0000)');
  });

  it('answers null for bodies without it (an escaped backslash followed by u0000 is not U+0000)', () => {
    const body = { note: '\\u0000' };
    expect(findNul(JSON.stringify(body), body)).toBeNull();
    expect(findNul('{"a":"b"}', { a: 'b' })).toBeNull();
  });

  it('lists at most 20 and counts them all', () => {
    const body = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, '\u0000']));
    const e = findNul(JSON.stringify(body), body)!;
    expect(e.extra.errors).toHaveLength(20);
    expect(e.extra.errorCount).toBe(30);
    expect(e.detail).toMatch(/and 10 more \(30 in all\)$/);
  });
});
