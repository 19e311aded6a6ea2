/**
 * Fuzzing every operation of the committed OpenAPI document (openapi/openapi.json).
 *
 * The request generators are fast-check arbitraries built at run time from the document
 * itself: parameters, request bodies ($ref, allOf, nullable, enum, minimum/maximum,
 * minLength/maxLength, formats, arrays, required) and the media types each operation answers.
 * Every operation gets three flavours of request:
 *   - valid: conforming to the schemas (ids drawn from a pool of real ids);
 *   - nearly valid: a valid request with exactly one thing wrong (a field's type or range,
 *     a missing required field, an unknown field, null, a bad path or query parameter, a header);
 *   - hostile: extreme numbers, long and odd unicode strings, huge arrays, deep nesting,
 *     prototype keys, bodies that are not objects or not JSON, wrong content types, odd headers.
 *
 * Whatever the request, the app must never answer 5xx, every error must be a complete
 * application/problem+json document without internals, and a request naming the other
 * club's ids must not succeed with them (no id of the other club in a 2xx answer to it).
 * All failures are collected and reported together (and written to a JSON file in the
 * system's temporary directory).
 *
 * FUZZ_SEED=<seed> reproduces the generated requests (the seed is in the test name and in
 * every failure); FUZZ_RUNS sets the requests per operation and flavour (default 8);
 * FUZZ_CONCURRENCY=1 also replays them in order.
 */
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, ClientRequest, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, startApp, TestApp } from './support/app';
import { recordExchange } from './support/contract';

const SEED = process.env.FUZZ_SEED !== undefined && process.env.FUZZ_SEED !== '' ? Number(process.env.FUZZ_SEED) | 0 : 1_2026_1201;
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 8) | 0);
/** FUZZ_CONCURRENCY=1 replays a run in order (ids are drawn from pools that grow as answers come in). */
const CONCURRENCY = Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 8) | 0);
const REQUEST_TIMEOUT_MS = 20_000;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// ---------------------------------------------------------------------------------------------
// The document

type Schema = { [key: string]: any };
const DOC: Schema = JSON.parse(readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8'));

function pointer(ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node: any = DOC;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`dangling $ref ${ref}`);
  return node;
}

/** A schema with `$ref` followed and `allOf` merged (siblings such as `description` kept). */
function deref(s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) {
    const { $ref, ...rest } = s;
    return deref({ ...pointer($ref), ...rest });
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    const parts = (allOf as Schema[]).map(deref);
    const merged: Schema = {};
    for (const p of [...parts, rest]) {
      Object.assign(merged, { ...p, properties: { ...merged.properties, ...p.properties } });
      if (p.required) merged.required = [...new Set([...(merged.required ?? []), ...p.required])];
    }
    if (!Object.keys(merged.properties).length) delete merged.properties;
    return merged;
  }
  return s;
}

const isObjectSchema = (s: Schema) => s.type === 'object' || (s.type === undefined && s.properties !== undefined);

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

interface Op {
  key: string;
  method: string;
  path: string;
  params: Param[];
  body: Schema | null;
  secured: boolean;
  statuses: Set<number>;
  /** Media types of the success answer, for Accept. */
  produces: string[];
}

const OPS: Op[] = Object.entries(DOC.paths as Record<string, Schema>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]): Op => {
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => {
        const q = p.$ref ? pointer(p.$ref) : p;
        return { name: q.name, in: q.in, required: Boolean(q.required), schema: { ...deref(q.schema), description: q.description ?? q.schema?.description } };
      });
      const content = op.requestBody?.content ?? {};
      const bodyType = Object.keys(content).find((t) => /json/.test(t));
      const ok = Object.keys(op.responses).find((s) => s.startsWith('2'));
      const security = op.security ?? DOC.security ?? [];
      return {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params,
        body: bodyType ? deref(content[bodyType].schema) : null,
        secured: security.length > 0,
        statuses: new Set(Object.keys(op.responses).map(Number)),
        produces: ok ? Object.keys(op.responses[ok].content ?? {}) : [],
      };
    }),
);

// ---------------------------------------------------------------------------------------------
// Placeholders: resolved when the request is sent, against ids known at that moment

type Kind = 'players' | 'sessions' | 'matches' | 'money-games' | 'chouettes' | 'api-keys';
const KINDS: Kind[] = ['players', 'sessions', 'matches', 'money-games', 'chouettes', 'api-keys'];
const TABLES: Kind[] = ['matches', 'money-games', 'chouettes'];
type Origin = 'own' | 'other' | 'cross';
type Form = 'plain' | 'upper' | 'braces' | 'nodash' | 'suffix' | 'urn' | 'spaced';

/** A real id: of this club (own), of the other club (other), or of this club but of another kind (cross). */
class Ref {
  constructor(
    readonly kind: Kind,
    readonly origin: Origin,
    readonly n: number,
    readonly form: Form = 'plain',
  ) {}
  toString() {
    return `<${this.origin} ${this.kind} #${this.n}${this.form === 'plain' ? '' : ` ${this.form}`}>`;
  }
}
/** A game number of the table named in the same path (n picks among the known ones and the next). */
class GameRef {
  constructor(readonly n: number) {}
}
/** A `nextCursor` some list answered earlier. */
class CursorRef {
  constructor(readonly n: number) {}
}
/** Text inserted as it is: a JSON token (`-0`, `1e400`), a JSON fragment, a path segment or a query fragment. */
class Raw {
  constructor(readonly text: string) {}
}
/** A JSON object written pair by pair: duplicate keys and `__proto__` as a plain key. */
class Pairs {
  constructor(readonly pairs: Array<[string, unknown]>) {}
}

const isPlaceholder = (v: unknown) => v instanceof Ref || v instanceof GameRef || v instanceof CursorRef || v instanceof Raw || v instanceof Pairs;

interface Pools {
  own: Record<Kind, string[]>;
  other: Record<Kind, string[]>;
  games: Map<string, number[]>;
  cursors: string[];
}

const emptyKinds = (): Record<Kind, string[]> => Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Record<Kind, string[]>;

/** Deterministic UUID-shaped text from a number (for empty pools). */
function fakeUuid(n: number): string {
  const h = (n >>> 0).toString(16).padStart(8, '0');
  return `${h}-dead-4bee-8f00-${h}0000`.slice(0, 36);
}

/** Resolves the placeholders of one request and notes whether it used the other club's ids. */
class Resolver {
  usedOther = false;
  usedOwn = false;
  table: string | null = null;
  constructor(private readonly pools: Pools) {}

  id(ref: Ref): string {
    let kind = ref.kind;
    if (ref.origin === 'cross') kind = KINDS[(KINDS.indexOf(kind) + 1 + (ref.n % (KINDS.length - 1))) % KINDS.length];
    const list = ref.origin === 'other' ? this.pools.other[kind] : this.pools.own[kind];
    if (ref.origin === 'other' && list.length) this.usedOther = true;
    if (ref.origin !== 'other' && list.length) this.usedOwn = true;
    const id = list.length ? list[ref.n % list.length] : fakeUuid(ref.n);
    switch (ref.form) {
      case 'upper':
        return id.toUpperCase();
      case 'braces':
        return `{${id}}`;
      case 'nodash':
        return id.replace(/-/g, '');
      case 'suffix':
        return `${id}x`;
      case 'urn':
        return `urn:uuid:${id}`;
      case 'spaced':
        return ` ${id} `;
      default:
        return id;
    }
  }

  gameNo(ref: GameRef): number {
    const known = (this.table && this.pools.games.get(this.table)) || [];
    if (!known.length) return (ref.n % 4) + 1;
    const i = ref.n % (known.length + 1);
    return i < known.length ? known[i] : Math.max(...known) + 1;
  }

  cursor(ref: CursorRef): string {
    const c = this.pools.cursors;
    return c.length ? c[ref.n % c.length] : Buffer.from(JSON.stringify([fakeUuid(ref.n)])).toString('base64url');
  }

  /** The value as text (path segments, query values). */
  text(v: unknown): string {
    if (v instanceof Ref) return this.id(v);
    if (v instanceof GameRef) return String(this.gameNo(v));
    if (v instanceof CursorRef) return this.cursor(v);
    if (v instanceof Raw) return v.text;
    if (typeof v === 'string') return v;
    if (v === undefined) return '';
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
    return this.json(v);
  }

