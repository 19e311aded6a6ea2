import { describeError } from '../../src/common/describe-error';

describe('describeError (what "Failed to start:" prints)', () => {
  it('prints the message of an Error', () => {
    expect(describeError(new Error('port 3000 is taken'))).toBe('port 3000 is taken');
  });

  it('names an Error without a message by its class, code and stack, never "undefined"', () => {
    const e = Object.assign(new RangeError(''), { code: 'E_SOMETHING' });
    const text = describeError(e);
    expect(text).toContain('RangeError');
    expect(text).toContain('E_SOMETHING');
    expect(text).not.toMatch(/undefined/);
  });

  it('shows what was thrown when it is not an Error, and says so when nothing was', () => {
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError({ reason: 'lock held' })).toContain('lock held');
    for (const nothing of [undefined, null, '']) {
      const text = describeError(nothing);
      expect(text.length).toBeGreaterThan(10);
      expect(text).not.toMatch(/^(undefined|null)$/);
    }
  });
});
