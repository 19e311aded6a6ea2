/**
 * R9.9: prize pools, the house's commission, payouts and shared places, to the minor unit.
 * Every expected figure is worked by hand from the rule; the property checks that prizes
 * and house always add up to the pool.
 */
import fc from 'fast-check';
import { assertPayouts, Placed, prizeTable } from './prizes';
import { expectRefusal } from './test-helpers';

const placed = (playerId: string, place: number, seed: number): Placed => ({ playerId, place, seed });
const main = (payouts: number[]) => ({ main: payouts, consolation: [] });

describe('R9.9 prize table', () => {
  it('R9.9: 6 entries at 20.00 with 10 % to the house and 70/30: pool 120.00, house 12.00, 75.60 and 32.40', () => {
    const t = prizeTable({ poolMinor: 6 * 2000, housePercent: 10, payouts: main([70, 30]), main: [placed('a', 1, 3), placed('b', 2, 1), placed('c', 3, 2)], consolation: [] });
    expect(t).toEqual({
      poolMinor: 12000,
      houseMinor: 1200,
      prizes: [
        { playerId: 'a', place: 1, amountMinor: 7560, bracket: 'main' },
        { playerId: 'b', place: 2, amountMinor: 3240, bracket: 'main' },
      ],
    });
  });

  it('R9.9: the house is rounded down, each share is rounded down, and the rest goes to 1st', () => {
    // Pool 10.01: house floor(100.1) = 100; 901 left: 70 % is 630.7 → 630, 30 % is 270.3 → 270; the 1 left over to 1st.
    const t = prizeTable({ poolMinor: 1001, housePercent: 10, payouts: main([70, 30]), main: [placed('a', 1, 1), placed('b', 2, 2)], consolation: [] });
    expect(t.houseMinor).toBe(100);
    expect(t.prizes.map((p) => [p.playerId, p.amountMinor])).toEqual([
      ['a', 631],
      ['b', 270],
    ]);
  });

  it('R9.9: two 3rd-equal share the 3rd and 4th prizes evenly, the odd minor unit to the better seed', () => {
    // Pool 1.00, no house: 50, 19, 16 and 15; the 3rd-equal share 16 + 15 = 31: 16 to seed 3, 15 to seed 4.
    const t = prizeTable({
      poolMinor: 100,
      housePercent: 0,
      payouts: main([50, 19, 16, 15]),
      main: [placed('w', 1, 2), placed('r', 2, 1), placed('s4', 3, 4), placed('s3', 3, 3)],
      consolation: [],
    });
    expect(t.prizes).toEqual([
      { playerId: 'w', place: 1, amountMinor: 50, bracket: 'main' },
      { playerId: 'r', place: 2, amountMinor: 19, bracket: 'main' },
      { playerId: 's3', place: 3, amountMinor: 16, bracket: 'main' },
      { playerId: 's4', place: 3, amountMinor: 15, bracket: 'main' },
    ]);
  });

  it('R9.9: a paid place nobody holds (too few entries) pays its share to 1st, so nothing is left in the pool', () => {
    // 50/30/20 with two players: the 20 % of 10.00 goes to 1st with his 50 %.
    const t = prizeTable({ poolMinor: 1000, housePercent: 0, payouts: main([50, 30, 20]), main: [placed('a', 1, 1), placed('b', 2, 2)], consolation: [] });
    expect(t.prizes.map((p) => [p.playerId, p.amountMinor])).toEqual([
      ['a', 700],
      ['b', 300],
    ]);
  });

  it('R9.9, R9.11: main and consolation places from one pool', () => {
    // 8 × 10.00 = 80.00, 5 % house = 4.00, 76.00 left: 40 % 30.40, 25 % 19.00, 25 % 19.00, 10 % 7.60.
    const t = prizeTable({
      poolMinor: 8000,
      housePercent: 5,
      payouts: { main: [40, 25], consolation: [25, 10] },
      main: [placed('m1', 1, 1), placed('m2', 2, 2)],
      consolation: [placed('c1', 1, 5), placed('c2', 2, 6)],
    });
    expect(t.houseMinor).toBe(400);
    expect(t.prizes.map((p) => [p.bracket, p.place, p.playerId, p.amountMinor])).toEqual([
      ['main', 1, 'm1', 3040],
      ['main', 2, 'm2', 1900],
      ['consolation', 1, 'c1', 1900],
      ['consolation', 2, 'c2', 760],
    ]);
  });

  it('R9.9: no pool (no entry fee), no prizes; a 100 % house takes it all', () => {
    expect(prizeTable({ poolMinor: 0, housePercent: 10, payouts: main([100]), main: [placed('a', 1, 1)], consolation: [] })).toEqual({ poolMinor: 0, houseMinor: 0, prizes: [] });
    expect(prizeTable({ poolMinor: 999, housePercent: 100, payouts: main([100]), main: [placed('a', 1, 1)], consolation: [] })).toEqual({ poolMinor: 999, houseMinor: 999, prizes: [] });
  });

  it('R9.9: the payouts are whole percentages from 0 to 100 adding up to 100, the house a whole percentage from 0 to 100', () => {
    expect(() => assertPayouts(main([70, 30]), 10)).not.toThrow();
    expect(() => assertPayouts({ main: [40, 25], consolation: [25, 10] }, 0)).not.toThrow();
    expectRefusal(() => assertPayouts(main([60, 30]), 10), 'INVALID_PAYOUTS', 'R9.9');
    expectRefusal(() => assertPayouts(main([70.5, 29.5]), 10), 'INVALID_PAYOUTS', 'R9.9');
    expectRefusal(() => assertPayouts(main([110, -10]), 10), 'INVALID_PAYOUTS', 'R9.9');
    expectRefusal(() => assertPayouts(main([]), 10), 'INVALID_PAYOUTS', 'R9.9');
    expectRefusal(() => assertPayouts(main([100]), 101), 'INVALID_PAYOUTS', 'R9.9');
    expectRefusal(() => assertPayouts(main([100]), 2.5), 'INVALID_PAYOUTS', 'R9.9');
    expectRefusal(() => prizeTable({ poolMinor: 10.5, housePercent: 0, payouts: main([100]), main: [], consolation: [] }), 'AMOUNT_OUT_OF_RANGE', 'R6.2');
  });
});