  /** The value as JSON text; own `__proto__` keys, Raw tokens and Pairs are written as they are. */
  json(v: unknown): string {
    if (v instanceof Raw) return v.text;
    if (v instanceof Ref || v instanceof CursorRef) return JSON.stringify(this.text(v));
    if (v instanceof GameRef) return String(this.gameNo(v));
    if (v instanceof Pairs) return `{${v.pairs.map(([k, x]) => `${JSON.stringify(k)}:${this.json(x)}`).join(',')}}`;
    if (v === undefined) return 'null';
    if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map((x) => this.json(x)).join(',')}]`;
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${this.json(o[k])}`)
        .join(',')}}`;
    }
    return 'null';
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

type Flavour = 'valid' | 'nearly' | 'hostile';
type Auth = 'owner' | 'scorer' | 'viewer' | 'operator' | 'none' | 'revoked' | 'otherOwner' | 'garbage' | 'basic' | 'lowercase' | 'empty' | 'schemeless' | 'trailing' | 'long';

interface Spec {
  op: Op;
  flavour: Flavour;
  note: string;
  auth: Auth;
  path: Record<string, unknown>;
  /** [name, value] pairs (repeats allowed) or raw fragments. */
  query: Array<[string, unknown] | Raw>;
  headers: Record<string, string>;
  /** `value` is written as JSON; `text` as it is; no body when absent. */
  body?: { value: unknown } | { text: string };
  /** undefined: application/json when there is a body; null: no Content-Type header. */
  contentType?: string | null;
}

/** Deep copy of plain data; placeholders are immutable and shared. */
function clone<T>(v: T): T {
  if (v === null || typeof v !== 'object' || isPlaceholder(v)) return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: clone((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out as T;
}

function cloneSpec(s: Spec): Spec {
  return { ...s, path: { ...s.path }, query: [...s.query], headers: { ...s.headers }, body: s.body && 'value' in s.body ? { value: clone(s.body.value) } : s.body };
}

/** Sets (or with `undefined`, deletes) the value at `path`, making missing containers on the way. */
function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  let container: any = root;
  if (typeof head === 'number') {
    if (!Array.isArray(container)) container = [];
  } else if (container === null || typeof container !== 'object' || Array.isArray(container) || isPlaceholder(container)) {
    container = {};
  }
  const next = setAt(container[head], rest, value);
  if (next === undefined && !rest.length) {
    if (Array.isArray(container)) container.splice(head as number, 1);
    else delete container[head];
  } else {
    Object.defineProperty(container, head, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return container;
}

// ---------------------------------------------------------------------------------------------
// Value generators

const CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'BHD', 'SEK'];
const TIMEZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe', 'Etc/GMT+12'];
const PLAYER_FIELDS = new Set(['players', 'order', 'shuffle', 'cube', 'cubes', 'by', 'winner', 'playerId']);

interface Hint {
  id?: Kind;
  house?: boolean;
  date?: 'instant' | 'day';
  currency?: boolean;
  timezone?: boolean;
  cursor?: boolean;
}

/** What a string field holds, from its name, format and description in the document. */
function hintFor(name: string, s: Schema): Hint {
  const d = String(s.description ?? '');
  if (name === 'cursor') return { cursor: true };
  if (s.format === 'date-time') return { date: 'instant' };
  if (/YYYY-MM-DD/.test(d)) return { date: 'day' };
  if (/ISO 4217/.test(d) || name === 'currency') return { currency: true };
  if (/IANA/.test(d) || name === 'timezone') return { timezone: true };
  const named = /^(\w+)Id$/.exec(name);
  const kind = named && `${named[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}s`;
  if (kind && KINDS.includes(kind as Kind)) return { id: kind as Kind, house: /"house"/.test(d) };
  if (s.format === 'uuid' || /player id/i.test(d) || PLAYER_FIELDS.has(name)) return { id: 'players', house: /"house"/.test(d) };
  return {};
}

/** The kind of id a path parameter names: the collection segment before it. */
function pathKind(path: string, param: string): Kind | null {
  if (param === 'playerId') return 'players';
  const segs = path.split('/');
  const at = segs.indexOf(`{${param}}`);
  const coll = segs[at - 1] as Kind;
  return KINDS.includes(coll) ? coll : null;
}

const refArb = (kind: Kind, origin: Origin, form: Form = 'plain') => fc.nat().map((n) => new Ref(kind, origin, n, form));

function idValid(kind: Kind, house = false): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 14, arbitrary: refArb(kind, 'own') },
    { weight: 2, arbitrary: refArb(kind, 'other') },
    { weight: 1, arbitrary: refArb(kind, 'cross') },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: house ? 3 : 0, arbitrary: fc.constant('house') },
  );
}

const instantArb = fc
  .tuple(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }), fc.constantFrom('Z', '+02:00', '-05:30', '.123Z'))
  .map(([d, zone]) => d.toISOString().replace(/\.\d{3}Z$/, zone === '.123Z' ? '.123Z' : zone));
const dayArb = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

function intValid(min?: number, max?: number): fc.Arbitrary<number> {
  const lo = min ?? -MAX_SAFE;
  const hi = max ?? MAX_SAFE;
  const base = Math.min(Math.max(0, lo), hi);
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: Math.max(lo, base - 3), max: Math.min(hi, base + 20) }) },
    { weight: 1, arbitrary: fc.constantFrom(...[min, max].filter((x): x is number => x !== undefined), base) },
    { weight: 1, arbitrary: fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number) },
  );
}

function numValid(min?: number, max?: number): fc.Arbitrary<number> {
  const lo = min ?? -1e6;
  const hi = max ?? 1e6;
  return fc.oneof(
    { weight: 4, arbitrary: intValid(min, max) },
    { weight: 3, arbitrary: fc.integer({ min: Math.ceil(lo * 100), max: Math.floor(hi * 100) }).map((x) => x / 100) },
    { weight: 1, arbitrary: fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)) },
  );
}

function textValid(min: number, max: number): fc.Arbitrary<string> {
  const cap = Math.max(min, Math.min(max, 40));
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme-ascii' }) },
      { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme' }) },
      { weight: 1, arbitrary: fc.constantFrom('x'.repeat(Math.max(min, Math.min(max, 10_000))), 'é'.repeat(Math.max(min, Math.min(max, 10_000)))) },
    )
    .filter((s) => s.length >= min && s.length <= max);
}

/** A value conforming to the schema; `name` is the property (or parameter) it is for. */
function validValue(s0: Schema, name: string, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(s0);
  let arb = baseValid(s, name, depth);
  const known = [s.example, s.default].filter((x) => x !== undefined && x !== null && typeof x !== 'object');
  if (known.length && !s.enum && !hintFor(name, s).id) arb = fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: fc.constantFrom(...known) });
  if (s.nullable) arb = fc.option(arb, { nil: null, freq: 6 });
  return arb;
}

function baseValid(s: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string': {
      const h = hintFor(name, s);
      if (h.cursor) return fc.nat().map((n) => new CursorRef(n));
      if (h.id) return idValid(h.id, h.house);
      if (h.date === 'instant') return instantArb;
      if (h.date === 'day') return fc.oneof(dayArb, instantArb);
      if (h.currency) return fc.constantFrom(...CURRENCIES);
      if (h.timezone) return fc.constantFrom(...TIMEZONES);
      if (s.format === 'uuid') return fc.uuid();
      return textValid(s.minLength ?? 0, s.maxLength ?? 40);
    }
    case 'integer':
      return intValid(s.minimum, s.maximum);
    case 'number':
      return numValid(s.minimum, s.maximum);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = s.items ? validValue(s.items, name, depth + 1) : fc.string({ maxLength: 5 });
      const minLength = s.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: s.maxItems ?? Math.max(minLength, 6) });
    }
    default:
      if (isObjectSchema(s)) return objectValid(s, depth);
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValid(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
  if (!props.length) {
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), validValue(s.additionalProperties, '', depth + 1), { maxKeys: 3 });
    }
    return fc.constant({});
  }
  const model = Object.fromEntries(props.map(([k, p]) => [k, validValue(p, k, depth + 1)]));
  return fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
}

// -- hostile values ---------------------------------------------------------------------------

const HUGE = {
  ascii: 'x'.repeat(100_000),
  accents: 'é'.repeat(50_000),
  emoji: '👍'.repeat(25_000),
  zeroWidth: '\u200b'.repeat(30_000),
  nul: '\u0000'.repeat(20_000),
};

const HOSTILE_STRINGS = [
  '',
  ' ',
  '   ',
  '\t',
  '\n',
  '\r\n',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  '0',
  '-0',
  '1e308',
  '[]',
  '{}',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31mred\u001b[0m',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\udc00\ud800',
  'a\ufffeb\uffff',
  'שלום עולם',
  'مرحبا بالعالم',
  '\u202eevil\u202c',
  '\u200b\u200c\u200d\u2060\ufeff',
  'e\u0301'.repeat(60),
  'Z\u0351\u0362\u0335\u0324\u034e',
  '👨‍👩‍👧‍👦',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\u2028\u2029',
  'ｆｕｌｌｗｉｄｔｈ',
  '１２３',
  '١٢٣',
  'İı',
  'ß'.repeat(100),
  '🇩🇪🏳️‍🌈',
  "'; DROP TABLE players; --",
  "' OR '1'='1",
  '" OR ""="',
  '%00',
  '../../../etc/passwd',
  '..\\..\\windows',
  '<script>alert(1)</script>',
  '${jndi:ldap://example.invalid/a}',
  '{{7*7}}',
  '%s%s%s%n',
  '\\',
  '"',
  "'",
  '`',
  '$(reboot)',
  'house',
  'HOUSE',
  ' house',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'x'.repeat(101),
  'x'.repeat(256),
  'x'.repeat(501),
  'x'.repeat(10_000),
];
const BIG_STRINGS = Object.values(HUGE);

