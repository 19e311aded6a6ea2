import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The response check of the e2e suite: every answer the tests receive is held against the
 * committed OpenAPI document (openapi/openapi.json), keyed by method and path template,
 * status and content type, and its JSON body validated with a strict JSON Schema validator.
 * test/support/contract-setup.ts hooks it into every supertest request and fails the test
 * that received an answer the document does not describe.
 */

type Json = Record<string, unknown>;
interface MediaObject {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaObject>;
  'x-error-codes'?: string[];
}
interface Operation {
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

/** What a client saw: the request's method and URL (absolute or a path), the status, headers and body. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received; undefined when the caller did not read it (only status and type are checked). */
  body?: string | Buffer;
}

/**
 * Paths the document does not describe, on purpose: its own copy and the pages for people
 * (Swagger UI and its files under /docs/, the rule book at /docs/rules, the club board's
 * page at /board/{token} and its files under /board-assets/). Anything else the
 * document does not name must be a problem (404 or 405).
 */
export const UNDOCUMENTED_PATHS: ReadonlyArray<string | RegExp> = ['/openapi.json', '/docs', '/docs/rules', /^\/docs\//, /^\/board\/[^/]+$/, /^\/board-assets\//];

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const REF_PREFIX = '#/components/schemas/';
const DOC_ID = 'openapi.json';

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * One OpenAPI 3.0 Schema Object as JSON Schema (draft-07), read strictly:
 * - `nullable: true` admits null only beside a `type` (type [T, 'null']); an `enum`
 *   without null still refuses it, as OpenAPI 3.0.3 says;
 * - a `$ref`'s sibling keywords are ignored (so `{ $ref, nullable }` does not admit null);
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become their numeric form;
 * - `example`, `x-*`, `xml`, `externalDocs` and `discriminator` are annotations, dropped;
 * - every other keyword (`additionalProperties`, `format`, `required`…) stays as written.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
  if (typeof schema.$ref === 'string') {
    if (!schema.$ref.startsWith(REF_PREFIX)) throw new Error(`unsupported $ref ${schema.$ref}`);
    return { $ref: `${DOC_ID}#/definitions/${schema.$ref.slice(REF_PREFIX.length)}` };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || ['example', 'xml', 'externalDocs', 'discriminator', 'nullable'].includes(key)) continue;
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, s]) => [name, toJsonSchema(s)]));
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      out[key] = toJsonSchema(value);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as unknown[]).map(toJsonSchema);
    } else {
      out[key] = value;
    }
  }
  for (const [bool, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[bool] === 'boolean') {
      if (out[bool] === true) out[bool] = out[bound];
      else delete out[bool];
      if (out[bool] !== undefined) delete out[bound];
    }
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
  operations: Map<string, Operation>;
}

