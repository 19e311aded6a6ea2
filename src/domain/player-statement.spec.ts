import { isOutstanding, outstanding, rangeTotals, sessionOutstanding } from './player-statement';

const sums = (net: number, paid: number, received: number) => ({ net: BigInt(net), paid: BigInt(paid), received: BigInt(received) });

describe('R6.6 a player’s statement', () => {
  it('R6.6: the outstanding balance is net + paid − received; positive: owed money', () => {
    expect(outstanding(sums(-300, 0, 0))).toBe(-300n);
    expect(outstanding(sums(-300, 300, 0))).toBe(0n);
    expect(outstanding(sums(500, 0, 200))).toBe(300n);
    expect(sessionOutstanding({ netMinor: 250, paidMinor: 0, receivedMinor: 250 })).toBe(0n);
    expect(isOutstanding(0n)).toBe(false);
    expect(isOutstanding(-1n)).toBe(true);
  });

  it('R6.6: without a range, the totals are the whole history, opening at 0', () => {
    const [eur] = rangeTotals({ start: false, end: false, all: [{ currency: 'EUR', ...sums(500, 50, 200) }], dated: [] });
    expect(eur).toEqual({ currency: 'EUR', opening: 0n, net: 500n, paid: 50n, received: 200n, closing: 350n, balance: 350n });
  });

  it('R6.6: with a start, the opening is the balance less every session from the start on', () => {
    // Balance 300 over every session. In the range: net 100, paid 50 (outstanding 150); after it: net 20.
    // Opening 300 − 150 − 20 = 130; closing 130 + 150 = 280.
    const totals = rangeTotals({
      start: true,
      end: true,
      all: [{ currency: 'EUR', ...sums(500, 0, 200) }],
      dated: [
        { currency: 'EUR', after: false, ...sums(100, 50, 0) },
        { currency: 'EUR', after: true, ...sums(20, 0, 0) },
      ],
    });
    expect(totals).toEqual([{ currency: 'EUR', opening: 130n, net: 100n, paid: 50n, received: 0n, closing: 280n, balance: 300n }]);
  });

  it('R6.6: with only an end, the range is every session before it, opening at 0', () => {
    const totals = rangeTotals({ start: false, end: true, all: [{ currency: 'EUR', ...sums(500, 0, 200) }], dated: [{ currency: 'EUR', after: false, ...sums(-40, 40, 0) }] });
    expect(totals).toEqual([{ currency: 'EUR', opening: 0n, net: -40n, paid: 40n, received: 0n, closing: 0n, balance: 300n }]);
  });

  it('R6.6: one line per currency, in code order; a currency with nothing in the range still shows its balance', () => {
    const totals = rangeTotals({
      start: true,
      end: false,
      all: [
        { currency: 'USD', ...sums(10, 0, 0) },
        { currency: 'EUR', ...sums(-70, 0, 0) },
      ],
      dated: [{ currency: 'USD', after: false, ...sums(10, 0, 0) }],
    });
    expect(totals.map((t) => [t.currency, t.opening, t.closing, t.balance])).toEqual([
      ['EUR', -70n, -70n, -70n],
      ['USD', 0n, 10n, 10n],
    ]);
  });

  it('R6.6: sums stay exact past 2^53 (bigint)', () => {
    const big = 2 ** 53 - 1;
    const [t] = rangeTotals({ start: false, end: false, all: [{ currency: 'EUR', ...sums(big, big, 0) }], dated: [] });
    expect(t.balance).toBe(2n * BigInt(big));
  });
});