const HOSTILE_NUMBERS: unknown[] = [
  1e308,
  -1e308,
  new Raw('-0'),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  2 ** 64,
  -(2 ** 63),
  new Raw('18446744073709551616'),
  new Raw('123456789012345678901234567890'),
  new Raw('1e400'),
  new Raw('-1e400'),
  new Raw('1.0'),
  new Raw('1E2'),
  new Raw('1e-400'),
  new Raw('0.0000000000000000000001'),
  5e-324,
  0.1,
  0.30000000000000004,
  -1,
  0,
  1,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 32,
  MAX_SAFE,
  -MAX_SAFE,
  'NaN',
  'Infinity',
  '-Infinity',
  '1',
  '0x10',
  '',
  ' 1',
  '1e3',
  '١',
];

const loneSurrogateUnit = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('a', 'é', '\u202e', '\u200b', '\u0000', '😀'),
);

const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

const hostileString: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 2, arbitrary: fc.string({ unit: loneSurrogateUnit, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BIG_STRINGS) },
);

const HOSTILE_IDS = [
  '',
  ' ',
  'not-a-uuid',
  '123',
  '0',
  '-1',
  'null',
  'undefined',
  'house',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-00000000000g',
  '0190c3a2-0000-7000-8000-000000000001',
  'x'.repeat(101),
  'x'.repeat(2_000),
  'é',
  'ünïcödé',
  '👍',
  '\u202e',
  '\u200b',
  '\u0000',
  '../',
  '../../v1/club',
  '..',
  '.',
  '%00',
  '%',
  "'; DROP TABLE players; --",
  '\ud800',
  'a/b',
  'a?b',
  'a#b',
  'a;b',
  '*',
];

const HOSTILE_SEGMENTS = ['%00', '%', '%zz', '%FF', '%C0%AF', '%ED%A0%80', '..', '.', '..%2F..%2Fclub', '%2e%2e', 'a%2Fb', '%E2%80%AE', '%F0%9F%91%8D', '%20', '+', '~', '%25', '%u0041'];

function hostileId(kind: Kind): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 24, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
    { weight: 12, arbitrary: fc.tuple(fc.nat(), fc.constantFrom<Form>('upper', 'braces', 'nodash', 'suffix', 'urn', 'spaced')).map(([n, form]) => new Ref(kind, 'own', n, form)) },
    { weight: 8, arbitrary: refArb(kind, 'other') },
    { weight: 4, arbitrary: refArb(kind, 'cross') },
    { weight: 8, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 4, arbitrary: fc.uuid() },
    // Longer than the 16 KiB Node allows for a whole request head.
    { weight: 1, arbitrary: fc.constant('x'.repeat(20_000)) },
  );
}

const hostileGeneric: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [[]], [null], [{}], { '': '' }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(new Pairs([['__proto__', { polluted: true }]]), new Pairs([['constructor', { prototype: { polluted: true } }]])) },
);

