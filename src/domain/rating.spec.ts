import fc from 'fast-check';
import { RuleViolation } from './errors';
import { NEW_PLAYER_EXPERIENCE, NEW_PLAYER_RATING, averageRating, kFactor, pairRatingChanges, ratingChange, roundRating, upsetProbability, winnerWeight } from './rating';

function refusal(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('expected a RuleViolation, nothing was thrown');
}

// √5 = 2.2360680, √3 = 1.7320508, √7 = 2.6457513 (to 7 decimals).

describe('R7.1 FIBS rating formula', () => {
  it('R7.1 new players start at 1500 with experience 0', () => {
    expect(NEW_PLAYER_RATING).toBe(1500);
    expect(NEW_PLAYER_EXPERIENCE).toBe(0);
  });

  it('R7.1 K = max(1, 5 − experience/100), never below 1', () => {
    expect(kFactor(0)).toBe(5);
    expect(kFactor(100)).toBe(4);
    expect(kFactor(250)).toBe(2.5);
    expect(kFactor(5)).toBeCloseTo(4.95, 10);
    expect(kFactor(399)).toBeCloseTo(1.01, 10);
    expect(kFactor(400)).toBe(1);
    // 5 − 450/100 = 0.5, raised to the floor of 1.
    expect(kFactor(450)).toBe(1);
    expect(kFactor(100_000)).toBe(1);
  });

  it('R7.1 worked example: 1850 beats 1750 over 5 points with K = 1 gives +3.90 / −3.90', () => {
    // D = 100, D·√5/2000 = 223.60680/2000 = 0.1118034
    // 10^0.1118034 = 1.2936101 → P_upset = 1/2.2936101 = 0.4359939
    // favourite wins → P = 0.4359939; 4·1·√5·P = 8.9442719 × 0.4359939 = 3.8996479
    const change = ratingChange({
      winner: { rating: 1850, experience: 400 },
      loser: { rating: 1750, experience: 1000 },
      target: 5,
    });
    expect(change.winner.delta).toBeCloseTo(3.9, 2);
    expect(change.loser.delta).toBeCloseTo(-3.9, 2);
    expect(roundRating(change.winner.delta)).toBe(3.9);
    expect(roundRating(change.loser.delta)).toBe(-3.9);
    expect(change.winner.rating).toBeCloseTo(1853.8996, 4);
    expect(change.loser.rating).toBeCloseTo(1746.1004, 4);
    expect(upsetProbability(1850, 1750, 5)).toBeCloseTo(0.4359939, 6);
  });

  it('R7.1 worked example: two newcomers over 7 points give +26.46 / −26.46', () => {
    // D = 0 → P_upset = 1/(10^0 + 1) = 1/2 = P; K = 5 for both.
    // 4·5·√7·0.5 = 10·√7 = 26.457513
    const change = ratingChange({
      winner: { rating: 1500, experience: 0 },
      loser: { rating: 1500, experience: 0 },
      target: 7,
    });
    expect(change.winner.delta).toBeCloseTo(26.46, 2);
    expect(change.loser.delta).toBeCloseTo(-26.46, 2);
    expect(change.winner.delta).toBeCloseTo(26.457513, 5);
    expect(change.winner.rating).toBeCloseTo(1526.457513, 5);
    expect(change.loser.rating).toBeCloseTo(1473.542487, 5);
  });

  it('R7.1 both players gain n experience', () => {
    const change = ratingChange({
      winner: { rating: 1600, experience: 40 },
      loser: { rating: 1550, experience: 7 },
      target: 9,
    });
    expect(change.winner.experience).toBe(49);
    expect(change.loser.experience).toBe(16);
  });

  it('R7.1 the underdog winning uses P = 1 − P_upset', () => {
    // 1750 beats 1850 over 5, K = 1: P = 1 − 0.4359939 = 0.5640061
    // 4·1·√5·0.5640061 = 8.9442719 × 0.5640061 = 5.0446240
    const change = ratingChange({
      winner: { rating: 1750, experience: 500 },
      loser: { rating: 1850, experience: 500 },
      target: 5,
    });
    expect(change.winner.delta).toBeCloseTo(5.044624, 5);
    expect(change.loser.delta).toBeCloseTo(-5.044624, 5);
    expect(winnerWeight(1750, 1850, 5)).toBeCloseTo(0.5640061, 6);
    expect(winnerWeight(1850, 1750, 5)).toBeCloseTo(0.4359939, 6);
  });

  it('R7.1 equal ratings: P = 0.5 whichever player wins', () => {
    expect(winnerWeight(1620, 1620, 11)).toBe(0.5);
    expect(upsetProbability(1620, 1620, 11)).toBe(0.5);
  });

  it('R7.1 each player uses his own K: a newcomer beating a veteran of equal rating', () => {
    // D = 0 → P = 0.5, n = 5.
    // newcomer, K = 5: +4·5·√5·0.5 = 10·√5 = 22.360680
    // veteran (experience 2000), K = 1: −4·1·√5·0.5 = −2·√5 = −4.472136
    const change = ratingChange({
      winner: { rating: 1500, experience: 0 },
      loser: { rating: 1500, experience: 2000 },
      target: 5,
    });
    expect(change.winner.delta).toBeCloseTo(22.36068, 5);
    expect(change.loser.delta).toBeCloseTo(-4.472136, 5);
  });

  it('R7.1 hand-computed chain of three matches (full precision carried between matches)', () => {
    // Match 1: A (1500, exp 0) beats B (1500, exp 0) over 5.
    //   D = 0 → P = 0.5; K = 5 both; delta = 4·5·√5·0.5 = 22.3606798
    //   A = 1522.3606798 (exp 5), B = 1477.6393202 (exp 5)
    const m1 = ratingChange({
      winner: { rating: 1500, experience: 0 },
      loser: { rating: 1500, experience: 0 },
      target: 5,
    });
    expect(m1.winner.delta).toBeCloseTo(22.3606798, 6);
    expect(m1.winner.rating).toBeCloseTo(1522.3606798, 6);
    expect(m1.loser.rating).toBeCloseTo(1477.6393202, 6);
    expect(m1.winner.experience).toBe(5);

    // Match 2: B beats A over 3 (the underdog wins).
    //   D = 1522.3606798 − 1477.6393202 = 44.7213595 (= 20·√5)
    //   D·√3/2000 = 77.4596669/2000 = 0.0387298
    //   10^0.0387298 = 1.0932761 → P_upset = 1/2.0932761 = 0.4777201
    //   the underdog wins → P = 1 − 0.4777201 = 0.5222799
    //   K = 5 − 5/100 = 4.95 for both
    //   delta = 4·4.95·√3·0.5222799 = 34.2946060 × 0.5222799 = 17.9113841
    //   A = 1522.3606798 − 17.9113841 = 1504.4492957 (exp 8)
    //   B = 1477.6393202 + 17.9113841 = 1495.5507043 (exp 8)
    const m2 = ratingChange({
      winner: { rating: m1.loser.rating, experience: m1.loser.experience },
      loser: { rating: m1.winner.rating, experience: m1.winner.experience },
      target: 3,
    });
    expect(m2.winner.delta).toBeCloseTo(17.9113841, 6);
    expect(m2.loser.delta).toBeCloseTo(-17.9113841, 6);
    expect(m2.loser.rating).toBeCloseTo(1504.4492957, 6);
    expect(m2.winner.rating).toBeCloseTo(1495.5507043, 6);
    expect(m2.loser.experience).toBe(8);

    // Match 3: A (1504.4492957, exp 8) beats C (1600, exp 450) over 7 (the underdog wins).
    //   D = 1600 − 1504.4492957 = 95.5507043
    //   D·√7/2000 = 95.5507043 × 2.6457513/2000 = 0.1264017
    //   10^0.1264017 = 1.3378324 → P_upset = 1/2.3378324 = 0.4277467; P = 1 − 0.4277467 = 0.5722533
    //   K_A = 5 − 8/100 = 4.92; K_C = max(1, 5 − 4.5) = 1
    //   A: +4·4.92·√7·0.5722533 = 52.0683858 × 0.5722533 = 29.7963074 → 1534.2456031 (exp 15)
    //   C: −4·1·√7·0.5722533 = −10.5830052 × 0.5722533 = −6.0561600 → 1593.9438400 (exp 457)
    const m3 = ratingChange({
      winner: { rating: m2.loser.rating, experience: m2.loser.experience },
      loser: { rating: 1600, experience: 450 },
      target: 7,
    });
    expect(m3.winner.delta).toBeCloseTo(29.7963074, 6);
    expect(m3.loser.delta).toBeCloseTo(-6.05616, 6);
    expect(m3.winner.rating).toBeCloseTo(1534.2456031, 6);
    expect(m3.loser.rating).toBeCloseTo(1593.94384, 6);
    expect(m3.winner.experience).toBe(15);
    expect(m3.loser.experience).toBe(457);
  });

  it('R7.1 refuses invalid inputs with INVALID_RATING_INPUT', () => {
    const ok = { rating: 1500, experience: 0 };
    for (const bad of [
      () => ratingChange({ winner: ok, loser: ok, target: 0 }),
      () => ratingChange({ winner: ok, loser: ok, target: 2.5 }),
      () => ratingChange({ winner: { rating: NaN, experience: 0 }, loser: ok, target: 5 }),
      () => ratingChange({ winner: ok, loser: { rating: 1500, experience: -1 }, target: 5 }),
      () => ratingChange({ winner: ok, loser: { rating: 1500, experience: 1.5 }, target: 5 }),
    ]) {
      expect(refusal(bad)).toMatchObject({ code: 'INVALID_RATING_INPUT', rule: 'R7.1' });
    }
  });

  it('R7.1 roundRating is for display only: 2 decimals, half away from zero', () => {
    expect(roundRating(3.8996479)).toBe(3.9);
    expect(roundRating(-26.457513)).toBe(-26.46);
    expect(roundRating(1526.457513)).toBe(1526.46);
    expect(roundRating(-0.001)).toBe(0);
    expect(roundRating(0.125)).toBe(0.13);
  });

  describe('R7.1 properties', () => {
    const player = fc.record({
      rating: fc.double({ min: 500, max: 2500, noNaN: true }),
      experience: fc.integer({ min: 0, max: 10_000 }),
    });
    const target = fc.integer({ min: 1, max: 63 });

    it('R7.1 the winner gains, the loser loses, each within 4·K·√n', () => {
      fc.assert(
        fc.property(player, player, target, (winner, loser, n) => {
          const c = ratingChange({ winner, loser, target: n });
          expect(c.winner.delta).toBeGreaterThan(0);
          expect(c.loser.delta).toBeLessThan(0);
          expect(c.winner.delta).toBeLessThan(4 * kFactor(winner.experience) * Math.sqrt(n));
          expect(-c.loser.delta).toBeLessThan(4 * kFactor(loser.experience) * Math.sqrt(n));
          expect(c.winner.experience).toBe(winner.experience + n);
          expect(c.loser.experience).toBe(loser.experience + n);
        }),
      );
    });

    it('R7.1 with equal K the change is zero-sum, and an upset is worth more than the expected result', () => {
      fc.assert(
        fc.property(player, player, target, (a, b, n) => {
          fc.pre(Math.abs(a.rating - b.rating) >= 0.01);
          const same = { experience: a.experience };
          const aWins = ratingChange({ winner: { ...a, ...same }, loser: { ...b, ...same }, target: n });
          const bWins = ratingChange({ winner: { ...b, ...same }, loser: { ...a, ...same }, target: n });
          expect(aWins.winner.delta + aWins.loser.delta).toBeCloseTo(0, 9);
          // P + (1 − P) = 1: the two possible outcomes' gains add up to 4·K·√n.
          expect(aWins.winner.delta + bWins.winner.delta).toBeCloseTo(4 * kFactor(a.experience) * Math.sqrt(n), 9);
          const favouriteWins = a.rating > b.rating ? aWins : bWins;
          const underdogWins = a.rating > b.rating ? bWins : aWins;
          expect(underdogWins.winner.delta).toBeGreaterThan(favouriteWins.winner.delta);
        }),
      );
    });
  });
});

