/**
 * R6.6: a player's money over a range of sessions, from raw sums the database adds up:
 * each session's line, and per currency the range's opening balance, its sums and its
 * closing balance, with the balance over every session. Pure; bigint throughout, so no
 * sum of safe amounts loses a unit.
 */
import { compareParty } from './settlement';

/** A party's money in one currency over some sessions: ledger net (received − paid over its entries), payments made and received. */
export interface MoneySums {
  readonly net: bigint;
  readonly paid: bigint;
  readonly received: bigint;
}

/** R6.6: net + paid − received; positive: the party is still owed money. */
export function outstanding(sums: MoneySums): bigint {
  return sums.net + sums.paid - sums.received;
}

/** R6.6: whether a balance is still to settle (not zero). */
export function isOutstanding(balance: bigint): boolean {
  return balance !== 0n;
}

/** R6.6: what a session line shows as still outstanding. */
export function sessionOutstanding(line: { netMinor: number; paidMinor: number; receivedMinor: number }): bigint {
  return outstanding({ net: BigInt(line.netMinor), paid: BigInt(line.paidMinor), received: BigInt(line.receivedMinor) });
}

/** One currency's totals over the range. */
export interface RangeTotals {
  currency: string;
  /** The balance before the range's first session (0 without a start). */
  opening: bigint;
  net: bigint;
  paid: bigint;
  received: bigint;
  /** opening + net + paid − received: the balance at the range's end. */
  closing: bigint;
  /** The balance over every session, whatever the range. */
  balance: bigint;
}

export interface RangeInput {
  /** Whether the range has a start and an end. */
  readonly start: boolean;
  readonly end: boolean;
  /** The party's running money per currency over every session. */
  readonly all: ReadonlyArray<MoneySums & { currency: string }>;
  /**
   * Sums per currency of dated sessions: with a start, those from it on, `after` marking
   * those past the end; with only an end, those before it. Empty without either.
   */
  readonly dated: ReadonlyArray<MoneySums & { currency: string; after: boolean }>;
}

const ZERO: MoneySums = { net: 0n, paid: 0n, received: 0n };

function add(into: Map<string, MoneySums>, currency: string, r: MoneySums): void {
  const t = into.get(currency) ?? ZERO;
  into.set(currency, { net: t.net + r.net, paid: t.paid + r.paid, received: t.received + r.received });
}

/**
 * R6.6: the range's totals per currency, by currency. Without either end the range is
 * the whole history: its sums are the running money. With a start, the opening is the
 * balance less the sessions from the start on (the sessions before the range are never
 * summed); without one it is 0.
 */
export function rangeTotals(input: RangeInput): RangeTotals[] {
  const all = new Map<string, MoneySums>();
  for (const v of input.all) add(all, v.currency, v);
  const inRange = new Map<string, MoneySums>();
  const afterRange = new Map<string, MoneySums>();
  for (const r of input.dated) {
    add(r.after ? afterRange : inRange, r.currency, r);
    if (!all.has(r.currency)) all.set(r.currency, ZERO);
  }
  const whole = !input.start && !input.end;
  return [...all.entries()]
    .sort(([a], [b]) => compareParty(a, b))
    .map(([currency, total]) => {
      const range = whole ? total : (inRange.get(currency) ?? ZERO);
      const balance = outstanding(total);
      const opening = input.start ? balance - outstanding(range) - outstanding(afterRange.get(currency) ?? ZERO) : 0n;
      return { currency, opening, net: range.net, paid: range.paid, received: range.received, closing: opening + outstanding(range), balance };
    });
}