/** Whole percentages adding up to 100, split over `parts` places. */
const percentages = (parts: number) =>
  fc.array(fc.integer({ min: 0, max: 100 }), { minLength: parts - 1, maxLength: parts - 1 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 100];
    return points.slice(1).map((p, i) => p - points[i]);
  });

/** Knockout-like places for n players: 1, 2, then 3rd equal, 5th equal, … (as R9.5 gives them). */
function knockoutLike(n: number, prefix: string, seedFrom: number): Placed[] {
  const out: Placed[] = [];
  for (let i = 0; i < n; i++) {
    const place = i < 2 ? i + 1 : 2 ** Math.floor(Math.log2(i)) + 1;
    out.push(placed(`${prefix}${i}`, place, seedFrom + ((i * 7) % n)));
  }
  return out;
}

describe('R9.9 properties', () => {
  it('R9.9: prizes + house = pool to the minor unit; no prize is negative; players sharing a place differ by at most 1, the better seed not less', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        // Up to 6 main places and up to 3 consolation places, sharing one 100 %.
        fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 })).chain(([k, j]) => percentages(k + j).map((pct) => ({ main: pct.slice(0, k), consolation: pct.slice(k) }))),
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 0, max: 20 }),
        (pool, house, payouts, nMain, nCons) => {
          const withConsolation = payouts.consolation.length > 0;
          const m = knockoutLike(nMain, 'm', 1);
          const c = withConsolation ? knockoutLike(nCons, 'c', nMain + 1) : [];
          const t = prizeTable({ poolMinor: pool, housePercent: house, payouts, main: m, consolation: c });
          const paid = t.prizes.reduce((a, p) => a + p.amountMinor, 0);
          expect(t.houseMinor).toBe(Math.floor((pool * house) / 100));
          expect(paid + t.houseMinor).toBe(pool);
          for (const p of t.prizes) expect(Number.isSafeInteger(p.amountMinor) && p.amountMinor > 0).toBe(true);
          // Equal places (besides main 1st, who also takes the remainder) share evenly, better seed first.
          const seedOf = new Map([...m, ...c].map((x) => [`${x.playerId}`, x.seed]));
          const groups = new Map<string, Array<{ seed: number; amount: number }>>();
          for (const p of t.prizes) {
            if (p.bracket === 'main' && p.place === 1) continue;
            const key = `${p.bracket}:${p.place}`;
            groups.set(key, [...(groups.get(key) ?? []), { seed: seedOf.get(p.playerId) as number, amount: p.amountMinor }]);
          }
          for (const g of groups.values()) {
            const amounts = g.map((x) => x.amount);
            expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
            const bySeed = [...g].sort((a, b) => a.seed - b.seed);
            for (let i = 1; i < bySeed.length; i++) expect(bySeed[i].amount).toBeLessThanOrEqual(bySeed[i - 1].amount);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