describe('R7.1 with R3.7 pairs: each player against the average of the other side', () => {
  it('R7.1 R3.7 rates every player of a pair with his own rating and K', () => {
    // Side 0 (winners): P1 1600 exp 0 (K 5), P2 1400 exp 200 (K 3) → average 1500.
    // Side 1 (losers):  Q1 1500 exp 1000 (K 1), Q2 1500 exp 50 (K 4.5) → average 1500.
    // n = 5, √5 = 2.2360680.
    // P1 vs 1500: D = 100, favourite wins → P = P_upset = 0.4359939
    //   +4·5·√5·0.4359939 = 44.7213595 × 0.4359939 = 19.4982397
    // P2 vs 1500: D = 100, underdog wins → P = 0.5640061
    //   +4·3·√5·0.5640061 = 26.8328157 × 0.5640061 = 15.1338719
    // Q1 vs winners' average 1500: D = 0 → P = 0.5; −4·1·√5·0.5 = −4.4721360
    // Q2: −4·4.5·√5·0.5 = −20.1246118
    const result = pairRatingChanges(
      [
        [
          { id: 'p1', rating: 1600, experience: 0 },
          { id: 'p2', rating: 1400, experience: 200 },
        ],
        [
          { id: 'q1', rating: 1500, experience: 1000 },
          { id: 'q2', rating: 1500, experience: 50 },
        ],
      ],
      0,
      5,
    );
    expect([...result.keys()]).toEqual(['p1', 'p2', 'q1', 'q2']);
    expect(result.get('p1')!.delta).toBeCloseTo(19.4982397, 6);
    expect(result.get('p2')!.delta).toBeCloseTo(15.1338719, 6);
    expect(result.get('q1')!.delta).toBeCloseTo(-4.472136, 6);
    expect(result.get('q2')!.delta).toBeCloseTo(-20.1246118, 6);
    expect(result.get('p2')!.rating).toBeCloseTo(1415.1338719, 6);
    expect(result.get('q2')!.experience).toBe(55);
  });

  it('R7.1 R3.7 one player per side is exactly the two-player formula', () => {
    const result = pairRatingChanges([[{ id: 'w', rating: 1750, experience: 500 }], [{ id: 'l', rating: 1850, experience: 500 }]], 0, 5);
    // Same as "the underdog winning" above: ±5.0446240.
    expect(result.get('w')!.delta).toBeCloseTo(5.044624, 5);
    expect(result.get('l')!.delta).toBeCloseTo(-5.044624, 5);
  });

  it('R7.1 R3.7 a pair against a single player, side 1 winning', () => {
    // Side 0: a 1500, b 1700 (average 1600), both K = 1 (exp 400). Side 1: c 1600, K = 1.
    // c vs 1600: D = 0 → +4·√3·0.5 = 2·√3 = 3.4641016 (n = 3)
    // a vs winner average 1600: D = 100, favourite (c side) wins → P = P_upset(100, n=3)
    //   100·√3/2000 = 0.0866025; 10^0.0866025 = 1.2206819 → P_upset = 1/2.2206819 = 0.4503121
    //   −4·1·√3·0.4503121 = −6.9282032 × 0.4503121 = −3.1198540
    // b vs 1600: b is the favourite and loses → P = 1 − 0.4503121 = 0.5496879
    //   −4·1·√3·0.5496879 = −6.9282032 × 0.5496879 = −3.8083492
    const result = pairRatingChanges(
      [
        [
          { id: 'a', rating: 1500, experience: 400 },
          { id: 'b', rating: 1700, experience: 400 },
        ],
        [{ id: 'c', rating: 1600, experience: 400 }],
      ],
      1,
      3,
    );
    expect(
      averageRating([
        { rating: 1500, experience: 0 },
        { rating: 1700, experience: 0 },
      ]),
    ).toBe(1600);
    expect(result.get('c')!.delta).toBeCloseTo(3.4641016, 6);
    const pa = winnerWeight(1600, 1500, 3);
    const pb = winnerWeight(1600, 1700, 3);
    expect(pa).toBeCloseTo(0.4503121, 6);
    expect(pb).toBeCloseTo(0.5496879, 6);
    expect(result.get('a')!.delta).toBeCloseTo(-3.119854, 6);
    expect(result.get('b')!.delta).toBeCloseTo(-3.8083492, 6);
    // The stronger partner loses more for the same defeat.
    expect(result.get('b')!.delta).toBeLessThan(result.get('a')!.delta);
  });

  it('R7.1 R3.7 refuses a player on both sides, an empty side and a bad winnerSide', () => {
    const p = { id: 'x', rating: 1500, experience: 0 };
    expect(refusal(() => pairRatingChanges([[p], [p]], 0, 5))).toMatchObject({
      code: 'DUPLICATE_PLAYER',
      rule: 'R7.1',
    });
    expect(refusal(() => pairRatingChanges([[p], []], 0, 5))).toMatchObject({
      code: 'INVALID_RATING_INPUT',
      rule: 'R7.1',
    });
    expect(refusal(() => pairRatingChanges([[p], [{ ...p, id: 'y' }]], 2 as unknown as 0 | 1, 5))).toMatchObject({ code: 'INVALID_RATING_INPUT', rule: 'R7.1' });
  });
});