const deepRaw = (depth: number, kind: 'object' | 'array') => new Raw(kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`);
const deepArb = fc.tuple(fc.constantFrom(64, 1_000, 5_000, 20_000), fc.constantFrom<'object' | 'array'>('object', 'array')).map(([d, k]) => deepRaw(d, k));
const hugeArrayArb = fc
  .tuple(fc.constantFrom(10_000, 50_000, 100_000), fc.constantFrom('"x"', '1', 'null', '{}', '"00000000-0000-0000-0000-000000000000"'))
  .map(([n, item]) => new Raw(`[${new Array(Math.min(n, Math.floor(900_000 / (item.length + 1)))).fill(item).join(',')}]`));

/** A hostile value for a field of this schema. */
function hostileFor(s0: Schema, name: string, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(s0);
  const h = hintFor(name, s);
  let own: fc.Arbitrary<unknown>;
  switch (s.type) {
    case 'integer':
    case 'number':
      own = hostileNumber;
      break;
    case 'string':
      own = h.id ? fc.oneof(hostileId(h.id), hostileString) : hostileString;
      break;
    case 'boolean':
      own = fc.constantFrom<unknown>('true', 'false', 1, 0, '', 'yes', [true]);
      break;
    case 'array':
      own = fc.oneof(
        hugeArrayArb,
        fc.array(s.items && depth < 3 ? hostileFor(s.items, name, depth + 1) : hostileGeneric, { maxLength: 8 }),
        fc.array(fc.array(hostileGeneric, { maxLength: 3 }), { maxLength: 3 }),
        fc.array(s.items ? validValue(s.items, name, depth + 1) : hostileGeneric, { minLength: 13, maxLength: 60 }),
      );
      break;
    default:
      own = isObjectSchema(s) && depth < 3 ? fc.oneof(hostileObject(s, depth + 1), deepArb) : deepArb;
  }
  return fc.oneof({ weight: 3, arbitrary: own }, { weight: 1, arbitrary: hostileGeneric });
}

/** An object whose fields are each valid or hostile, with sometimes hostile extra keys. */
function hostileObject(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
  const model = Object.fromEntries(props.map(([k, p]) => [k, fc.oneof({ weight: 1, arbitrary: validValue(p, k, depth + 1) }, { weight: 2, arbitrary: hostileFor(p, k, depth) })]));
  const extraKey = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', 'id', 'clubId', 'version', 'role', '\u0000', '\ud800', 'x'.repeat(1_000)),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  return fc
    .tuple(fc.record(model, { requiredKeys: [] } as any), fc.array(fc.tuple(extraKey, hostileGeneric), { maxLength: 2 }))
    .map(([base, extras]) => (extras.length ? new Pairs([...extras, ...Object.entries(base as object)]) : base));
}

// ---------------------------------------------------------------------------------------------
// Request generators per operation and flavour

const header = (op: Op, name: string) => op.params.some((p) => p.in === 'header' && p.name.toLowerCase() === name.toLowerCase());
const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);
const tokenChars = fc.string({ minLength: 1, maxLength: 64, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:~'.split('')) });

function validAuth(op: Op): fc.Arbitrary<Auth> {
  if (op.path === '/v1/clubs') return fc.constant<Auth>('operator');
  if (!op.secured) return fc.constant<Auth>('none');
  return fc.oneof({ weight: 12, arbitrary: fc.constant<Auth>('owner') }, { weight: 2, arbitrary: fc.constant<Auth>('scorer') }, { weight: 1, arbitrary: fc.constant<Auth>('viewer') });
}

function validPathValue(op: Op, p: Param): fc.Arbitrary<unknown> {
  if (p.name === 'gameNo') return fc.oneof({ weight: 5, arbitrary: fc.nat().map((n) => new GameRef(n)) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }) });
  const kind = pathKind(op.path, p.name);
  return kind ? idValid(kind) : validValue(p.schema, p.name);
}

function validQuery(op: Op): fc.Arbitrary<Array<[string, unknown]>> {
  const qs = op.params.filter((p) => p.in === 'query');
  if (!qs.length) return fc.constant([]);
  const pick = (p: Param) => (p.name === 'limit' ? fc.oneof(fc.integer({ min: 1, max: 3 }), validValue(p.schema, p.name)) : validValue(p.schema, p.name));
  return fc
    .tuple(
      ...qs.map((p) =>
        fc.option(
          pick(p).map((v) => [p.name, v] as [string, unknown]),
          { nil: undefined, freq: 2 },
        ),
      ),
    )
    .map((xs) => xs.filter((x): x is [string, unknown] => x !== undefined));
}

function validHeaders(op: Op): fc.Arbitrary<Record<string, string>> {
  const idem = header(op, 'Idempotency-Key')
    ? fc.option(fc.oneof(fc.uuid(), fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3'), tokenChars), { nil: undefined, freq: 2 })
    : fc.constant(undefined);
  const ifMatch = header(op, 'If-Match')
    ? fc.option(
        fc.oneof(
          fc.integer({ min: 0, max: 12 }).map((n) => `"${n}"`),
          fc.constant('*'),
        ),
        { nil: undefined, freq: 3 },
      )
    : fc.constant(undefined);
  const accept = fc.option(fc.constantFrom(...op.produces, '*/*', 'application/json, */*;q=0.1', 'application/*'), { nil: undefined, freq: 3 });
  return fc.record({ idem, ifMatch, accept }).map(({ idem: i, ifMatch: m, accept: a }) => {
    const h: Record<string, string> = {};
    if (i !== undefined) h['idempotency-key'] = i;
    if (m !== undefined) h['if-match'] = m;
    if (a !== undefined) h.accept = a;
    return h;
  });
}

function validSpec(op: Op): fc.Arbitrary<Spec> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  return fc
    .record({
      auth: validAuth(op),
      path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, validPathValue(op, p)]))),
      query: validQuery(op),
      headers: validHeaders(op),
      body: op.body ? validValue(op.body, '').map((value) => ({ value })) : fc.constant(undefined),
    })
    .map((r) => ({ op, flavour: 'valid' as const, note: '', auth: r.auth, path: r.path, query: r.query, headers: r.headers, body: r.body }));
}

// -- nearly valid: exactly one thing wrong -----------------------------------------------------

interface Mutation {
  label: string;
  apply: (s: Spec) => void;
}

const show = (v: unknown): string => {
  if (v instanceof Raw) return v.text.length > 40 ? `${v.text.slice(0, 40)}…` : v.text;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a label in a failure message (only a Ref names itself)
  if (isPlaceholder(v)) return String(v);
  const j = JSON.stringify(v) ?? String(v);
  return j.length > 40 ? `${j.slice(0, 40)}…(${j.length})` : j;
};

function wrongTypes(s: Schema): unknown[] {
  const all: Record<string, unknown[]> = {
    string: [42, true, ['a'], { a: 1 }],
    integer: ['1', true, [1], { n: 1 }, '', 1.5],
    number: ['1.5', true, [1], {}, ''],
    boolean: ['true', 1, 0, [], 'false'],
    array: ['a', { 0: 'a' }, 1, true],
    object: ['a', [], 1, true],
  };
  return all[s.type ?? (isObjectSchema(s) ? 'object' : 'string')] ?? all.string;
}

function outOfRange(s: Schema, name: string): fc.Arbitrary<unknown> | null {
  const h = hintFor(name, s);
  const vals: unknown[] = [];
  if (Array.isArray(s.enum)) {
    if (typeof s.enum[0] === 'number') vals.push(Math.max(...s.enum) + 1, Math.min(...s.enum) - 1, String(s.enum[0]));
    else vals.push('bogus', String(s.enum[0]).toUpperCase(), ` ${s.enum[0]}`, `${s.enum[0]}\u0000`);
  } else if (s.type === 'integer' || s.type === 'number') {
    if (s.minimum !== undefined) vals.push(s.minimum - 1, s.minimum - 0.5);
    if (s.maximum !== undefined) vals.push(s.maximum + 1, s.maximum + 0.25);
    if (s.type === 'integer') vals.push(2.5, 2 ** 53, -(2 ** 53));
    else vals.push(0.001, 12.345);
  } else if (s.type === 'string') {
    if (s.maxLength !== undefined) vals.push('x'.repeat(s.maxLength + 1), '😀'.repeat(Math.ceil((s.maxLength + 1) / 2)));
    if (s.minLength) vals.push('');
    if (h.id) {
      vals.push('not-a-uuid', '00000000-0000-0000-0000-000000000000', h.house ? 'House' : 'house');
      return fc.oneof(
        fc.constantFrom(...vals),
        fc.tuple(fc.nat(), fc.constantFrom<Form>('upper', 'braces', 'nodash', 'suffix')).map(([n, f]) => new Ref(h.id!, 'own', n, f)),
        refArb(h.id, 'cross'),
      );
    }
    if (h.date) vals.push('2026-02-30T25:61:00Z', 'yesterday', '2026-11-01T20:00:00', '2026-13-01', '0000-00-00', '+275760-09-13T00:00:00.001Z', '1970-01-01T00:00:00Z');
    if (h.currency) vals.push('usd', 'XXX', 'EURO', '€', 'US');
    if (h.timezone) vals.push('Mars/Olympus', 'utc+1', 'Europe/berlin', '../../etc/localtime');
    if (h.cursor)
      vals.push(
        'garbage',
        Buffer.from('[1]').toString('base64url'),
        Buffer.from('{"a":1}').toString('base64url'),
        Buffer.from('["a","b"]').toString('base64url'),
        Buffer.from('not json').toString('base64url'),
      );
  } else if (s.type === 'array') {
    const item = s.items ? validValue(s.items, name) : fc.constant('x');
    const arbs: fc.Arbitrary<unknown>[] = [];
    if (s.maxItems !== undefined) arbs.push(fc.array(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 3 }));
    if (s.minItems) arbs.push(fc.array(item, { minLength: 0, maxLength: s.minItems - 1 }));
    arbs.push(item.map((x) => [x, x]));
    return fc.oneof(...arbs);
  }
  return vals.length ? fc.constantFrom(...vals) : null;
}

interface Site {
  label: string;
  path: Array<string | number>;
  name: string;
  schema: Schema;
  required: boolean;
}

function bodySites(s0: Schema, prefix: Array<string | number> = [], depth = 0): Site[] {
  const s = deref(s0);
  const out: Site[] = [];
  for (const [k, p0] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const p = deref(p0);
    const here = [...prefix, k];
    out.push({ label: here.join('.'), path: here, name: k, schema: p, required: (s.required ?? []).includes(k) });
    if (depth >= 3) continue;
    if (isObjectSchema(p)) out.push(...bodySites(p, here, depth + 1));
    if (p.type === 'array' && p.items) {
      const item = deref(p.items);
      out.push({ label: `${here.join('.')}[0]`, path: [...here, 0], name: k, schema: item, required: false });
      if (isObjectSchema(item)) out.push(...bodySites(item, [...here, 0], depth + 1));
      if (item.type === 'array' && item.items) out.push({ label: `${here.join('.')}[0][0]`, path: [...here, 0, 0], name: k, schema: deref(item.items), required: false });
    }
  }
  return out;
}

const setBody = (s: Spec, path: Array<string | number>, v: unknown) => {
  const root = s.body && 'value' in s.body ? s.body.value : {};
  s.body = { value: setAt(root, path, v) };
};

function bodyMutations(op: Op): fc.Arbitrary<Mutation>[] {
  if (!op.body) return [];
  const out: fc.Arbitrary<Mutation>[] = [];
  for (const site of bodySites(op.body)) {
    const kinds: fc.Arbitrary<Mutation>[] = [
      fc.constantFrom(...wrongTypes(site.schema)).map((v) => ({ label: `body ${site.label}: wrong type ${show(v)}`, apply: (s: Spec) => setBody(s, site.path, v) })),
      fc.constant({ label: `body ${site.label}: null`, apply: (s: Spec) => setBody(s, site.path, null) }),
      fc.constant({ label: `body ${site.label}: unknown sibling`, apply: (s: Spec) => setBody(s, [...site.path.slice(0, -1), `${site.name}Extra`], 1) }),
    ];
    const range = outOfRange(site.schema, site.name);
    if (range) kinds.push(range.map((v) => ({ label: `body ${site.label}: out of range ${show(v)}`, apply: (s: Spec) => setBody(s, site.path, v) })));
    if (site.required) kinds.push(fc.constant({ label: `body ${site.label}: missing`, apply: (s: Spec) => setBody(s, site.path, undefined) }));
    out.push(fc.oneof(...kinds));
  }
  out.push(
    fc.constantFrom('handicap', 'id', 'clubId', 'version', 'createdAt', 'Name').map((k) => ({ label: `body: unknown field ${k}`, apply: (s: Spec) => setBody(s, [k], 'x') })),
    fc.constantFrom<unknown>(null, [], 'x', 1).map((v) => ({ label: `body: ${show(v)} instead of an object`, apply: (s: Spec) => void (s.body = { value: v }) })),
    fc.constant({ label: 'body: none', apply: (s: Spec) => void (s.body = undefined) }),
  );
  return out;
}

function paramMutations(op: Op): fc.Arbitrary<Mutation>[] {
  const out: fc.Arbitrary<Mutation>[] = [];
  for (const p of op.params) {
    if (p.in === 'path') {
      const kind = pathKind(op.path, p.name);
      const bad: fc.Arbitrary<unknown> =
        p.name === 'gameNo'
          ? fc.constantFrom<unknown>('0', '-1', 'abc', '1.5', '1e1', '2147483648', '9007199254740993', '01', '')
          : fc.oneof(
              fc.constantFrom<unknown>('not-a-uuid', '', '00000000-0000-0000-0000-000000000000'),
              kind ? refArb(kind, 'cross') : fc.uuid(),
              kind ? fc.tuple(fc.nat(), fc.constantFrom<Form>('upper', 'braces', 'nodash', 'suffix')).map(([n, f]) => new Ref(kind, 'own', n, f)) : fc.uuid(),
            );
      out.push(bad.map((v) => ({ label: `path ${p.name}: ${show(v)}`, apply: (s: Spec) => void (s.path[p.name] = v) })));
    } else if (p.in === 'query') {
      const range = outOfRange(p.schema, p.name);
      const bad = fc.oneof(fc.constantFrom<unknown>('abc', '', '[]', 'true', '1.5', '-1', 'null'), range ?? fc.constant('zzz'));
      out.push(
        bad.map((v) => ({ label: `query ${p.name}: ${show(v)}`, apply: (s: Spec) => void (s.query = [...s.query.filter((q) => q instanceof Raw || q[0] !== p.name), [p.name, v]]) })),
        fc.constant({ label: `query ${p.name}: repeated`, apply: (s: Spec) => void s.query.push([p.name, '1'], [p.name, '2']) }),
      );
    }
  }
  out.push(
    fc.constantFrom('foo', 'Limit', 'offset', 'page', 'clubId').map((k) => ({ label: `query: unknown ${k}`, apply: (s: Spec) => void s.query.push([k, '1']) })),
    fc
      .constantFrom<Auth>('none', 'garbage', 'revoked', 'viewer', op.path === '/v1/clubs' ? 'owner' : 'operator')
      .map((a) => ({ label: `auth: ${a}`, apply: (s: Spec) => void (s.auth = a) })),
    fc.constantFrom('text/html', 'application/xml', 'image/png', 'text/csv', 'application/pdf').map((a) => ({ label: `accept: ${a}`, apply: (s: Spec) => void (s.headers.accept = a) })),
  );
  if (header(op, 'Idempotency-Key')) {
    out.push(
      fc.constantFrom('k'.repeat(256), 'k'.repeat(2_000), '', ' ', 'é').map((v) => ({ label: `idempotency-key: ${show(v)}`, apply: (s: Spec) => void (s.headers['idempotency-key'] = v) })),
    );
  }
  if (header(op, 'If-Match')) {
    out.push(
      fc
        .constantFrom('"abc"', '"-1"', '1', 'W/"1"', '"1", "2"', '', '""', '"99999999999999999999"', '" 1"')
        .map((v) => ({ label: `if-match: ${show(v)}`, apply: (s: Spec) => void (s.headers['if-match'] = v) })),
    );
  }
  return out;
}

function nearlySpec(op: Op): fc.Arbitrary<Spec> {
  const mutations = [...bodyMutations(op), ...paramMutations(op)];
  return fc.tuple(validSpec(op), fc.oneof(...mutations)).map(([spec, m]) => {
    const s = cloneSpec(spec);
    m.apply(s);
    return { ...s, flavour: 'nearly' as const, note: m.label };
  });
}

// -- hostile ------------------------------------------------------------------------------------

const HOSTILE_AUTH: Auth[] = ['none', 'garbage', 'basic', 'lowercase', 'empty', 'schemeless', 'trailing', 'long', 'revoked', 'otherOwner', 'operator', 'viewer'];

const MALFORMED = [
  '{',
  '}',
  '{"a":',
  '{"name":"x",}',
  "{'name':'x'}",
  '{name:"x"}',
  'NaN',
  'undefined',
  '{"name":"x"}garbage',
  '{"name":"x"}{"name":"y"}',
  '\ufeff{"name":"x"}',
  '{"name":"a\u0000b"}',
  '{"name":"\u0001"}',
  '{"a":1e99999}',
  '{"a":-}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":0x10}',
  '{"a":Infinity}',
  '[',
  '"unterminated',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\\ud800"}',
  ' ',
  '\n',
  'null',
  'true',
  '0',
  '""',
  '{"":1}',
  '{"a":1,"a":2}',
  '{"a":[1,2,]}',
  '{"a" 1}',
  '{,}',
  '//comment\n{}',
  '{"a":"b"/*c*/}',
  '\u0000',
  '{"a":true}\u0000',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/problem+json',
  'application/json, text/plain',
  ';;;',
  'application/',
  '*/*',
  'application/jsonx',
  'application/json;',
  '',
  'application/octet-stream',
  'text/json',
];

const PROTO_KEYS: Array<[string, unknown]> = [
  ['__proto__', { admin: true, role: 'owner' }],
  ['__proto__', null],
  ['__proto__', []],
  ['constructor', { prototype: { admin: true } }],
  ['prototype', { polluted: 1 }],
];

function hostileBody(op: Op): fc.Arbitrary<{ body?: Spec['body']; contentType?: string | null; label: string }> {
  const schema: Schema = op.body ?? { type: 'object', properties: { reason: { type: 'string' } } };
  const valid = validValue(schema, '');
  const objectProps = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, p]) => [k, deref(p)] as const);
  const firstObject = objectProps.find(([, p]) => isObjectSchema(p))?.[0] ?? objectProps[0]?.[0] ?? 'x';
  const firstArray = objectProps.find(([, p]) => p.type === 'array')?.[0] ?? objectProps[0]?.[0] ?? 'x';
  const firstString = objectProps.find(([, p]) => p.type === 'string')?.[0] ?? objectProps[0]?.[0] ?? 'x';
  const numeric = objectProps.filter(([, p]) => p.type === 'integer' || p.type === 'number').map(([k]) => k);
  const strings = objectProps.filter(([, p]) => p.type === 'string').map(([k]) => k);
  const json = (value: unknown, label: string, contentType?: string | null) => ({ body: { value }, label, contentType });
  const variants: Array<fc.WeightedArbitrary<{ body?: Spec['body']; contentType?: string | null; label: string }>> = [
    { weight: 6, arbitrary: hostileObject(schema).map((v) => json(v, 'hostile fields')) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.constantFrom<unknown>(null, [], [{}], 0, -1, 'string', true, new Raw('-0'), new Raw('1e400')), fc.array(valid, { minLength: 1, maxLength: 3 }))
        .map((v) => json(v, `not an object: ${show(v)}`)),
    },
    { weight: 3, arbitrary: fc.constantFrom(...MALFORMED).map((text) => ({ body: { text }, label: `malformed JSON ${show(text)}` })) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...PROTO_KEYS), fc.boolean()).map(([v, pk, nested]) => {
        const entries = Object.entries(v ?? {});
        const pairs: Array<[string, unknown]> = nested ? [...entries.filter(([k]) => k !== firstObject), [firstObject, new Pairs([pk])]] : [pk, ...entries];
        return json(new Pairs(pairs), `prototype key ${pk[0]}${nested ? ` in ${firstObject}` : ''}`);
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, deepArb, fc.boolean())
        .map(([v, deep, top]) =>
          top ? json(deep, `deep nesting at the top (${deep.text.length} bytes)`) : json(setAt(v, [firstObject], deep), `deep nesting in ${firstObject} (${deep.text.length} bytes)`),
        ),
    },
    { weight: 1, arbitrary: fc.tuple(valid, hugeArrayArb).map(([v, arr]) => json(setAt(v, [firstArray], arr), `huge array in ${firstArray} (${arr.text.length} bytes)`)) },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom(...Object.entries(HUGE))).map(([v, [name, str]]) => json(setAt(v, [firstString], str), `huge ${name} string in ${firstString}`)),
    },
    {
      weight: numeric.length ? 2 : 0,
      arbitrary: fc.tuple(valid, fc.array(hostileNumber, { minLength: numeric.length, maxLength: numeric.length })).map(([v, ns]) => {
        let out = v;
        numeric.forEach((k, i) => (out = setAt(out, [k], ns[i])));
        return json(out, `numbers ${ns.map(show).join(' ')}`);
      }),
    },
    {
      weight: strings.length ? 2 : 0,
      arbitrary: fc.tuple(valid, fc.array(hostileString, { minLength: strings.length, maxLength: strings.length })).map(([v, ss]) => {
        let out = v;
        strings.forEach((k, i) => (out = setAt(out, [k], ss[i])));
        return json(out, `strings ${ss.map(show).join(' ')}`);
      }),
    },
    { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...CONTENT_TYPES)).map(([v, ct]) => json(v, `content-type ${show(ct)}`, ct)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('name=Anna&role=owner', '<a>1</a>', '--x\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n--x--')
        .map((text) => ({ body: { text }, label: `not JSON: ${show(text)}`, contentType: null })),
    },
    { weight: 1, arbitrary: valid.map((v) => json(v, 'valid JSON without a content type', null)) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\r\n').map((text) => ({ body: { text }, label: `blank body ${show(text)}` })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...objectProps.map(([k]) => k), 'x'), hostileGeneric)
        .map(([v, k, h]) => json(new Pairs([...Object.entries(v ?? {}), [k, h]]), `duplicate key ${k}`)),
    },
  ];
  if (!op.body) variants.push({ weight: op.method === 'GET' ? 40 : 12, arbitrary: fc.constant({ label: 'no body' }) });
  return fc.oneof(...variants);
}

const HOSTILE_QUERY_FRAGMENTS = [
  '__proto__[admin]=1',
  'constructor[prototype][admin]=1',
  '__proto__=1',
  'limit',
  '&&',
  '=',
  '==',
  'limit=1&limit=2',
  'cursor=%zz',
  'a=%',
  'limit[]=1',
  'limit[a]=1',
  'toString=1',
  'hasOwnProperty=x',
  'status=open&status=closed',
  'limit=%00',
  'limit=1%00',
  '%00=1',
  'a=%FF%FE',
  'a=%ED%A0%80',
  'x=' + 'y'.repeat(4_000),
];
const HOSTILE_URL_VALUES = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_STRINGS.filter((x) => x.length <= 1_000), ...HOSTILE_NUMBERS.map((n) => (n instanceof Raw ? n.text : String(n)))) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogateUnit, maxLength: 10 }) },
);

function hostileQuery(op: Op): fc.Arbitrary<Array<[string, unknown] | Raw>> {
  const names = op.params.filter((p) => p.in === 'query').map((p) => p.name);
  const entry: fc.Arbitrary<[string, unknown] | Raw> = fc.oneof(
    { weight: names.length ? 4 : 0, arbitrary: fc.tuple(fc.constantFrom(...names, 'x'), HOSTILE_URL_VALUES) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('foo', 'clubId', 'sort', 'include', ''), HOSTILE_URL_VALUES) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_QUERY_FRAGMENTS).map((t) => new Raw(t)) },
  );
  return fc.array(entry, { maxLength: 4 });
}

const HOSTILE_HEADER_VALUES = [
  '',
  ' ',
  'x'.repeat(256),
  'x'.repeat(4_000),
  'é\u00ff',
  '\t',
  '*',
  'null',
  '../..',
  '"',
  '""',
  'a\tb',
  '%00',
  'W/"1"',
  '"1", "2"',
  '"-1"',
  '"1e3"',
  '"99999999999999999999"',
];
const HOSTILE_ACCEPT = [
  'text/html',
  'application/xml',
  'text/csv',
  'application/pdf',
  'image/png',
  '*/*;q=0',
  'application/json;q=0',
  '',
  ';;;',
  'a'.repeat(1_000),
  'text/*',
  'application/*',
  'application/problem+json',
  'text/csv;q=0.5, application/pdf;q=0.9',
  'application/json; charset=utf-16',
];

function hostileHeaders(op: Op): fc.Arbitrary<Record<string, string>> {
  const value = fc.oneof(fc.constantFrom(...HOSTILE_HEADER_VALUES), tokenChars);
  return fc
    .record(
      {
        idem: header(op, 'Idempotency-Key') ? fc.oneof(value, fc.constantFrom('fuzz-key-1', 'fuzz-key-2')) : fc.constant(undefined),
        ifMatch: value,
        accept: fc.constantFrom(...HOSTILE_ACCEPT),
        requestId: fc.constantFrom('x'.repeat(200), 'a b', 'é', '../..', '', 'fuzz:1', '<script>'),
        origin: fc.constantFrom('https://evil.example', 'null', 'file://'),
        encoding: fc.constantFrom('gzip', 'br', 'identity', 'chunked'),
      },
      { requiredKeys: [] } as any,
    )
    .map((r: any) => {
      const h: Record<string, string> = {};
      if (r.idem !== undefined) h['idempotency-key'] = r.idem;
      if (r.ifMatch !== undefined) h['if-match'] = r.ifMatch;
      if (r.accept !== undefined) h.accept = r.accept;
      if (r.requestId !== undefined) h['x-request-id'] = r.requestId;
      if (r.origin !== undefined) h.origin = r.origin;
      if (r.encoding !== undefined) h['content-encoding'] = r.encoding;
      return h;
    });
}

function hostileSpec(op: Op): fc.Arbitrary<Spec> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const pathValue = (p: Param): fc.Arbitrary<unknown> => {
    if (p.name === 'gameNo') {
      return fc.oneof(
        { weight: 2, arbitrary: validPathValue(op, p) },
        {
          weight: 3,
          arbitrary: fc.constantFrom<unknown>(
            '0',
            '-1',
            '-0',
            '1.5',
            '1e3',
            'abc',
            '9007199254740993',
            '18446744073709551616',
            '0x1',
            ' 1',
            '１',
            '١',
            '',
            'NaN',
            'Infinity',
            '2147483648',
            '00001',
            '+1',
          ),
        },
        { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS).map((t) => new Raw(t)) },
      );
    }
    const kind = pathKind(op.path, p.name) ?? 'players';
    return fc.oneof(
      { weight: 2, arbitrary: validPathValue(op, p) },
      { weight: 4, arbitrary: hostileId(kind) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS).map((t) => new Raw(t)) },
    );
  };
  return fc
    .record({
      auth: fc.oneof({ weight: 3, arbitrary: validAuth(op) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_AUTH) }),
      path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p)]))),
      query: fc.oneof(validQuery(op), hostileQuery(op)),
      headers: fc.oneof({ weight: 1, arbitrary: validHeaders(op) }, { weight: 2, arbitrary: hostileHeaders(op) }),
      body: hostileBody(op),
    })
    .map((r) => ({
      op,
      flavour: 'hostile' as const,
      note: r.body.label,
      auth: r.auth,
      path: r.path,
      query: r.query,
      headers: r.headers,
      body: r.body.body,
      contentType: r.body.contentType,
    }));
}

// ---------------------------------------------------------------------------------------------
// Sending

interface Keys {
  owner: string;
  scorer: string;
  viewer: string;
  operator: string;
  revoked: string;
  otherOwner: string;
}

function authorization(auth: Auth, k: Keys): string | undefined {
  switch (auth) {
    case 'owner':
    case 'scorer':
    case 'viewer':
    case 'operator':
    case 'revoked':
    case 'otherOwner':
      return `Bearer ${k[auth]}`;
    case 'garbage':
      return 'Bearer bgk_not-a-real-key-0000000000000000';
    case 'basic':
      return `Basic ${Buffer.from('owner:secret').toString('base64')}`;
    case 'lowercase':
      return `bearer ${k.owner}`;
    case 'empty':
      return 'Bearer ';
    case 'schemeless':
      return k.owner;
    case 'trailing':
      return `Bearer ${k.owner} extra`;
    case 'long':
      return `Bearer ${'x'.repeat(8_000)}`;
    default:
      return undefined;
  }
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as in any client). */
function pct(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The request named ids of a club other than the caller's. */
  usedForeign: boolean;
}

function build(spec: Spec, pools: Pools, keys: Keys): Built {
  const r = new Resolver(pools);
  const url =
    spec.op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = spec.path[name];
      const seg = v instanceof Raw && /^[\x21-\x7e]*$/.test(v.text) && !/[?#]/.test(v.text) ? v.text : pct(r.text(v));
      if (name === 'id') r.table = v instanceof Raw ? null : r.text(v);
      return seg;
    }) + (spec.query.length ? `?${spec.query.map((q) => (q instanceof Raw ? q.text : `${pct(q[0])}=${pct(r.text(q[1]))}`)).join('&')}` : '');
  const headers: Record<string, string> = {};
  const a = authorization(spec.auth, keys);
  if (a !== undefined) headers.authorization = a;
  for (const [k, v] of Object.entries(spec.headers)) if (headerSafe(v)) headers[k] = v;
  let body: string | undefined;
  if (spec.body) body = 'value' in spec.body ? r.json(spec.body.value) : spec.body.text;
  const ct = spec.contentType === undefined ? (body !== undefined ? 'application/json' : undefined) : spec.contentType;
  if (ct !== null && ct !== undefined) headers['content-type'] = ct;
  return { method: spec.op.method, url, headers, body, usedForeign: spec.auth === 'otherOwner' ? r.usedOwn : r.usedOther };
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  error?: string;
  ms: number;
}

const usedSockets = new WeakSet<object>();

function sendOnce(base: URL, agent: Agent | false, b: Built): Promise<Answer & { reused: boolean }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    let reused = false;
    const done = (a: Omit<Answer, 'ms'>) => {
      if (!settled) {
        // Every answer is held against the document too (a live stream by its status and type).
        if (a.status > 0) recordExchange({ method: b.method, url: b.url, status: a.status, headers: { 'content-type': a.contentType }, body: a.text });
        resolve({ ...a, ms: Date.now() - started, reused });
      }
      settled = true;
    };
    let req: ClientRequest;
    try {
      const headers: Record<string, string> = { ...b.headers };
      if (b.body !== undefined) headers['content-length'] = String(Buffer.byteLength(b.body));
      req = httpRequest({ host: base.hostname, port: base.port, method: b.method, path: b.url, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.startsWith('text/event-stream')) {
          // A live stream never ends: its opening lines (up to the first blank line) are the answer, then the client goes.
          const opened = () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (!text.includes('\n\n') && !res.complete) return false;
            done({ status: res.statusCode ?? 0, contentType, text: text.slice(0, text.indexOf('\n\n') + 2) });
            req.destroy();
            return true;
          };
          res.on('data', (c: Buffer) => {
            chunks.push(c);
            opened();
          });
          res.on('end', () => opened() || done({ status: res.statusCode ?? 0, contentType, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', () => undefined);
          return;
        }
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => done({ status: 0, contentType: '', text: '', error: `response: ${e.message}` }));
      });
    } catch (e) {
      // Node refuses the request itself (an invalid header or path): not the app's doing.
      return done({ status: -1, contentType: '', text: '', error: (e as Error).message });
    }
    // Not req.reusedSocket: the agent leaves it unset when it hands a freed socket to a queued request.
    req.on('socket', (socket) => {
      reused = usedSockets.has(socket);
      usedSockets.add(socket);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (e) => done({ status: 0, contentType: '', text: '', error: e.message }));
    req.end(b.body);
  });
}

/**
 * Sends one request. A kept-alive connection the server closed after its previous answer
 * fails the next request sent on it; that request is sent again once on a new connection.
 */
async function send(base: URL, agent: Agent, b: Built): Promise<Answer> {
  const first = await sendOnce(base, agent, b);
  if (first.status !== 0) return first;
  if (!first.reused) return { ...first, error: `${first.error} (on a new connection)` };
  const again = await sendOnce(base, false, b);
  return again.status === 0 ? { ...again, error: `${again.error} (also on a new connection; first on a reused one: ${first.error})` } : again;
}

// ---------------------------------------------------------------------------------------------
// Checks

const CODE_RE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;
/** Internals that must never reach a client (unless the request itself carried the same text). */
const STACK_PATTERNS = [/\bat [^\s"]*\.(js|ts|mjs|cjs):\d+:\d+/, /node_modules\//, /\\n\s+at \S/, /\n\s+at \S/];
const SQL_PATTERNS = [
  /QueryFailedError/,
  /StatementFailed/,
  /\bSELECT\s/,
  /relation "/,
  /\bINSERT INTO\b/,
  /\bUPDATE "?\w+"? SET\b/,
  /violates [\w-]+ constraint/,
  /syntax error at or near/,
  /invalid input syntax for/,
  /duplicate key value/,
  /\bpg_\w+/,
  /TypeORM|EntityNotFound/,
];

function check(b: Built, a: Answer, foreign: string[]): string[] {
  const out: string[] = [];
  if (a.status === 0) return [`no answer: ${a.error}`];
  if (a.status >= 500) out.push(`status ${a.status}`);
  const requestText = `${b.url}\n${JSON.stringify(b.headers)}\n${b.body ?? ''}`;
  const leaks = (patterns: RegExp[]) => {
    for (const re of patterns) {
      const m = re.exec(a.text);
      if (m && !requestText.includes(m[0])) out.push(`body reveals internals: ${JSON.stringify(a.text.slice(Math.max(0, m.index - 40), m.index + 80))}`);
    }
  };
  leaks(STACK_PATTERNS);
  if (a.status >= 400) {
    leaks(SQL_PATTERNS);
    if (!a.contentType.startsWith('application/problem+json')) out.push(`error content-type ${JSON.stringify(a.contentType)}, not application/problem+json`);
    let p: any;
    try {
      p = JSON.parse(a.text);
    } catch {
      out.push('error body is not JSON');
    }
    if (p !== undefined) {
      if (p === null || typeof p !== 'object' || Array.isArray(p)) out.push('error body is not an object');
      else {
        for (const f of ['type', 'title', 'detail'] as const) if (typeof p[f] !== 'string' || !p[f]) out.push(`problem without a ${f}`);
        if (p.status !== a.status) out.push(`problem status ${JSON.stringify(p.status)} ≠ HTTP ${a.status}`);
        if (typeof p.code !== 'string' || !CODE_RE.test(p.code)) out.push(`problem code ${JSON.stringify(p.code)} is not UPPER_SNAKE`);
      }
    }
  } else if (a.status >= 200 && a.status < 300) {
    // A request naming the other club's resources must not succeed with them.
    const hits = b.usedForeign ? foreign.filter((id) => a.text.includes(id)) : [];
    if (hits.length) out.push(`answer ${a.status} to a request naming the other club's ids carries them: ${hits.slice(0, 3).join(', ')}`);
    if (a.contentType.startsWith('text/event-stream') && !/^retry: 1000\n(id: [0-9a-f]{32}\n)?\n$/.test(a.text))
      out.push(`a stream that does not open with its retry (and start) line: ${JSON.stringify(a.text.slice(0, 100))}`);
    if (/json/.test(a.contentType) && a.text) {
      try {
        JSON.parse(a.text);
      } catch {
        out.push('success body is not JSON');
      }
    }
  }
  return out;
}

