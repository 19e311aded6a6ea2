import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PROBLEM_JSON, REFUSALS_EXTENSION } from '../common/openapi';
import { isDomainErrorCode, rulesOf } from '../domain/error-codes';
import { codesNamedIn, codesOfStatus, problemExample } from './problem-examples';

type Op = {
  operationId?: string;
  responses: Record<string, { description: string; content?: unknown; headers?: Record<string, unknown> }>;
  security?: unknown[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
};

const PROBLEM_REF = { $ref: '#/components/schemas/ProblemResponse' };
const problem = (description: string) => ({ description, content: { [PROBLEM_JSON]: { schema: PROBLEM_REF } } });

/**
 * Adds the answers every route can give (validation, auth, idempotency, limits,
 * database trouble) so that each operation documents every error it returns.
 */
function addStandardProblems(doc: OpenAPIObject): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
      const op = raw as Op & { summary?: string; description?: string };
      if (!op.description && op.summary) op.description = `${op.summary}.`;
      const r = op.responses;
      const add = (status: number, description: string) => {
        r[String(status)] ??= problem(description);
      };
      const authenticated = (op.security ?? []).length > 0;
      const hasInput = !!op.requestBody || (op.parameters ?? []).some((p) => p.in === 'query');
      const write = method === 'post' || method === 'patch' || method === 'delete';
      // Every route can answer 400: the router refuses a path that is not valid
      // percent-encoding, and a query parameter holding U+0000, before any route runs.
      const anyRoute = 'A path that is not valid percent-encoding (MALFORMED_URL); a query parameter holding U+0000 (VALIDATION_FAILED).';
      const idempotencyKey = op.requestBody
        ? 'An Idempotency-Key that is not 1 to 255 visible ASCII characters (INVALID_IDEMPOTENCY_KEY).'
        : 'An Idempotency-Key that is not 1 to 255 visible ASCII characters (INVALID_IDEMPOTENCY_KEY); a body (this route reads none) that is not valid JSON (MALFORMED_JSON) or is too complex (BODY_TOO_COMPLEX).';
      const badRequest = [
        hasInput
          ? 'Malformed JSON, wrong types, unknown or missing fields, text holding U+0000 (VALIDATION_FAILED, MALFORMED_JSON, INVALID_CURSOR); a body with an object of more than 256 fields, an array of more than 1,000 items, more than 10,000 in all or nesting deeper than 32 levels (BODY_TOO_COMPLEX).'
          : '',
        write ? idempotencyKey : '',
        anyRoute,
      ];
      if (r['400']) {
        for (const clause of badRequest.slice(1)) if (clause && !r['400'].description.includes(clause)) r['400'].description += ` ${clause}`;
      } else {
        add(400, badRequest.filter(Boolean).join(' '));
      }
      if (authenticated) {
        add(401, 'No token, a bad token or a revoked key (UNAUTHENTICATED).');
        add(403, 'The token\'s role is too low for this route (FORBIDDEN).');
        add(429, 'Too many requests for this API key or the operator token, or too many failed authentications from this address; see Retry-After (RATE_LIMITED).');
      }
      if (path.includes('{')) add(404, 'No such resource in this club (NOT_FOUND).');
      if (method === 'post' || method === 'patch' || method === 'delete') {
        add(409, 'A request with the same Idempotency-Key is still running, or a concurrent change won (IDEMPOTENCY_KEY_IN_FLIGHT, CONFLICT).');
        add(422, 'The Idempotency-Key was used before with a different request or another credential (IDEMPOTENCY_KEY_REUSED).');
      }
      // A write's body is read before the route runs, even on a route that takes none.
      if (write) {
        add(413, 'The body is larger than 1 MiB (PAYLOAD_TOO_LARGE).');
        add(415, 'The body is not JSON (UNSUPPORTED_MEDIA_TYPE).');
      }
      // Answered by the HTTP parser on the socket, whatever the route.
      add(408, 'The request line, headers or body did not arrive in time; the connection is closed (REQUEST_TIMEOUT).');
      add(431, 'The request line or headers are larger than the server accepts; the connection is closed (HEADERS_TOO_LARGE).');
      add(500, 'A failure of ours; the body carries only a request id (INTERNAL_ERROR).');
      if (path !== '/health') {
        add(
          503,
          write
            ? 'The database is unavailable or too busy: nothing was recorded (DATABASE_UNAVAILABLE, DATABASE_BUSY); or the connection was lost after the commit was sent, so it may have been recorded: retry with the same Idempotency-Key (COMMIT_OUTCOME_UNKNOWN). See Retry-After.'
            : 'The database is unavailable or too busy (DATABASE_UNAVAILABLE, DATABASE_BUSY). See Retry-After.',
        );
      }
      // A write's 2xx carries its Consistency-Token when a standby is configured (src/common/response-hooks.ts).
      if (write) {
        for (const [status, response] of Object.entries(r)) {
          if (!status.startsWith('2')) continue;
          (response.headers ??= {})['Consistency-Token'] = {
            description:
              "Sent when the deployment has a standby (DATABASE_REPLICA_URL): the primary's WAL position once this write had committed. Send it back with `Prefer: replica` on a read that may come from a standby: it is served by one only once that standby has this write.",
            schema: { type: 'string', example: '0/16B3748' },
          };
        }
      }
      // The reads a client may take from a standby (src/common/read-source.ts).
      if (op.operationId && REPLICA_READS.includes(op.operationId)) {
        (op.parameters ??= []).push(
          {
            in: 'header',
            name: 'Prefer',
            required: false,
            description:
              '`replica`: the answer may come from a standby (DATABASE_REPLICA_URL), to spare the primary; never older than the Consistency-Token sent with it. A standby that lags more than 250 ms behind it, or none at all, leaves the read to the primary.',
            schema: { type: 'string', example: 'replica' },
          } as never,
          {
            in: 'header',
            name: 'Consistency-Token',
            required: false,
            description: 'With `Prefer: replica`: the Consistency-Token of your last write; the standby that answers has it. 400 VALIDATION_FAILED when it is not one this API gave out.',
            schema: { type: 'string', example: '0/16B3748' },
          } as never,
        );
        const ok = r['200'];
        if (ok) {
          (ok.headers ??= {})['Preference-Applied'] = {
            description: '`replica` when a standby answered (`Prefer: replica`); absent when the primary did.',
            schema: { type: 'string', enum: ['replica'] },
          };
        }
      }
      if (method === 'post' || method === 'patch' || method === 'delete') {
        (op.parameters ??= []).push({
          in: 'header',
          name: 'Idempotency-Key',
          required: false,
          description: 'Send one with every write, and the same one when retrying it (after a 503 COMMIT_OUTCOME_UNKNOWN above all): replays the first response for the same key and body, for at least 24 h.',
          schema: { type: 'string', maxLength: 255 },
        } as never);
      }
      // A JSON GET answers 304 to an If-None-Match naming its ETag, its version or a weak one (src/common/conditional-get.ts).
      if (method === 'get' && (r['200']?.content as Record<string, unknown> | undefined)?.['application/json']) {
        r['304'] ??= { description: 'Not modified: `If-None-Match` named the current ETag of this answer; no body (send the one you kept).' };
        const params = (op.parameters ??= []);
        if (!params.some((p) => p.name === 'If-None-Match')) {
          params.push({
            in: 'header',
            name: 'If-None-Match',
            required: false,
            description: 'The ETag of an answer you kept (its version, `"3"`, or a weak `W/"…"`), alone, in a list, or `*`: 304 with no body while the answer is the same.',
            schema: { type: 'string' },
          } as never);
        }
      }
      // Every route that answers 412 reads If-Match.
      if (method === 'patch' || path.includes('/games/') || r['412']) {
        const params = (op.parameters ??= []);
        if (!params.some((p) => p.name === 'If-Match')) {
          params.push({
            in: 'header',
            name: 'If-Match',
            required: false,
            description: 'The `version` you last read, as `"<version>"`; 412 when it is no longer current.',
            schema: { type: 'string' },
          } as never);
        }
      }
    }
  }
}