const mediaOf = (headers: Exchange['headers']): string | undefined => {
  const raw = headers['content-type'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.split(';')[0].trim().toLowerCase() || undefined;
};
const isJsonMedia = (media: string) => media === 'application/json' || /^application\/[\w.-]+\+json$/.test(media);
const textOf = (body: Exchange['body']) => (body === undefined ? '' : typeof body === 'string' ? body : body.toString('utf8'));

export class ContractChecker {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, logger: false });
    addFormats(this.ajv);
    const definitions = Object.fromEntries(Object.entries(doc.components?.schemas ?? {}).map(([name, s]) => [name, toJsonSchema(s)]));
    this.ajv.addSchema({ $id: DOC_ID, definitions });
    this.routes = Object.entries(doc.paths)
      .map(([template, item]) => {
        const segments = template.split('/');
        const source = segments.map((s) => (/^\{\w+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
        const operations = new Map<string, Operation>();
        for (const [method, op] of Object.entries(item)) if (OPERATION_METHODS.includes(method)) operations.set(method.toUpperCase(), op as Operation);
        return { template, pattern: new RegExp(`^${source}$`), literals: segments.filter((s) => !s.startsWith('{')).length, operations };
      })
      // A literal segment wins over a parameter (/v1/events/stream before /v1/events/{id}).
      .sort((a, b) => b.literals - a.literals);
    // Compile every schema now: a document strict mode refuses fails the run at once.
    for (const route of this.routes) {
      for (const op of route.operations.values()) {
        for (const response of Object.values(op.responses)) {
          for (const [media, m] of Object.entries(response.content ?? {})) if (isJsonMedia(media) && m.schema) this.validator(m.schema);
        }
      }
    }
  }

  static fromCommittedDocument(): ContractChecker {
    return new ContractChecker(JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')) as OpenApiDocument);
  }

  /** The schema validator of a component (by name), for tests of the check itself. */
  component(name: string): ValidateFunction {
    return this.ajv.compile({ $ref: `${DOC_ID}#/definitions/${name}` });
  }

  /** The document's path template a request path falls under, if any. */
  templateOf(path: string): string | undefined {
    return this.routes.find((r) => r.pattern.test(path))?.template;
  }

  /** One validator per distinct schema (most answers share one: the problem's `$ref`). */
  private validator(schema: unknown): ValidateFunction {
    const converted = toJsonSchema(schema) as Json;
    const key = JSON.stringify(converted);
    let v = this.validators.get(key);
    if (!v) {
      v = this.ajv.compile(converted);
      this.validators.set(key, v);
    }
    return v;
  }

  private problemValidator(): ValidateFunction {
    return this.validator({ $ref: `${REF_PREFIX}ProblemResponse` });
  }

  /**
   * What is wrong with an answer by the document, or null when nothing is (or when the
   * path is one the document leaves out on purpose, UNDOCUMENTED_PATHS, or a CORS preflight).
   */
  check(ex: Exchange): string | null {
    const method = ex.method.toUpperCase();
    // The path as sent (no URL parser: it would resolve `..` and re-encode what the server sees as is).
    const path = ex.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0] || '/';
    if (method === 'OPTIONS') return null;
    if (UNDOCUMENTED_PATHS.some((p) => (typeof p === 'string' ? p === path : p.test(path)))) return null;
    const media = mediaOf(ex.headers);
    const fail = (what: string, errors?: ErrorObject[] | null) => {
      const shown = path.length > 200 ? `${path.slice(0, 200)}…(${path.length} characters)` : path;
      const lines = [`${method} ${shown} answered ${ex.status} (${media ?? 'no content type'}): ${what}`];
      for (const e of errors ?? []) lines.push(`  ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      const text = textOf(ex.body);
      if (text) lines.push(`  body: ${text.slice(0, 500)}${text.length > 500 ? '…' : ''}`);
      return lines.join('\n');
    };
    const asProblem = (why: string): string | null => {
      if (media !== 'application/problem+json') return fail(`${why}, so it must be application/problem+json`);
      if (ex.body === undefined || method === 'HEAD') return null;
      return this.validateJson(this.problemValidator(), textOf(ex.body), fail);
    };

    const route = this.routes.find((r) => r.pattern.test(path));
    if (!route) {
      if (ex.status < 400) return fail('the document has no such path');
      return asProblem('the document has no such path');
    }
    const op = route.operations.get(method) ?? (method === 'HEAD' ? route.operations.get('GET') : undefined);
    if (!op) {
      if (ex.status !== 405) return fail(`${route.template} has no ${method} operation: the answer must be 405`);
      return asProblem('405');
    }
    const status = String(ex.status);
    const response = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (!response) return fail(`status ${status} is not documented for ${method} ${route.template} (documented: ${Object.keys(op.responses).join(', ')})`);
    const content = response.content ?? {};
    const documented = Object.keys(content);
    if (documented.length === 0) {
      return textOf(ex.body).length > 0 && method !== 'HEAD' ? fail(`${method} ${route.template} ${status} documents no body`) : null;
    }
    if (!media || !documented.includes(media)) return fail(`content type not documented for ${method} ${route.template} ${status} (documented: ${documented.join(', ')})`);
    if (method === 'HEAD' || ex.body === undefined || !isJsonMedia(media)) return null;
    const schema = content[media].schema;
    if (!schema) return null;
    const invalid = this.validateJson(this.validator(schema), textOf(ex.body), fail);
    if (invalid || ex.status !== 422 || media !== 'application/problem+json') return invalid;
    // A 422 names its code among those the route documents for it (its refusals by the rules and its own 422 codes).
    const code = (JSON.parse(textOf(ex.body)) as { code: string }).code;
    const listed = op.responses['422']?.['x-error-codes'] ?? [];
    return listed.includes(code) ? null : fail(`code ${code} is not among the 422 codes of ${method} ${route.template} (x-error-codes: ${listed.join(', ') || 'none'})`);
  }

  private validateJson(validate: ValidateFunction, text: string, fail: (what: string, errors?: ErrorObject[] | null) => string): string | null {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail('the body is not JSON');
    }
    return validate(body) ? null : fail('the body does not match the schema', validate.errors);
  }
}

let shared: ContractChecker | undefined;
/** The checker of the committed document, built once per test file. */
export const contract = (): ContractChecker => (shared ??= ContractChecker.fromCommittedDocument());

/** The answers of the running test file the document does not describe, and how many were checked. */
export const violations: string[] = [];
export const tally = { checked: 0 };

/** Checks one answer against the document; a mismatch fails the running test (contract-setup.ts). */
export function recordExchange(ex: Exchange): void {
  tally.checked++;
  const problem = contract().check(ex);
  if (problem) violations.push(problem);
}

/**
 * Checks an answer read off a raw socket (`HTTP/1.1 <status> …`, headers, body) to `method
 * url`; a connection closed before a whole head arrived is not an answer and is not checked.
 * A chunked body is not decoded (only status and content type are checked then).
 */
export function recordRawExchange(method: string, url: string, raw: string): void {
  const end = raw.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
  if (end < 0 || !status) return;
  const headers: Record<string, string> = {};
  for (const line of raw.slice(0, end).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const chunked = /chunked/i.test(headers['transfer-encoding'] ?? '');
  recordExchange({ method, url, status: Number(status[1]), headers, body: chunked ? undefined : Buffer.from(raw.slice(end + 4), 'latin1') });
}