/** A 32-bit seed for one operation and flavour, so runs of one operation do not depend on the others. */
function subSeed(...parts: Array<string | number>): number {
  let h = 2166136261;
  for (const ch of parts.join('|')) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h | 0;
}

const excerpt = (s: string | undefined, n = 300) => (s === undefined ? '(none)' : s.length > n ? `${JSON.stringify(s.slice(0, n))}…(${s.length} chars)` : JSON.stringify(s));

// ---------------------------------------------------------------------------------------------

describe(`fuzzing every operation of openapi/openapi.json (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  let t: TestApp;
  let keys: Keys;
  const pools: Pools = { own: emptyKinds(), other: emptyKinds(), games: new Map(), cursors: [] };
  /** Ids and tokens of each club: a request of one club naming the other's must not get them back in a 2xx. */
  const secretsA: string[] = [];
  const secretsB: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    const must = (what: string, res: { status: number; text: string; body: any }, status = 201) => {
      if (res.status !== status) throw new Error(`setup: ${what} answered ${res.status} ${res.text}`);
      return res.body;
    };
    const club = async (name: string, currency: string) =>
      must(`club ${name}`, await t.http().post('/v1/clubs').set(bearer(t.adminToken)).send({ name, currency, timezone: 'Europe/Berlin' }));

    const finish = (winner: string, result = 'single') => ({ type: 'finish', winner, result });
    /** Players, sessions, each kind of table with a finished and a running game, payments. */
    const populate = async (token: string, pool: Record<Kind, string[]>, names: string[]) => {
      const post = async (url: string, body: object, status = 201) => must(`POST ${url}`, await t.http().post(url).set(bearer(token)).send(body), status);
      const players: string[] = [];
      for (const name of names) players.push((await post('/v1/players', { name, nickname: name.slice(0, 3) })).id);
      pool.players.push(...players);
      const [p0, p1, p2, p3, p4, p5] = players;
      const open = (await post('/v1/sessions', { name: 'Fuzz night', rakePercent: 2.5 })).id;
      const second = (await post('/v1/sessions', { name: 'Second room', currency: 'GBP' })).id;
      const closed = (await post('/v1/sessions', { name: 'Last week', startsAt: '2026-11-24T19:00:00Z' })).id;
      await post(`/v1/sessions/${closed}/close`, {}, 200);
      pool.sessions.push(open, second, closed);

      const money = (await post('/v1/money-games', { sessionId: open, players: [p0, p1], stakeMinor: 100, rules: { beavers: true } })).id;
      await post(`/v1/money-games/${money}/games`, { actions: [{ type: 'double', by: p0 }, { type: 'take', by: p1 }, finish(p0, 'gammon')] });
      await post(`/v1/money-games/${money}/games`, {});
      pools.games.set(money, [1, 2]);
      pool['money-games'].push(money);

      const match = (await post('/v1/matches', { sessionId: open, sides: [[p2], [p3]], target: 5, stakeMinor: 1_000 })).id;
      await post(`/v1/matches/${match}/games`, { actions: [finish(p2)] });
      await post(`/v1/matches/${match}/games`, {});
      pools.games.set(match, [1, 2]);
      pool.matches.push(match);
      if (p5) {
        const pairs = (
          await post('/v1/matches', {
            sides: [
              [p0, p1],
              [p4, p5],
            ],
            target: 3,
          })
        ).id;
        await post(`/v1/matches/${pairs}/games`, {});
        pools.games.set(pairs, [1]);
        pool.matches.push(pairs);
      }

      const chouette = (await post('/v1/chouettes', { sessionId: second, stakeMinor: 50, seating: { order: [p0, p1, p2, p3] } })).id;
      await post(`/v1/chouettes/${chouette}/games`, { actions: [finish(p0)] });
      await post(`/v1/chouettes/${chouette}/games`, {});
      pools.games.set(chouette, [1, 2]);
      pool.chouettes.push(chouette);

      const pay1 = (await post(`/v1/sessions/${open}/payments`, { from: p1, to: p0, amountMinor: 500, note: 'cash at the bar' })).id;
      const pay2 = (await post(`/v1/sessions/${open}/payments`, { from: 'house', to: p2, amountMinor: 10 })).id;
      return [pay1, pay2];
    };

    // Club A: the club under test, with keys of every role and a revoked one.
    const a = await club('Fuzz club', 'EUR');
    const ownerA = a.apiKey.token as string;
    const keyA = async (name: string, role: string) => must(`key ${name}`, await t.http().post('/v1/api-keys').set(bearer(ownerA)).send({ name, role }));
    const scorer = await keyA('scorer', 'scorer');
    const viewer = await keyA('viewer', 'viewer');
    for (const name of ['spare 1', 'spare 2', 'spare 3']) pools.own['api-keys'].push((await keyA(name, 'viewer')).id);
    const revoked = await keyA('revoked', 'scorer');
    await must('revoke', await t.http().delete(`/v1/api-keys/${revoked.id}`).set(bearer(ownerA)), 204);
    const paymentsA = await populate(ownerA, pools.own, ['Anna', 'Ben', 'Cleo', 'Dan', 'Zoë Ørsted', 'محمد']);

    // Club B: its ids are drawn as "the other club's".
    const b = await club('Other club', 'USD');
    const ownerB = b.apiKey.token as string;
    const scorerB = await must('key B', await t.http().post('/v1/api-keys').set(bearer(ownerB)).send({ name: 'B scorer', role: 'scorer' }));
    pools.other['api-keys'].push(scorerB.id);
    const paymentsB = await populate(ownerB, pools.other, ['Bea', 'Bob', 'Bix', 'Bo']);

    keys = { owner: ownerA, scorer: scorer.token, viewer: viewer.token, operator: t.adminToken, revoked: revoked.token, otherOwner: ownerB };
    secretsA.push(a.club.id, a.apiKey.id, ownerA, scorer.token, scorer.id, viewer.token, viewer.id, ...paymentsA, ...KINDS.flatMap((k) => pools.own[k]));
    secretsB.push(b.club.id, b.apiKey.id, ownerB, scorerB.token, scorerB.id, ...paymentsB, ...KINDS.flatMap((k) => pools.other[k]));
  }, 60_000);

  afterAll(() => t?.close());

  it('answers at least 1,000 generated requests without a 5xx, with problem+json errors and no leak', async () => {
    const started = Date.now();
    const flavours: Array<[Flavour, (op: Op) => fc.Arbitrary<Spec>]> = [
      ['valid', validSpec],
      ['nearly', nearlySpec],
      ['hostile', hostileSpec],
    ];
    const perOp = OPS.map((op) => flavours.flatMap(([flavour, gen]) => fc.sample(gen(op), { seed: subSeed(SEED, op.key, flavour), numRuns: RUNS })));
    // Interleaved: every operation's valid requests first (they build up state), then the nearly valid, then the hostile.
    const specs: Spec[] = [];
    for (let i = 0; i < 3 * RUNS; i++) for (const list of perOp) if (list[i]) specs.push(list[i]);

    const base = new URL(t.url);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const failures: string[] = [];
    const failed: object[] = [];
    const byStatus = new Map<string, number>();
    const byOp = new Map<string, Map<number, number>>();
    const undocumented = new Map<string, Set<number>>();
    const byFlavour = new Map<string, number>();
    let sent = 0;
    let skipped = 0;
    let foreignOk = 0;
    let slowest = { ms: 0, what: '' };

    const one = async (spec: Spec, i: number) => {
      const b = build(spec, pools, keys);
      const a = await send(base, agent, b);
      if (a.status === -1) {
        skipped++;
        return;
      }
      sent++;
      const cls = a.status === 0 ? 'no answer' : `${Math.floor(a.status / 100)}xx`;
      byStatus.set(String(a.status), (byStatus.get(String(a.status)) ?? 0) + 1);
      byFlavour.set(`${spec.flavour} ${cls}`, (byFlavour.get(`${spec.flavour} ${cls}`) ?? 0) + 1);
      const tally = byOp.get(spec.op.key) ?? new Map<number, number>();
      tally.set(a.status, (tally.get(a.status) ?? 0) + 1);
      byOp.set(spec.op.key, tally);
      if (a.status > 0 && !spec.op.statuses.has(a.status)) undocumented.set(spec.op.key, (undocumented.get(spec.op.key) ?? new Set()).add(a.status));
      if (a.ms > slowest.ms) slowest = { ms: a.ms, what: `${b.method} ${b.url.slice(0, 80)} (${spec.note || spec.flavour})` };

      const foreign = spec.auth === 'otherOwner' ? secretsA : secretsB;
      if (b.usedForeign && a.status >= 200 && a.status < 300) foreignOk++;
      const problems = check(b, a, foreign);
      if (problems.length) {
        const shownHeaders = Object.fromEntries(
          Object.entries(b.headers).map(([k, v]) => [k, k === 'authorization' ? `<${spec.auth}>` : v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v]),
        );
        failures.push(
          [
            `[FUZZ_SEED=${SEED} #${i} ${spec.flavour}${spec.note ? `: ${spec.note}` : ''}] ${b.method} ${b.url.length > 300 ? `${b.url.slice(0, 300)}…(${b.url.length})` : b.url} → ${a.status || a.error}`,
            `  problems: ${problems.join('; ')}`,
            `  request headers: ${JSON.stringify(shownHeaders)}`,
            `  request body: ${excerpt(b.body)}`,
            `  answer: ${a.contentType || '(no content-type)'} ${excerpt(a.text)}`,
          ].join('\n'),
        );
        failed.push({
          i,
          ms: a.ms,
          flavour: spec.flavour,
          note: spec.note,
          auth: spec.auth,
          method: b.method,
          url: b.url,
          headers: shownHeaders,
          body: b.body,
          status: a.status,
          contentType: a.contentType,
          answer: a.text.slice(0, 2_000),
          problems,
        });
      }
      harvest(spec, b, a);
    };

    /** Learns ids, game numbers and cursors from successful answers, for later requests. */
    const harvest = (spec: Spec, b: Built, a: Answer) => {
      if (a.status < 200 || a.status >= 300 || !/json/.test(a.contentType)) return;
      let body: any;
      try {
        body = JSON.parse(a.text);
      } catch {
        return;
      }
      const club = ['owner', 'scorer', 'viewer', 'lowercase'].includes(spec.auth) ? pools.own : spec.auth === 'otherOwner' ? pools.other : null;
      if (!club || body === null || typeof body !== 'object') return;
      const segs = spec.op.path.split('/');
      if (spec.op.method === 'POST' && segs.length === 3 && KINDS.includes(segs[2] as Kind) && typeof body.id === 'string') {
        const list = club[segs[2] as Kind];
        if (!list.includes(body.id)) list.push(body.id);
        const secrets = club === pools.other ? secretsB : secretsA;
        secrets.push(body.id);
        if (typeof body.token === 'string') secrets.push(body.token);
      }
      if (spec.op.method === 'POST' && TABLES.includes(segs[2] as Kind) && segs[4] === 'games' && segs.length === 5 && typeof body.gameNo === 'number') {
        const table = b.url.split('/')[3];
        const games = pools.games.get(table) ?? [];
        if (!games.includes(body.gameNo)) pools.games.set(table, [...games, body.gameNo]);
      }
      if (typeof body.nextCursor === 'string' && pools.cursors.length < 200) pools.cursors.push(body.nextCursor);
    };

    // Bounded concurrency: CONCURRENCY workers take the next request in order.
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < specs.length) {
          const i = next++;
          await one(specs[i], i);
        }
      }),
    );
    agent.destroy();

    // The app is still up and the owner key still works.
    const alive = await t.http().get('/v1/club').set(bearer(keys.owner));
    const health = await t.http().get('/health');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const classes = [...byStatus.entries()].reduce<Record<string, number>>((acc, [s, n]) => {
      const c = `${String(s)[0]}xx`;
      acc[c] = (acc[c] ?? 0) + n;
      return acc;
    }, {});
    const lines = [
      `fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}: ${sent} requests over ${OPS.length} operations in ${seconds} s (${skipped} refused by the client), ` +
        `${Object.entries(classes)
          .sort()
          .map(([c, n]) => `${c} ${n}`)
          .join(', ')}; ${failures.length} failing`,
      `  statuses: ${[...byStatus.entries()]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
      `  by flavour: ${[...byFlavour.entries()]
        .sort()
        .map(([f, n]) => `${f}: ${n}`)
        .join(', ')}`,
      `  slowest: ${slowest.ms} ms ${slowest.what}; 2xx answers to requests naming the other club's ids (checked for leaks): ${foreignOk}`,
      ...OPS.map(
        (op) =>
          `  ${op.key.padEnd(52)} ${[...(byOp.get(op.key) ?? new Map()).entries()]
            .sort((x, y) => x[0] - y[0])
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}`,
      ),
    ];
    // What the app logged as failures of its own (level error and above), grouped by error and first frame.
    const logged = new Map<string, number>();
    for (const line of t.app.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line);
        if (entry.level < 50) continue;
        const frame = /\n\s+at ([^\n]+)/.exec(entry.err?.stack ?? '')?.[1] ?? '';
        const key = `${entry.err?.type ?? ''}: ${entry.err?.message ?? entry.msg} ${frame.replace(/^.*node_modules\//, '')}`.slice(0, 200);
        logged.set(key, (logged.get(key) ?? 0) + 1);
      } catch {
        /* not a log line */
      }
    }
    if (logged.size) lines.push(`  the app logged: ${[...logged.entries()].map(([k, n]) => `${n}× ${k}`).join('; ')}`);
    if (undocumented.size) lines.push(`  statuses the document does not list: ${[...undocumented.entries()].map(([k, s]) => `${k}: ${[...s].join(',')}`).join('; ')}`);
    console.log(lines.join('\n'));
    if (failed.length) {
      const file = join(tmpdir(), `fuzz-failures-${SEED}.json`);
      writeFileSync(file, JSON.stringify({ seed: SEED, runs: RUNS, failures: failed }, null, 2));
      console.log(`fuzz: ${failed.length} failing requests written to ${file}`);
    }

    expect(sent).toBeGreaterThanOrEqual(1_000);
    expect({ alive: alive.status, health: health.status, appExited: t.app.proc.exitCode }).toEqual({ alive: 200, health: 200, appExited: null });
    expect(failures).toEqual([]);
  }, 180_000);
});