const WRITES = ['post', 'patch', 'put', 'delete'];

/** The reads a client may ask a standby for (`Prefer: replica`): the statement, the standings and the games export. */
const REPLICA_READS = ['getSessionStatement', 'getSessionStandings', 'listSessionGames'];

/**
 * GET /metrics, served by a Fastify route of its own (src/metrics) rather than a Nest
 * controller: Prometheus's text format, behind a bearer token when METRICS_TOKEN is set.
 */
function addMetricsPath(doc: OpenAPIObject): void {
  doc.paths['/metrics'] = {
    get: {
      operationId: 'getMetrics',
      tags: ['Service'],
      summary: 'Prometheus metrics (a bearer token when METRICS_TOKEN is set)',
      description:
        'Prometheus text format: requests by route template and status, their latency, the database pool, the event log and the webhook queue (read when scraped), and the process. ' +
        'Open when METRICS_TOKEN is not set; otherwise `Authorization: Bearer <METRICS_TOKEN>` (not an API key), else 401.',
      security: [],
      responses: {
        '200': { description: 'The metrics, in Prometheus text exposition format 0.0.4.', content: { 'text/plain': { schema: { type: 'string' } } } },
        '401': problem('METRICS_TOKEN is set and the request does not carry it (UNAUTHENTICATED).'),
      },
    },
  };
}

