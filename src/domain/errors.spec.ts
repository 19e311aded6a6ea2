import { RuleViolation, refuse } from './errors';

describe('RuleViolation', () => {
  it('carries the code and the rule id', () => {
    expect(() => refuse('NOT_ODD', 'R3.1', 'target must be odd')).toThrow(RuleViolation);
    try {
      refuse('NOT_ODD', 'R3.1', 'target must be odd');
    } catch (e) {
      expect(e).toMatchObject({ code: 'NOT_ODD', rule: 'R3.1', message: 'target must be odd' });
    }
  });
});
