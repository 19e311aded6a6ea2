import { ChouetteGameSetup, replayChouetteGame, newChouetteGame } from './chouette-game';
import { chouetteGameNets, chouetteGamePayouts, partnerPart, resolveChouetteStakes, stakeBetween } from './chouette-money';
import { ChouetteRulesInput, resolveChouetteRules } from './chouette-rules';
import { GameAction } from './game';
import { expectRefusal } from './test-helpers';

const A = 'A';
const B = 'B';
const C = 'C';
const D = 'D';
const P = 'P';

function setup(rules?: ChouetteRulesInput, partner: string | null = null): ChouetteGameSetup {
  return { rules: resolveChouetteRules(rules), box: A, partner, team: [B, C, D] };
}
const finish = (winner: string, result: 'single' | 'gammon' | 'backgammon'): GameAction => ({ type: 'finish', winner, result });
const table = (stake: number) => ({ stakes: resolveChouetteStakes(stake) });

describe('R5.5 each member settles with the box', () => {
  it("R5.5 stake × that member's cube value × multiplier (worked by hand)", () => {
    // A doubles B and C; B takes, C passes; A wins a gammon (see the game spec): B 4 points, C 1, D 1 (Jacoby).
    // At 100 a point: B pays 400, C 100, D 100.
    const s = setup();
    const g = replayChouetteGame(s, [{ type: 'double', by: A, cubes: [B, C] }, { type: 'take', by: B }, { type: 'pass', by: C }, finish(A, 'gammon')]);
    expect(chouetteGamePayouts(s, g, table(100))).toEqual([
      { from: B, to: A, amountMinor: 400 },
      { from: C, to: A, amountMinor: 100 },
      { from: D, to: A, amountMinor: 100 },
    ]);
  });

  it('R5.5 the box pays every member who wins', () => {
    const s = setup();
    const g = replayChouetteGame(s, [finish(D, 'single')]);
    expect(chouetteGamePayouts(s, g, table(25))).toEqual([
      { from: A, to: B, amountMinor: 25 },
      { from: A, to: C, amountMinor: 25 },
      { from: A, to: D, amountMinor: 25 },
    ]);
  });

  it('R5.5 a game in progress pays nothing yet', () => {
    expectRefusal(() => chouetteGamePayouts(setup(), newChouetteGame(setup()), table(100)), 'GAME_NOT_FINISHED', 'R5.5');
  });

  it('R6.2 stake × points beyond 2^53 − 1 is refused', () => {
    const s = setup();
    // Box doubles B, B takes (2) and the box wins a backgammon: 2 × 3 = 6 points × 2^51 > 2^53 − 1.
    const g = replayChouetteGame(s, [{ type: 'double', by: A, cubes: [B] }, { type: 'take', by: B }, finish(A, 'backgammon')]);
    expectRefusal(() => chouetteGamePayouts(s, g, table(2 ** 51)), 'AMOUNT_OUT_OF_RANGE', 'R6.2');
  });

  it('a zero stake posts nothing', () => {
    const s = setup();
    expect(chouetteGamePayouts(s, replayChouetteGame(s, [finish(A, 'single')]), table(0))).toEqual([]);
  });
});

describe('R5.11 stakes', () => {
  it('R5.11 per-player stakes: a member and the box play at the lower of their two stakes', () => {
    // Table 100; A (box) 200, B 50, C 300, D unlisted (100). A–B min(200, 50) = 50; A–C min(200, 300) = 200; A–D min(200, 100) = 100.
    const stakes = resolveChouetteStakes(100, [
      { playerId: A, stakeMinor: 200 },
      { playerId: B, stakeMinor: 50 },
      { playerId: C, stakeMinor: 300 },
    ]);
    expect([stakeBetween(stakes, A, B), stakeBetween(stakes, A, C), stakeBetween(stakes, A, D)]).toEqual([50, 200, 100]);
    const s = setup();
    const g = replayChouetteGame(s, [finish(A, 'single')]);
    expect(chouetteGamePayouts(s, g, { stakes })).toEqual([
      { from: B, to: A, amountMinor: 50 },
      { from: C, to: A, amountMinor: 200 },
      { from: D, to: A, amountMinor: 100 },
    ]);
  });

  it('R5.11 stakes are non-negative safe integers, one per player', () => {
    expectRefusal(() => resolveChouetteStakes(-1), 'INVALID_STAKE', 'R5.11');
    expectRefusal(() => resolveChouetteStakes(100, [{ playerId: A, stakeMinor: -5 }]), 'INVALID_STAKE', 'R5.11');
    expectRefusal(() => resolveChouetteStakes(1.5), 'AMOUNT_OUT_OF_RANGE', 'R6.2');
    expectRefusal(
      () =>
        resolveChouetteStakes(100, [
          { playerId: A, stakeMinor: 5 },
          { playerId: A, stakeMinor: 6 },
        ]),
      'DUPLICATE_STAKE',
      'R5.11',
    );
  });
});

