import { RuleViolation } from './errors';
import { AMOUNT_OUT_OF_RANGE, MAX_MINOR, addMinor, assertMinor, fromBigMinor, grossDeltas, isSafeMinor, reportableMinor, sumMinor } from './money';

function refusal(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('expected a RuleViolation, nothing was thrown');
}

describe('R6.2 integer minor units (money helpers)', () => {
  it('R6.2 accepts safe integers up to ±(2^53 − 1)', () => {
    expect(isSafeMinor(0)).toBe(true);
    expect(isSafeMinor(-1500)).toBe(true);
    expect(isSafeMinor(MAX_MINOR)).toBe(true);
    expect(isSafeMinor(-MAX_MINOR)).toBe(true);
    expect(assertMinor(42)).toBe(42);
  });

  it.each([
    ['a fraction', 1.5],
    ['past 2^53 − 1', MAX_MINOR + 1],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['a string', '100'],
    ['a bigint', 100n],
  ])('R6.2 refuses %s with AMOUNT_OUT_OF_RANGE', (_label, value) => {
    expect(refusal(() => assertMinor(value, 'stakeMinor'))).toMatchObject({
      code: AMOUNT_OUT_OF_RANGE,
      rule: 'R6.2',
    });
  });

  it('R6.2 sums exactly in BigInt, beyond what a double could hold', () => {
    // MAX + MAX − 1 = 2^54 − 3 is not representable as a safe number, but the BigInt sum is exact.
    expect(sumMinor([MAX_MINOR, MAX_MINOR, -1])).toBe(2n * BigInt(MAX_MINOR) - 1n);
    expect(sumMinor([])).toBe(0n);
  });

  it('R6.2 converts back from BigInt only when safe', () => {
    expect(fromBigMinor(-5n)).toBe(-5);
    expect(fromBigMinor(BigInt(MAX_MINOR))).toBe(MAX_MINOR);
    expect(refusal(() => fromBigMinor(BigInt(MAX_MINOR) + 1n)).code).toBe(AMOUNT_OUT_OF_RANGE);
  });

  it('R6.2 checked addition refuses an overflowing result', () => {
    expect(addMinor(2, 3)).toBe(5);
    expect(addMinor(MAX_MINOR, -MAX_MINOR)).toBe(0);
    expect(refusal(() => addMinor(MAX_MINOR, 1)).code).toBe(AMOUNT_OUT_OF_RANGE);
  });
});

describe('R6.2 bound: gross money per party (grossDeltas)', () => {
  it('adds |amount| to both parties of every transfer', () => {
    const d = grossDeltas([
      { from: 'a', to: 'b', amountMinor: 300 },
      { from: 'b', to: 'house', amountMinor: 30 },
    ]);
    expect(d).toEqual(
      new Map([
        ['a', 300n],
        ['b', 330n],
        ['house', 30n],
      ]),
    );
  });

  it('a reversal takes back what the transfer it reverses added, so a void leaves the gross as before', () => {
    const game = [
      { from: 'a', to: 'b', amountMinor: 300 },
      { from: 'b', to: 'house', amountMinor: 30 },
    ];
    const voided = game.map((e) => ({ from: e.to, to: e.from, amountMinor: e.amountMinor, reverses: true }));
    expect(grossDeltas(voided)).toEqual(
      new Map([
        ['a', -300n],
        ['b', -330n],
        ['house', -30n],
      ]),
    );
    expect(grossDeltas([...game, ...voided])).toEqual(new Map());
  });

  it('is exact past 2^53 − 1 (BigInt), so the bound can be checked without rounding', () => {
    const d = grossDeltas([
      { from: 'a', to: 'box', amountMinor: MAX_MINOR },
      { from: 'c', to: 'box', amountMinor: MAX_MINOR },
    ]);
    expect(d.get('box')).toBe(2n * BigInt(MAX_MINOR));
    expect(d.get('a')).toBe(BigInt(MAX_MINOR));
  });

  it('refuses an amount that is not a safe integer (R6.2)', () => {
    expect(refusal(() => grossDeltas([{ from: 'a', to: 'b', amountMinor: 2 ** 53 }]))).toMatchObject({ code: AMOUNT_OUT_OF_RANGE, rule: 'R6.2' });
  });
});

describe('R6.2 on a read: a figure is answered exactly or not at all (reportableMinor)', () => {
  it('answers a safe integer unchanged', () => {
    expect(reportableMinor(MAX_MINOR)).toBe(MAX_MINOR);
    expect(reportableMinor(-MAX_MINOR)).toBe(-MAX_MINOR);
    expect(reportableMinor(0)).toBe(0);
  });

  it.each([
    ['2^53', 2 ** 53],
    ['-(2^53)', -(2 ** 53)],
    ['a fraction', 1.5],
    ['NaN', Number.NaN],
  ])('refuses %s with AMOUNT_OUT_OF_RANGE', (_label, value) => {
    const e = refusal(() => reportableMinor(value));
    expect(e).toMatchObject({ code: AMOUNT_OUT_OF_RANGE, rule: 'R6.2' });
    expect(e.message).toBe(`A figure of this answer is beyond ±${MAX_MINOR} minor units, so it cannot be reported exactly (R6.2)`);
  });
});
