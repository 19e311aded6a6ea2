import fc from 'fast-check';
import { RuleViolation } from './errors';
import {
  Balance,
  HOUSE,
  Transfer,
  basisPointsFromPercent,
  compareParty,
  netsFromEntries,
  outstandingBalances,
  percentFromBasisPoints,
  rakeFor,
  settleTransfers,
  sumsToZero,
} from './settlement';

const MAX = Number.MAX_SAFE_INTEGER;

function refusal(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('expected a RuleViolation, nothing was thrown');
}

function bal(entries: Record<string, number>): Balance[] {
  return Object.entries(entries).map(([party, balanceMinor]) => ({ party, balanceMinor }));
}

describe('R6.4 rake', () => {
  it('R6.4 takes the percentage of a winner net, rounded down to the minor unit', () => {
    // 1000 × 250 / 10000 = 25 exactly.
    expect(rakeFor(1000, 250)).toBe(25);
    // 999 × 250 / 10000 = 24.975 → 24 (down, not to nearest).
    expect(rakeFor(999, 250)).toBe(24);
    // 39 × 250 / 10000 = 0.975 → 0.
    expect(rakeFor(39, 250)).toBe(0);
    // 40 × 250 / 10000 = 1.
    expect(rakeFor(40, 250)).toBe(1);
    // 1234 × 1000 / 10000 = 123.4 → 123.
    expect(rakeFor(1234, 1000)).toBe(123);
    // 1 × 9999 / 10000 = 0.9999 → 0.
    expect(rakeFor(1, 9999)).toBe(0);
  });

  it('R6.4 a rake of 0 % (the default) takes nothing; 100 % takes the whole net', () => {
    expect(rakeFor(5000, 0)).toBe(0);
    expect(rakeFor(5000, 10_000)).toBe(5000);
  });

  it('R6.4 non-winners pay no rake', () => {
    expect(rakeFor(0, 250)).toBe(0);
    expect(rakeFor(-1000, 250)).toBe(0);
    expect(rakeFor(-MAX, 10_000)).toBe(0);
  });

  it('R6.4 stays exact at the top of the safe range (integer arithmetic, never a float)', () => {
    // (2^53 − 1) × 250 / 10000 = 9007199254740991 / 40 = 225179981368524.775 → 225179981368524.
    expect(rakeFor(MAX, 250)).toBe(225_179_981_368_524);
    // (2^53 − 1) × 9999 / 10000 = 9007199254740991 − 900719925474.0991 = 9006298534815516.9009 → 9006298534815516.
    expect(rakeFor(MAX, 9999)).toBe(9_006_298_534_815_516);
  });

  it.each([[-1], [10_001], [2.5], [NaN]])('R6.4 refuses a rake of %p basis points', (bp) => {
    expect(refusal(() => rakeFor(1000, bp))).toMatchObject({ code: 'INVALID_RAKE_PERCENT', rule: 'R6.4' });
  });

  it('R6.2 refuses a net that is not a safe integer', () => {
    expect(refusal(() => rakeFor(MAX + 1, 250))).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', rule: 'R6.2' });
    expect(refusal(() => rakeFor(10.5, 250))).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', rule: 'R6.2' });
  });

  it('R6.4 converts rakePercent to basis points without floating-point error', () => {
    expect(basisPointsFromPercent(2.5)).toBe(250);
    expect(basisPointsFromPercent('2.5')).toBe(250);
    expect(basisPointsFromPercent(0)).toBe(0);
    expect(basisPointsFromPercent(100)).toBe(10_000);
    // 0.1 × 100 is 10.000000000000002 in floating point; the text route gives 10.
    expect(basisPointsFromPercent(0.1)).toBe(10);
    expect(basisPointsFromPercent(0.29)).toBe(29);
    expect(basisPointsFromPercent(12.34)).toBe(1234);
    expect(basisPointsFromPercent('7.05')).toBe(705);
    expect(percentFromBasisPoints(250)).toBe(2.5);
  });

  it.each([[2.555], [100.01], [101], [-1], ['abc'], [1e-7], [''], ['2.']])('R6.4 refuses rakePercent %p', (p) => {
    expect(refusal(() => basisPointsFromPercent(p))).toMatchObject({ code: 'INVALID_RAKE_PERCENT', rule: 'R6.4' });
  });

  it('R6.4 property: 0 ≤ rake ≤ net and rake = floor(net × bp / 10000), checked in BigInt', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.maxSafeInteger(), fc.maxSafeNat()), fc.integer({ min: 0, max: 10_000 }), (net, bp) => {
        const rake = rakeFor(net, bp);
        expect(Number.isSafeInteger(rake)).toBe(true);
        if (net <= 0) {
          expect(rake).toBe(0);
        } else {
          expect(rake).toBeGreaterThanOrEqual(0);
          expect(rake).toBeLessThanOrEqual(net);
          expect(BigInt(rake)).toBe((BigInt(net) * BigInt(bp)) / 10_000n);
          // floor: rake × 10000 ≤ net × bp < (rake + 1) × 10000
          expect(BigInt(rake) * 10_000n <= BigInt(net) * BigInt(bp)).toBe(true);
          expect(BigInt(net) * BigInt(bp) < (BigInt(rake) + 1n) * 10_000n).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('R6.5 nets from entries and zero sums', () => {
  it('R6.5 sumsToZero is exact in BigInt', () => {
    expect(sumsToZero(bal({ a: 100, b: -60, c: -40 }))).toBe(true);
    expect(sumsToZero(bal({ a: 100, b: -60, c: -39 }))).toBe(false);
    expect(sumsToZero([])).toBe(true);
    // As doubles, MAX + MAX − 1 − MAX − MAX would not come out exact; in BigInt it is 0 − 1 = −1 ≠ 0.
    expect(sumsToZero(bal({ a: MAX, b: MAX, c: -1, d: -MAX, e: -MAX }))).toBe(false);
    expect(sumsToZero(bal({ a: MAX, b: MAX, d: -MAX, e: -MAX }))).toBe(true);
  });

  it('R6.5 netsFromEntries is received minus paid, keyed in party-id order', () => {
    const nets = netsFromEntries([
      { from: 'bob', to: 'alice', amountMinor: 400 },
      { from: 'carol', to: 'alice', amountMinor: 100 },
      { from: 'alice', to: HOUSE, amountMinor: 12 },
      { from: 'alice', to: 'bob', amountMinor: 50 },
    ]);
    // alice: +400 +100 −12 −50 = 438; bob: −400 +50 = −350; carol: −100; house: +12.
    expect([...nets.entries()]).toEqual([
      ['alice', 438],
      ['bob', -350],
      ['carol', -100],
      ['house', 12],
    ]);
  });

  it('R6.3 reversing entries (a void) bring every net back to zero', () => {
    const game: Transfer[] = [
      { from: 'bob', to: 'alice', amountMinor: 400 },
      { from: 'alice', to: HOUSE, amountMinor: 10 },
    ];
    const voided = game.map((e) => ({ from: e.to, to: e.from, amountMinor: e.amountMinor }));
    expect([...netsFromEntries([...game, ...voided]).values()]).toEqual([0, 0, 0]);
  });

  it('R6.2 netsFromEntries refuses unsafe amounts and nets', () => {
    expect(refusal(() => netsFromEntries([{ from: 'a', to: 'b', amountMinor: 0.5 }])).code).toBe('AMOUNT_OUT_OF_RANGE');
    expect(
      refusal(() =>
        netsFromEntries([
          { from: 'a', to: 'b', amountMinor: MAX },
          { from: 'a', to: 'b', amountMinor: 1 },
        ]),
      ).code,
    ).toBe('AMOUNT_OUT_OF_RANGE');
  });

  it('R6.6 outstanding = net + paid − received, over the payments of the session', () => {
    const nets = new Map([
      ['alice', 1500],
      ['bob', -1200],
      ['carol', -325],
      [HOUSE, 25],
    ]);
    const payments: Transfer[] = [
      { from: 'bob', to: 'alice', amountMinor: 1000 }, // bob: −1200 + 1000 = −200; alice: 1500 − 1000 = 500
      { from: 'carol', to: HOUSE, amountMinor: 25 }, // carol: −325 + 25 = −300; house: 25 − 25 = 0
      { from: 'dave', to: 'alice', amountMinor: 50 }, // dave had no net: 0 + 50 = 50; alice: 500 − 50 = 450
    ];
    const outstanding = outstandingBalances(nets, payments);
    expect(outstanding).toEqual([
      { party: 'alice', balanceMinor: 450 },
      { party: 'bob', balanceMinor: -200 },
      { party: 'carol', balanceMinor: -300 },
      { party: 'dave', balanceMinor: 50 },
      { party: HOUSE, balanceMinor: 0 },
    ]);
    // 450 − 200 − 300 + 50 + 0 = 0
    expect(sumsToZero(outstanding)).toBe(true);
    // bob owes 200, carol 300; alice is owed 450, dave 50.
    // Greedy: carol (300) → alice (450) 300; bob (200) → alice (150 left) 150; bob (50 left) → dave 50.
    expect(settleTransfers(outstanding)).toEqual([
      { from: 'carol', to: 'alice', amountMinor: 300 },
      { from: 'bob', to: 'alice', amountMinor: 150 },
      { from: 'bob', to: 'dave', amountMinor: 50 },
    ]);
  });
});

describe('R6.5 settlement transfers', () => {
  it('R6.5 one creditor, two debtors', () => {
    expect(settleTransfers(bal({ alice: 1500, bob: -1000, carol: -500 }))).toEqual([
      { from: 'bob', to: 'alice', amountMinor: 1000 },
      { from: 'carol', to: 'alice', amountMinor: 500 },
    ]);
  });

  it('R6.5 the house is just another party', () => {
    // bob lost 325: 300 to alice, 25 rake to the house.
    expect(settleTransfers(bal({ alice: 300, bob: -325, [HOUSE]: 25 }))).toEqual([
      { from: 'bob', to: 'alice', amountMinor: 300 },
      { from: 'bob', to: HOUSE, amountMinor: 25 },
    ]);
  });

  it('R6.5 largest debtor pays largest creditor; at most (non-zero parties − 1) transfers', () => {
    // Debtors a 700, b 300; creditors c 600, d 400.
    // a (700) → c (600): 600; c closed, a has 100 left and goes back behind b (300).
    // b (300) → d (400): 300; b closed, d has 100 left.
    // a (100) → d (100): 100; both closed.
    // 3 transfers for 4 non-zero parties; e (0) takes no part.
    expect(settleTransfers(bal({ a: -700, b: -300, c: 600, d: 400, e: 0 }))).toEqual([
      { from: 'a', to: 'c', amountMinor: 600 },
      { from: 'b', to: 'd', amountMinor: 300 },
      { from: 'a', to: 'd', amountMinor: 100 },
    ]);
  });

  it('R6.5 equal amounts are ordered by party id (code-unit order)', () => {
    // Debtors a, b (100 each); creditors c, d (100 each) → a → c, b → d.
    expect(settleTransfers(bal({ d: 100, b: -100, c: 100, a: -100 }))).toEqual([
      { from: 'a', to: 'c', amountMinor: 100 },
      { from: 'b', to: 'd', amountMinor: 100 },
    ]);
    // Upper case sorts before lower case in code-unit order: "Z" < "a".
    expect(compareParty('Z', 'a')).toBeLessThan(0);
    expect(settleTransfers(bal({ a: -5, Z: -5, x: 10 }))).toEqual([
      { from: 'Z', to: 'x', amountMinor: 5 },
      { from: 'a', to: 'x', amountMinor: 5 },
    ]);
  });

  it('R6.5 nothing outstanding means no transfers', () => {
    expect(settleTransfers([])).toEqual([]);
    expect(settleTransfers(bal({ alice: 0, bob: 0, [HOUSE]: 0 }))).toEqual([]);
  });

  it('R6.5 works at the edges of the safe range', () => {
    expect(settleTransfers(bal({ a: MAX, b: -MAX }))).toEqual([{ from: 'b', to: 'a', amountMinor: MAX }]);
    // The sum MAX − (MAX − 1) − 1 = 0 is checked exactly.
    expect(settleTransfers(bal({ a: MAX, b: -(MAX - 1), c: -1 }))).toEqual([
      { from: 'b', to: 'a', amountMinor: MAX - 1 },
      { from: 'c', to: 'a', amountMinor: 1 },
    ]);
  });

  it('R6.5 refuses balances that do not sum to zero (UNBALANCED)', () => {
    const e = refusal(() => settleTransfers(bal({ alice: 100, bob: -99 })));
    expect(e).toMatchObject({ code: 'UNBALANCED', rule: 'R6.5' });
    expect(e.details).toEqual({ sumMinor: '1' });
    // MAX + MAX − MAX − MAX + 1: a floating-point sum could round the 1 away.
    expect(refusal(() => settleTransfers(bal({ a: MAX, b: MAX, c: -MAX, d: -MAX, e: 1 }))).code).toBe('UNBALANCED');
  });

  it('R6.5 refuses a party listed twice and an empty party id', () => {
    expect(
      refusal(() =>
        settleTransfers([
          { party: 'a', balanceMinor: 5 },
          { party: 'a', balanceMinor: -5 },
        ]),
      ),
    ).toMatchObject({ code: 'DUPLICATE_PARTY', rule: 'R6.5' });
    expect(refusal(() => settleTransfers([{ party: '', balanceMinor: 0 }]))).toMatchObject({
      code: 'INVALID_PARTY',
      rule: 'R6.5',
    });
  });

  it('R6.2 refuses amounts past Number.MAX_SAFE_INTEGER', () => {
    expect(refusal(() => settleTransfers(bal({ a: MAX + 1, b: -(MAX + 1) })))).toMatchObject({
      code: 'AMOUNT_OUT_OF_RANGE',
      rule: 'R6.2',
    });
    expect(refusal(() => settleTransfers(bal({ a: 0.5, b: -0.5 }))).code).toBe('AMOUNT_OUT_OF_RANGE');
  });

  describe('R6.5 properties', () => {
    const partyId = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.uuid(), fc.constantFrom('alice', 'bob', 'Alice', 'house-2', 'a', 'b'));
    const amount = fc.oneof(fc.constant(0), fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }), fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(-100, 100, 250, -250));

    /** Up to 15 parties (sometimes including "house") whose balances sum to zero. */
    const zeroSumBalances: fc.Arbitrary<Balance[]> = fc
      .tuple(
        fc.uniqueArray(partyId, { minLength: 0, maxLength: 14 }).map((ids) => ids.filter((id) => id !== HOUSE)),
        fc.boolean(),
      )
      .map(([ids, withHouse]) => (withHouse ? [...ids, HOUSE] : ids))
      .chain((ids) =>
        fc.array(amount, { minLength: ids.length, maxLength: ids.length }).map((amounts) => {
          if (ids.length === 0) return [];
          // The last party takes whatever makes the sum zero (|x| ≤ 14 × 10^12, still safe).
          const rest = amounts.slice(0, -1).reduce((s, a) => s + a, 0);
          return ids.map((party, i) => ({ party, balanceMinor: i === ids.length - 1 ? -rest || 0 : amounts[i] }));
        }),
      );

    /** Balances that come from actual ledger-like movements between parties. */
    const balancesFromMovements: fc.Arbitrary<Balance[]> = fc
      .uniqueArray(partyId, { minLength: 2, maxLength: 15 })
      .chain((ids) =>
        fc.array(
          fc.record({
            from: fc.constantFrom(...ids),
            to: fc.constantFrom(...ids),
            amountMinor: fc.integer({ min: 1, max: 1_000_000_000_000 }),
          }),
          { maxLength: 40 },
        ),
      )
      .map((entries) => [...netsFromEntries(entries)].map(([party, balanceMinor]) => ({ party, balanceMinor })));

    const anyBalances = fc.oneof(zeroSumBalances, balancesFromMovements);

    function checkSettles(balances: Balance[], transfers: Transfer[]): void {
      // Settles every balance exactly: what each party receives minus what it pays is its balance.
      const moved = netsFromEntries(transfers);
      for (const b of balances) expect(moved.get(b.party) ?? 0).toBe(b.balanceMinor);
      for (const party of moved.keys()) expect(balances.some((b) => b.party === party)).toBe(true);

      const nonZero = balances.filter((b) => b.balanceMinor !== 0).length;
      expect(transfers.length).toBeLessThanOrEqual(Math.max(0, nonZero - 1));

      const payers = new Set(transfers.map((t) => t.from));
      const payees = new Set(transfers.map((t) => t.to));
      for (const t of transfers) {
        expect(Number.isSafeInteger(t.amountMinor)).toBe(true);
        expect(t.amountMinor).toBeGreaterThan(0);
        expect(t.from).not.toBe(t.to);
        // No party both pays and receives.
        expect(payees.has(t.from)).toBe(false);
        expect(payers.has(t.to)).toBe(false);
      }
    }

    it('R6.5 transfers settle every balance exactly within (non-zero parties − 1) transfers', () => {
      fc.assert(
        fc.property(anyBalances, (balances) => {
          expect(sumsToZero(balances)).toBe(true);
          checkSettles(balances, settleTransfers(balances));
        }),
        { numRuns: 1000 },
      );
    });

    it('R6.5 the same balances in any order give byte-identical transfers', () => {
      fc.assert(
        fc.property(
          anyBalances.chain((balances) => fc.tuple(fc.constant(balances), fc.shuffledSubarray(balances, { minLength: balances.length, maxLength: balances.length }))),
          ([balances, shuffled]) => {
            const a = JSON.stringify(settleTransfers(balances));
            const b = JSON.stringify(settleTransfers(shuffled));
            const c = JSON.stringify(settleTransfers([...balances].reverse()));
            expect(b).toBe(a);
            expect(c).toBe(a);
          },
        ),
        { numRuns: 500 },
      );
    });

    it('R6.5 any imbalance is refused with UNBALANCED', () => {
      fc.assert(
        fc.property(
          zeroSumBalances.filter((b) => b.length > 0),
          fc.nat(),
          fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((d) => d !== 0),
          (balances, pick, delta) => {
            const i = pick % balances.length;
            const skewed = balances.map((b, j) => (j === i ? { ...b, balanceMinor: b.balanceMinor + delta } : b));
            expect(refusal(() => settleTransfers(skewed))).toMatchObject({ code: 'UNBALANCED', rule: 'R6.5' });
          },
        ),
        { numRuns: 300 },
      );
    });

    it('R6.5 nets of any entries sum to zero and settle back to those nets', () => {
      fc.assert(
        fc.property(balancesFromMovements, (balances) => {
          expect(sumsToZero(balances)).toBe(true);
          // Paying the settlement transfers back (reversed) leaves nothing outstanding.
          const transfers = settleTransfers(balances);
          const nets = new Map(balances.map((b) => [b.party, b.balanceMinor] as const));
          const paid = transfers.map((t) => ({ from: t.from, to: t.to, amountMinor: t.amountMinor }));
          // A payment from a debtor raises his outstanding balance to zero (R6.6).
          const left = outstandingBalances(nets, paid);
          for (const b of left) expect(b.balanceMinor).toBe(0);
        }),
        { numRuns: 300 },
      );
    });
  });
});