/**
 * The sentence a route's 422 answer ends with: its refusals by the rules, each with the
 * rule ids it is raised with (src/domain/error-codes.ts), then its HTTP-layer 422 codes.
 */
function describeRefusals(codes: readonly string[]): string {
  const byRule = codes.filter(isDomainErrorCode).map((c) => (rulesOf(c).length > 0 ? `${c} (${rulesOf(c).join(', ')})` : c));
  const http = codes.filter((c) => !isDomainErrorCode(c));
  return (byRule.length > 0 ? ` Refusals by the rules on this route: ${byRule.join(', ')}.` : '') + (http.length > 0 ? ` Also answered 422 here: ${http.join(', ')}.` : '');
}

/**
 * Gives every error answer the codes it can carry (`x-error-codes`) and an example of
 * its own status: the codes its description names, and on the 422 answer the route's
 * refusals by the rules (declared with ApiRefusals), which its description then lists.
 */
function describeProblems(doc: OpenAPIObject): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
      const op = raw as Op & Record<string, unknown>;
      const refusals = (op[REFUSALS_EXTENSION] as string[] | undefined) ?? [];
      delete op[REFUSALS_EXTENSION];
      if (refusals.length > 0) {
        op.responses['422'] ??= problem('A rule refuses it; `code` and `rule` say which.');
        op.responses['422'].description += describeRefusals(refusals);
      }
      const instance = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'gameNo' ? '1' : '8d1f5f0e-7a43-4c1e-9b7a-2f6c3e9d0a51'));
      for (const [key, response] of Object.entries(op.responses)) {
        const status = Number(key);
        if (!(status >= 400)) continue;
        const named = codesNamedIn(response.description);
        if (status === 422 && WRITES.includes(method)) named.push('IDEMPOTENCY_KEY_REUSED');
        const codes = codesOfStatus(status, status === 422 ? [...refusals, ...named] : named);
        const content = (response.content ??= { [PROBLEM_JSON]: { schema: PROBLEM_REF } }) as Record<string, { example?: unknown }>;
        if (codes.length > 0) (response as Record<string, unknown>)['x-error-codes'] = codes;
        if (content[PROBLEM_JSON]) content[PROBLEM_JSON].example = problemExample(status, codes, instance);
      }
    }
  }
}

/** The only fields that are real numbers; every other number of this API is a whole one (money in minor units, counts, versions). */
const FRACTIONAL = new Set(['rating', 'rakePercent']);