describe("R5.9 the partner's share", () => {
  it('R5.9 partnerShare 50 of a box net of 303: 151 to the partner, the odd unit (152) stays with the box', () => {
    // Stake 101; the box wins a single from B, C, D: +303. floor(303 × 50 / 100) = floor(151.5) = 151.
    const s = setup({}, P);
    const g = replayChouetteGame(s, [finish(P, 'single')]);
    const payouts = chouetteGamePayouts(s, g, table(101));
    expect(payouts).toEqual([
      { from: B, to: A, amountMinor: 101 },
      { from: C, to: A, amountMinor: 101 },
      { from: D, to: A, amountMinor: 101 },
      { from: A, to: P, amountMinor: 151 },
    ]);
    expect(Object.fromEntries(chouetteGameNets(payouts))).toEqual({ A: 152, P: 151, B: -101, C: -101, D: -101 });
  });

  it('R5.9 when the box loses, the partner bears his share of the loss; the odd unit stays with the box', () => {
    // The team wins a single at 101: box −303; partner bears floor(303 × 50 / 100) = 151, the box 152.
    const s = setup({}, P);
    const g = replayChouetteGame(s, [finish(C, 'single')]);
    const payouts = chouetteGamePayouts(s, g, table(101));
    expect(payouts[3]).toEqual({ from: P, to: A, amountMinor: 151 });
    expect(Object.fromEntries(chouetteGameNets(payouts))).toEqual({ A: -152, P: -151, B: 101, C: 101, D: 101 });
  });

  it('R5.9 other shares: 30 % of 1000 = 300; 0 % posts nothing; mixed results share the box net only', () => {
    expect(partnerPart(1000n, 30)).toBe(300n);
    expect(partnerPart(-1000n, 30)).toBe(-300n);
    expect(partnerPart(7n, 0)).toBe(0n);
    expect(partnerPart(1n, 50)).toBe(0n);
    // Box net: B's double passed by the box (−1 × 100), C and D lose a single (+2 × 100) = +100; 50 % → 50.
    const s = setup({}, P);
    const g = replayChouetteGame(s, [{ type: 'double', by: B }, { type: 'pass', by: A }, finish(A, 'single')]);
    expect(chouetteGamePayouts(s, g, table(100))).toEqual([
      { from: A, to: B, amountMinor: 100 },
      { from: C, to: A, amountMinor: 100 },
      { from: D, to: A, amountMinor: 100 },
      { from: A, to: P, amountMinor: 50 },
    ]);
  });
});

describe("R6.4 rake on each winner's net after the partner's share", () => {
  it('R6.4 5 % rake: box 152 → 7, partner 151 → 7 (rounded down); house 14; sums to zero', () => {
    // floor(152 × 500 / 10000) = floor(7.6) = 7; floor(151 × 500 / 10000) = floor(7.55) = 7.
    const s = setup({}, P);
    const g = replayChouetteGame(s, [finish(A, 'single')]);
    const payouts = chouetteGamePayouts(s, g, { ...table(101), rakeBasisPoints: 500 });
    expect(payouts.slice(4)).toEqual([
      { from: A, to: 'house', amountMinor: 7 },
      { from: P, to: 'house', amountMinor: 7 },
    ]);
    expect(Object.fromEntries(chouetteGameNets(payouts))).toEqual({ A: 145, P: 144, B: -101, C: -101, D: -101, house: 14 });
  });

  it('R6.4 when the team wins, each winning member pays rake on his net: floor(101 × 5 %) = 5 each', () => {
    const s = setup({}, P);
    const g = replayChouetteGame(s, [finish(B, 'single')]);
    const payouts = chouetteGamePayouts(s, g, { ...table(101), rakeBasisPoints: 500 });
    expect(payouts.slice(4)).toEqual([
      { from: B, to: 'house', amountMinor: 5 },
      { from: C, to: 'house', amountMinor: 5 },
      { from: D, to: 'house', amountMinor: 5 },
    ]);
    expect([...chouetteGameNets(payouts).values()].reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('R6.4 an invalid rake is refused', () => {
    const s = setup();
    const g = replayChouetteGame(s, [finish(A, 'single')]);
    expectRefusal(() => chouetteGamePayouts(s, g, { ...table(100), rakeBasisPoints: 10_001 }), 'INVALID_RAKE_PERCENT', 'R6.4');
  });
});
