import fc from 'fast-check';
import { currencyMinorDigits, groupedDecimal, minorToDecimal } from './currency';

describe('currencyMinorDigits (ISO 4217)', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['GBP', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['CLP', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['IQD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['HUF', 2],
    ['IDR', 2],
    ['XAU', 0],
    ['jpy', 0],
  ])('%s has %i', (currency, digits) => {
    expect(currencyMinorDigits(currency)).toBe(digits);
  });
});

describe('minorToDecimal: exact major units from integer minor units', () => {
  it.each<[number | bigint, number, string]>([
    [-1234, 2, '-12.34'],
    [1234, 2, '12.34'],
    [500, 0, '500'],
    [-500, 0, '-500'],
    [0, 0, '0'],
    [0, 2, '0.00'],
    [-0, 2, '0.00'],
    [0, 3, '0.000'],
    [5, 2, '0.05'],
    [-5, 2, '-0.05'],
    [-5, 3, '-0.005'],
    [1, 3, '0.001'],
    [1000, 3, '1.000'],
    [-123456, 3, '-123.456'],
    [99, 2, '0.99'],
    [100, 2, '1.00'],
    [12345, 4, '1.2345'],
    [Number.MAX_SAFE_INTEGER, 0, '9007199254740991'],
    [Number.MAX_SAFE_INTEGER, 2, '90071992547409.91'],
    [-Number.MAX_SAFE_INTEGER, 2, '-90071992547409.91'],
    [Number.MAX_SAFE_INTEGER, 3, '9007199254740.991'],
    [-Number.MAX_SAFE_INTEGER, 3, '-9007199254740.991'],
    [18014398509481982n, 2, '180143985094819.82'],
  ])('(%s, %i) → %s', (minor, digits, text) => {
    expect(minorToDecimal(minor, digits)).toBe(text);
  });

  it('refuses a fraction, an unsafe number and a bad digit count', () => {
    expect(() => minorToDecimal(0.5, 2)).toThrow(RangeError);
    expect(() => minorToDecimal(Number.MAX_SAFE_INTEGER + 1, 2)).toThrow(RangeError);
    expect(() => minorToDecimal(NaN, 2)).toThrow(RangeError);
    expect(() => minorToDecimal(1, -1)).toThrow(RangeError);
    expect(() => minorToDecimal(1, 1.5)).toThrow(RangeError);
  });

  it('round-trips: dropping the point gives back the integer, with exactly `digits` decimals', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 4 }), (minor, digits) => {
        const text = minorToDecimal(minor, digits);
        const [whole, fraction = ''] = text.split('.');
        expect(fraction).toHaveLength(digits);
        expect(whole).toMatch(/^-?(0|[1-9]\d*)$/);
        expect(BigInt(whole + fraction)).toBe(BigInt(minor));
        expect(text.startsWith('-')).toBe(minor < 0);
      }),
    );
  });

  it('groups the whole part by three for print', () => {
    expect(groupedDecimal(123456789, 2)).toBe('1,234,567.89');
    expect(groupedDecimal(-123456, 0)).toBe('-123,456');
    expect(groupedDecimal(999, 0)).toBe('999');
    expect(groupedDecimal(-5, 2)).toBe('-0.05');
    expect(groupedDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe('90,071,992,547,409.91');
  });
});