/** Marks whole-number fields and parameters `integer`, so clients and fuzzers know that 1.5 is refused. */
function markIntegers(v: unknown, name?: string): void {
  if (Array.isArray(v)) return v.forEach((x) => markIntegers(x, name));
  if (!v || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  if (o.type === 'number' && !FRACTIONAL.has(name ?? '')) o.type = 'integer';
  if (o.properties && typeof o.properties === 'object') {
    for (const [k, prop] of Object.entries(o.properties)) markIntegers(prop, k);
  }
  if (o.items) markIntegers(o.items, name);
  if (o.schema && typeof o.name === 'string') markIntegers(o.schema, o.name);
  for (const [k, child] of Object.entries(o)) {
    if (k !== 'properties' && k !== 'items' && k !== 'schema') markIntegers(child, undefined);
  }
}

/**
 * A nullable reference as OpenAPI 3.0 validators read it. Nest writes `{ allOf: [{ $ref }],
 * nullable: true }`, but `nullable` only widens a `type` beside it, and the `$ref`'s
 * schema does not admit null: strict validators refuse a `null` that the API sends. The
 * honest 3.0 form is either the referenced object or null: `anyOf: [{ $ref }, { nullable,
 * enum: [null] }]` (the field's description and other keywords stay).
 */
function nullableRefs(v: unknown): void {
  if (Array.isArray(v)) return v.forEach(nullableRefs);
  if (!v || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  const allOf = o.allOf;
  if (o.nullable === true && Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as { $ref?: unknown }).$ref === 'string') {
    delete o.allOf;
    delete o.nullable;
    delete o.type;
    o.anyOf = [allOf[0], { type: 'object', nullable: true, enum: [null] }];
  }
  for (const child of Object.values(o)) nullableRefs(child);
}

/**
 * A nullable enum admits null only when null is one of its values (OpenAPI 3.0.3: `nullable`
 * widens the type, and the `enum` still applies), so the null the API sends is listed.
 */
function nullableEnums(v: unknown): void {
  if (Array.isArray(v)) return v.forEach(nullableEnums);
  if (!v || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...(o.enum as unknown[]), null];
  for (const child of Object.values(o)) nullableEnums(child);
}

/** Object keys sorted at every level, so the committed document diffs cleanly. */
function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Backgammon club scorekeeping API')
    .setDescription(
      'Match play with the Crawford rule, chouettes, money games and settlement statements for backgammon clubs. ' +
        'Rules are cited by id (R3.4) and explained in the rule book at /docs/rules (a refusal links its rule in `ruleUrl`). Errors are application/problem+json with a stable `code`. ' +
        'Conditional GETs: every JSON answer to a GET carries an ETag: its `version` (`"3"`, the one If-Match names) for a resource that has one, whose version goes up with every change its answer shows, ' +
        'else a weak one (`W/"…"`, from its body). Sent back in `If-None-Match` (alone, in a list, or `*`), an unchanged answer is 304 Not Modified with no body. ' +
        'Operations: GET /health (liveness), GET /ready (readiness) and GET /metrics (Prometheus text format; a bearer token when METRICS_TOKEN is set).',
    )
    .setVersion('1.0.0')
    .setLicense('UNLICENSED', 'https://choosealicense.com/no-permission/')
    .addServer('/', 'This server')
    .addTag('Service', 'Health and documents.')
    .addTag('Clubs and keys', 'Clubs (created by the operator) and their API keys.')
    .addTag('Players', 'The club\'s players.')
    .addTag('Sessions', 'Club meetings: money, ledger and settlement (R6).')
    .addTag('Matches', 'Match play to odd targets with the Crawford rule (R3).')
    .addTag('Money games', 'Two-player money play at a stake per point (R4).')
    .addTag('Chouettes', 'The box against a team, per-member or single cubes, rotation, joining and leaving (R5).')
    .addTag('Tournaments', 'A director\'s event: entries, flights, the knockout or Swiss draw, pairings played as matches, places and prizes (R9).')
    .addTag('Events', 'Every change as an event: pages of the log, and a live stream of server-sent events.')
    .addTag('Webhooks', "The club's events POSTed to owners' URLs, signed (Standard Webhooks), retried, and logged.")
    // addSecurity, not addBearerAuth: that one labels the scheme `bearerFormat: 'JWT'` by
    // default, and neither an API key (bgk_…) nor the operator token is a JWT.
    .addSecurity('bearer', { type: 'http', scheme: 'bearer', description: 'A club API key (bgk_…) or, for POST /v1/clubs, the operator token.' })
    .build();
  // Every handler names its operationId in @ApiOperation (lowerCamelCase verb and noun,
  // test/unit/openapi-operations.spec.ts): they are what client generators name methods by.
  const doc = SwaggerModule.createDocument(app, config);
  addMetricsPath(doc);
  addStandardProblems(doc);
  describeProblems(doc);
  markIntegers(doc);
  nullableRefs(doc);
  nullableEnums(doc);
  return sortDeep(doc) as OpenAPIObject;
}
