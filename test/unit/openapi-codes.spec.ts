import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, statusOf } from '../../src/common/error-codes';
import { isDomainErrorCode } from '../../src/domain/error-codes';

interface Operation {
  responses?: Record<string, { description?: string }>;
}

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };

/** Every documented 422 answer: "METHOD /path" and its description. */
const answers422 = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).flatMap(([method, op]) => {
    const description = op.responses?.['422']?.description;
    return description === undefined ? [] : [{ route: `${method.toUpperCase()} ${path}`, description }];
  }),
);

/** The codes a description names: words in SCREAMING_SNAKE_CASE with at least one underscore. */
const codesIn = (text: string) => text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [];

const answered422 = (code: string) => isDomainErrorCode(code) || ((Object.values(ErrorCode) as string[]).includes(code) && statusOf(code as ErrorCode) === 422);

describe("the OpenAPI document's 422 answers", () => {
  it('are documented, and most name their codes', () => {
    expect(answers422.length).toBeGreaterThan(10);
    expect(answers422.filter((a) => codesIn(a.description).length > 0).length).toBeGreaterThan(10);
  });

  it('name only codes that are answered 422: a refusal by the rules or a 422 of the HTTP layer', () => {
    const unknown = answers422.flatMap(({ route, description }) =>
      codesIn(description)
        .filter((c) => !answered422(c))
        .map((c) => `${route}: ${c}`),
    );
    expect(unknown).toEqual([]);
  });

  it('would notice a code that is not one (the check itself)', () => {
    expect(codesIn('A rule refuses it: TARGET_EVEN (R3.1), TARGET_EVENN, UNKNOWN_PLAYER').filter((c) => !answered422(c))).toEqual(['TARGET_EVENN']);
    expect(answered422('NOT_FOUND')).toBe(false);
    expect(answered422('LAST_OWNER_KEY')).toBe(true);
  });
});
