/**
 * R9.9: a flight's prize pool, the house's commission and the prizes, to the minor unit.
 *
 * Pure: no framework, no I/O. Integers only: every share is rounded down, the remainder
 * goes to 1st place, and equal places share their prizes evenly with the odd minor units
 * to the better seeds, so the prizes and the house always add up to the pool exactly.
 */
import { refuse } from './errors';

/** A placed player: his place (equal places share one) and his seed (1 = best) for the odd units. */
export interface Placed {
  readonly playerId: string;
  readonly place: number;
  readonly seed: number;
}

export interface Prize {
  readonly playerId: string;
  readonly place: number;
  readonly amountMinor: number;
  /** Which bracket's places paid it (R9.11): the main one unless a consolation was run. */
  readonly bracket: 'main' | 'consolation';
}

export interface PrizeTable {
  readonly poolMinor: number;
  readonly houseMinor: number;
  readonly prizes: readonly Prize[];
}

/** R9.9: the payouts checked: whole percentages 0–100 adding up to 100 over every bracket paid. */
export function assertPayouts(payouts: { main: readonly number[]; consolation: readonly number[] }, housePercent: number): void {
  const all = [...payouts.main, ...payouts.consolation];
  if (!Number.isSafeInteger(housePercent) || housePercent < 0 || housePercent > 100) {
    refuse('INVALID_PAYOUTS', 'R9.9', `housePercent must be a whole percentage from 0 to 100; got ${housePercent} (R9.9)`);
  }
  if (all.length === 0) refuse('INVALID_PAYOUTS', 'R9.9', 'payouts name at least one place (R9.9)');
  if (!all.every((p) => Number.isSafeInteger(p) && p >= 0 && p <= 100)) refuse('INVALID_PAYOUTS', 'R9.9', 'Each payout is a whole percentage from 0 to 100 (R9.9)');
  const sum = all.reduce((a, b) => a + b, 0);
  if (sum !== 100) refuse('INVALID_PAYOUTS', 'R9.9', `The payouts share out what the house leaves, so they add up to 100; these add up to ${sum} (R9.9)`);
}

/**
 * R9.9: the pool (entries × fee), the house's `housePercent` of it rounded down, and the
 * rest paid to the places by the payouts' percentages, each rounded down, the remainder
 * to 1st place of the main bracket. Players sharing a place share the prizes of the
 * places they cover (two 3rd-equal: the 3rd and 4th prizes) evenly, the odd minor units
 * to the better seeds. Places with no player (a bracket too small for them) pay their
 * share to main 1st too, so nothing is left over.
 */
export function prizeTable(input: {
  poolMinor: number;
  housePercent: number;
  payouts: { main: readonly number[]; consolation: readonly number[] };
  main: readonly Placed[];
  consolation: readonly Placed[];
}): PrizeTable {
  const { poolMinor, housePercent, payouts } = input;
  if (!Number.isSafeInteger(poolMinor) || poolMinor < 0) refuse('AMOUNT_OUT_OF_RANGE', 'R6.2', `The prize pool ${poolMinor} is not a whole number of minor units`);
  assertPayouts(payouts, housePercent);
  const houseMinor = Math.floor((poolMinor * housePercent) / 100);
  const rest = poolMinor - houseMinor;
  const shareOf = (pct: number) => Math.floor((rest * pct) / 100);
  const prizes: Prize[] = [];
  let paid = 0;
  for (const bracket of ['main', 'consolation'] as const) {
    const percents = payouts[bracket];
    const placed = [...input[bracket]].sort((a, b) => a.place - b.place || a.seed - b.seed);
    const groups = new Map<number, Placed[]>();
    for (const p of placed) groups.set(p.place, [...(groups.get(p.place) ?? []), p]);
    for (const [place, group] of groups) {
      // The places this group covers: place, place + 1, … (1-based), each with its share.
      let pot = 0;
      for (let k = place; k < place + group.length; k++) pot += k <= percents.length ? shareOf(percents[k - 1]) : 0;
      if (pot === 0) continue;
      const each = Math.floor(pot / group.length);
      let odd = pot - each * group.length;
      for (const p of group) {
        const amount = each + (odd > 0 ? 1 : 0);
        if (odd > 0) odd--;
        if (amount > 0) prizes.push({ playerId: p.playerId, place, amountMinor: amount, bracket });
        paid += amount;
      }
    }
  }
  // The remainder (rounding, or places nobody holds) to main 1st place.
  const remainder = rest - paid;
  if (remainder > 0) {
    const first = [...input.main].filter((p) => p.place === 1).sort((a, b) => a.seed - b.seed)[0];
    if (first) {
      const i = prizes.findIndex((p) => p.bracket === 'main' && p.playerId === first.playerId);
      if (i >= 0) prizes[i] = { ...prizes[i], amountMinor: prizes[i].amountMinor + remainder };
      else prizes.unshift({ playerId: first.playerId, place: 1, amountMinor: remainder, bracket: 'main' });
    }
  }
  return { poolMinor, houseMinor, prizes };
}
