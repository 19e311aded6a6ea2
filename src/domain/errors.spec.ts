import { DOMAIN_ERROR_CODES, isDomainErrorCode } from './error-codes';
import { inBatch, RuleViolation, refuse } from './errors';

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

describe('inBatch', () => {
  it('answers what the action answers', () => {
    expect(inBatch(0, () => 7)).toBe(7);
  });

  it('names the refused action, keeping its code, rule and details', () => {
    try {
      inBatch(2, () => refuse('OFFER_PENDING', 'R2.6', 'A double is waiting for an answer', { cube: 0 }));
      throw new Error('not refused');
    } catch (e) {
      expect(e).toBeInstanceOf(RuleViolation);
      expect(e).toMatchObject({ code: 'OFFER_PENDING', rule: 'R2.6', message: 'Action 3: A double is waiting for an answer', details: { cube: 0, actionIndex: 2 } });
    }
  });

  it('lets any other failure through unchanged', () => {
    const boom = new Error('boom');
    expect(() =>
      inBatch(0, () => {
        throw boom;
      }),
    ).toThrow(boom);
  });
});
