import { DOMAIN_ERROR_CODES, isDomainErrorCode } from './error-codes';
import { RuleViolation, refuse } from './errors';

describe('RuleViolation', () => {
  it('carries the code and the rule id', () => {
    expect(() => refuse('TARGET_EVEN', 'R3.1', 'target must be odd')).toThrow(RuleViolation);
    try {
      refuse('TARGET_EVEN', 'R3.1', 'target must be odd');
    } catch (e) {
      expect(e).toMatchObject({ code: 'TARGET_EVEN', rule: 'R3.1', message: 'target must be odd' });
    }
  });

  it('takes only the codes of the union: a misspelt one does not compile', () => {
    const misspelt = () =>
      // @ts-expect-error TARGET_EVENN is not a DomainErrorCode (npm run typecheck fails if it were accepted)
      refuse('TARGET_EVENN', 'R3.1', 'target must be odd');
    expect(misspelt).toThrow(RuleViolation);
  });
});

describe('DOMAIN_ERROR_CODES', () => {
  it('lists each code once', () => {
    const seen = new Set<string>();
    const twice = DOMAIN_ERROR_CODES.filter((c) => seen.has(c) || !seen.add(c));
    expect(twice).toEqual([]);
  });

  it('spells every code in SCREAMING_SNAKE_CASE', () => {
    expect(DOMAIN_ERROR_CODES.filter((c) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(c))).toEqual([]);
  });

  it('knows its own codes and nothing else', () => {
    expect(isDomainErrorCode('SESSION_CLOSED')).toBe(true);
    expect(isDomainErrorCode('AMOUNT_OUT_OF_RANGE')).toBe(true);
    expect(isDomainErrorCode('NOT_FOUND')).toBe(false);
    expect(isDomainErrorCode('session_closed')).toBe(false);
  });
});
