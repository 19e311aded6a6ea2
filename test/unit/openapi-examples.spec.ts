import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, statusOf } from '../../src/common/error-codes';
import { DOMAIN_ERROR_CODES, isDomainErrorCode } from '../../src/domain/error-codes';

interface Answer {
  description: string;
  'x-error-codes'?: string[];
  content?: Record<string, { example?: { status?: number; code?: string; rule?: string; errors?: unknown[]; errorCount?: number } }>;
}

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
};

const PROBLEM = 'application/problem+json';
const httpCodes = Object.values(ErrorCode) as string[];

/** Every documented error answer of every operation. */
const errorAnswers = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).flatMap(([method, op]) =>
    Object.entries(op.responses)
      .filter(([status]) => Number(status) >= 400)
      .map(([status, answer]) => ({ route: `${method.toUpperCase()} ${path}`, status: Number(status), answer })),
  ),
);

const answerOf = (route: string, status: number) => errorAnswers.find((a) => a.route === route && a.status === status)?.answer;

describe("the OpenAPI document's error answers", () => {
  it('each carry a problem+json example of their own status with a code of that status', () => {
    expect(errorAnswers.length).toBeGreaterThan(100);
    const wrong = errorAnswers.flatMap(({ route, status, answer }) => {
      if (route === 'GET /health') return []; // answers its own body, not a problem
      const example = answer.content?.[PROBLEM]?.example;
      if (!example) return [`${route} ${status}: no example`];
      const code = example.code ?? '';
      const codeStatus = isDomainErrorCode(code) ? 422 : httpCodes.includes(code) ? statusOf(code as ErrorCode) : undefined;
      return example.status === status && codeStatus === status ? [] : [`${route} ${status}: example ${example.status} ${code}`];
    });
    expect(wrong).toEqual([]);
  });

  it("each carry an example at every media type they answer with, the health check's own 503 body included", () => {
    const missing = errorAnswers.flatMap(({ route, status, answer }) =>
      Object.entries(answer.content ?? {})
        .filter(([, media]) => media.example === undefined)
        .map(([type]) => `${route} ${status} ${type}`),
    );
    expect(missing).toEqual([]);
    expect(answerOf('GET /health', 503)?.content?.['application/json']?.example).toEqual({ status: 'unavailable', database: 'down' });
  });

  it('show the code of their own status on the answers every authenticated route gives: 401 UNAUTHENTICATED, 403 FORBIDDEN, 404 NOT_FOUND', () => {
    const wrong = errorAnswers
      .filter(({ status }) => status === 401 || status === 403 || status === 404)
      .filter(({ status, answer }) => answer.content?.[PROBLEM]?.example?.code !== { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[status])
      .map(({ route, status }) => `${route} ${status}`);
    expect(wrong).toEqual([]);
  });

  it('show a refusal with its rule on a route that has refusals, and a 400 with its field errors', () => {
    const refusal = answerOf('POST /v1/matches', 422)?.content?.[PROBLEM]?.example;
    expect(refusal?.status).toBe(422);
    expect(isDomainErrorCode(refusal?.code ?? '')).toBe(true);
    expect(refusal?.rule).toMatch(/^R\d+\.\d+$/);
    const invalid = answerOf('POST /v1/matches', 400)?.content?.[PROBLEM]?.example;
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', errorCount: 1 });
    expect(invalid?.errors).toHaveLength(1);
    expect(answerOf('GET /v1/club', 401)?.content?.[PROBLEM]?.example).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(answerOf('PATCH /v1/sessions/{id}', 412)?.content?.[PROBLEM]?.example).toMatchObject({ status: 412, code: 'VERSION_MISMATCH' });
  });

  it('list only codes that exist and are answered with that status', () => {
    const wrong = errorAnswers.flatMap(({ route, status, answer }) =>
      (answer['x-error-codes'] ?? [])
        .filter((c) => !(isDomainErrorCode(c) ? status === 422 : httpCodes.includes(c) && statusOf(c as ErrorCode) === status))
        .map((c) => `${route} ${status}: ${c}`),
    );
    expect(wrong).toEqual([]);
  });

  it("list every refusal by the rules on some route's 422 answer, and name them in its description", () => {
    const listed = new Set(errorAnswers.filter((a) => a.status === 422).flatMap((a) => a.answer['x-error-codes'] ?? []));
    expect(DOMAIN_ERROR_CODES.filter((c) => !listed.has(c))).toEqual([]);
    const described = errorAnswers
      .filter((a) => a.status === 422)
      .flatMap((a) => (a.answer['x-error-codes'] ?? []).filter((c) => isDomainErrorCode(c) && !a.answer.description.includes(c)).map((c) => `${a.route}: ${c}`));
    expect(described).toEqual([]);
  });

  it('list the refusals a route family can answer (sessions, payments, games)', () => {
    expect(answerOf('POST /v1/sessions/{id}/close', 422)?.['x-error-codes']).toContain('GAMES_IN_PROGRESS');
    expect(answerOf('PATCH /v1/sessions/{id}', 422)?.['x-error-codes']).toContain('SESSION_CLOSED');
    expect(answerOf('POST /v1/sessions/{id}/payments', 422)?.['x-error-codes']).toEqual(
      expect.arrayContaining(['SAME_PARTY', 'AMOUNT_OUT_OF_RANGE', 'UNKNOWN_PLAYER', 'IDEMPOTENCY_KEY_REUSED']),
    );
    for (const table of ['matches', 'money-games', 'chouettes']) {
      expect(answerOf(`POST /v1/${table}/{id}/games/{gameNo}/actions`, 422)?.['x-error-codes']).toEqual(expect.arrayContaining(['OFFER_PENDING', 'GAME_FINISHED', 'SESSION_CLOSED']));
    }
    expect(answerOf('GET /v1/club', 401)?.['x-error-codes']).toEqual(['UNAUTHENTICATED']);
  });
});
