import { ContractChecker, toJsonSchema } from '../support/contract';

/**
 * The check every e2e answer goes through (test/support/contract.ts) is strict in the
 * OpenAPI 3.0 sense: it refuses what the committed document does not admit, and admits
 * the nulls it documents (a nullable `$ref`, written as `anyOf` with null).
 */
describe('the response check against openapi/openapi.json', () => {
  const checker = ContractChecker.fromCommittedDocument();
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const problemJson = { 'content-type': 'application/problem+json; charset=utf-8' };
  const gameUrl = 'http://127.0.0.1:1234/v1/matches/8d1f5f0e-7a43-4c1e-9b7a-2f6c3e9d0a51/games/1?x=1';
  // A game in progress, as GameDto describes it.
  const game = {
    gameNo: 1,
    variant: 'backgammon',
    status: 'in-progress',
    crawford: false,
    automaticDoubles: 0,
    cubes: [],
    actions: [],
    result: null,
    points: null,
    winnerSide: null,
    payouts: [],
    startedAt: '2026-12-02T11:00:00.000Z',
    endedAt: null,
    voided: null,
    version: 1,
  };
  const answer = (body: unknown, status = 200, headers: Record<string, string> = json) => checker.check({ method: 'GET', url: gameUrl, status, headers, body: JSON.stringify(body) });

  it('admits a game whose nullable object fields (result, voided) are null', () => {
    expect(answer(game)).toBeNull();
  });

  it('refuses a game with `result: 5`, naming the request, the field and the body', () => {
    const problem = answer({ ...game, result: 5 });
    expect(problem).toContain('GET /v1/matches/8d1f5f0e-7a43-4c1e-9b7a-2f6c3e9d0a51/games/1 answered 200');
    expect(problem).toContain('/result');
    expect(problem).toContain('body: {"gameNo":1');
  });

  it('refuses a missing required field, a wrong enum value, a bad date-time and a whole number as a fraction', () => {
    const { version: _omitted, ...noVersion } = game;
    expect(answer(noVersion)).toContain("must have required property 'version'");
    expect(answer({ ...game, status: 'paused' })).toContain('/status');
    expect(answer({ ...game, startedAt: 'yesterday' })).toContain('/startedAt must match format "date-time"');
    expect(answer({ ...game, gameNo: 1.5 })).toContain('/gameNo must be integer');
  });

  it('refuses a status the operation does not document, and a content type it does not list', () => {
    expect(answer(game, 418)).toContain('status 418 is not documented for GET /v1/matches/{id}/games/{gameNo}');
    expect(answer(game, 200, { 'content-type': 'text/html' })).toContain('content type not documented');
    expect(answer({ type: 'x', title: 'Not Found', status: 404, detail: 'No such game.', code: 'NOT_FOUND' }, 404, json)).toContain('content type not documented');
  });

  it('holds an error answer to the problem schema', () => {
    const notFound = { type: 'urn:bgclub:problem:not-found', title: 'Not Found', status: 404, detail: 'No such game.', code: 'NOT_FOUND' };
    expect(answer(notFound, 404, problemJson)).toBeNull();
    const { code: _code, ...noCode } = notFound;
    expect(answer(noCode, 404, problemJson)).toContain("must have required property 'code'");
  });

  it('admits null for a nullable $ref (a cube with no pending offer) and refuses anything else there', () => {
    const cube = checker.component('CubeDto');
    const base = { member: null, value: 1, owner: null, status: 'in-play' };
    expect(cube({ ...base, pending: null })).toBe(true);
    expect(cube({ ...base, pending: 5 })).toBe(false);
  });

  it('reads `nullable` as OpenAPI 3.0 does: beside a type only, never beside a $ref', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, example: 'x', 'x-note': 1 })).toEqual({ type: ['string', 'null'] });
    expect(toJsonSchema({ $ref: '#/components/schemas/ResultDto', nullable: true })).toEqual({ $ref: 'openapi.json#/definitions/ResultDto' });
    expect(toJsonSchema({ type: 'integer', minimum: 0, exclusiveMinimum: true })).toEqual({ type: 'integer', exclusiveMinimum: 0 });
  });

  it('answers on paths the document leaves out: a problem (404, 405) or one of the listed pages', () => {
    const notFound = JSON.stringify({ type: 'urn:bgclub:problem:not-found', title: 'Not Found', status: 404, detail: 'No route.', code: 'NOT_FOUND' });
    expect(checker.check({ method: 'GET', url: '/v1/nothing-here', status: 404, headers: problemJson, body: notFound })).toBeNull();
    expect(checker.check({ method: 'GET', url: '/v1/nothing-here', status: 200, headers: json, body: '{}' })).toContain('the document has no such path');
    expect(checker.check({ method: 'PUT', url: '/v1/players', status: 404, headers: problemJson, body: notFound })).toContain('the answer must be 405');
    expect(checker.check({ method: 'GET', url: '/docs/rules', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>' })).toBeNull();
  });

  it("holds a 422's code to the route's documented 422 codes (x-error-codes)", () => {
    const refusal = (code: string) =>
      checker.check({
        method: 'POST',
        url: '/v1/matches/8d1f5f0e-7a43-4c1e-9b7a-2f6c3e9d0a51/games/1/actions',
        status: 422,
        headers: problemJson,
        body: JSON.stringify({ type: 'urn:bgclub:problem:x', title: 'Unprocessable Content', status: 422, detail: 'Refused.', code }),
      });
    expect(refusal('OFFER_PENDING')).toBeNull();
    expect(refusal('IDEMPOTENCY_KEY_REUSED')).toBeNull();
    expect(refusal('TOURNAMENT_NOT_OPEN')).toContain('code TOURNAMENT_NOT_OPEN is not among the 422 codes of POST /v1/matches/{id}/games/{gameNo}/actions');
  });
});
