/**
 * Integer money helpers (R6.2: all money is integer minor units, no floating
 * point anywhere). Amounts travel as JS numbers that must be safe integers
 * (|x| <= 2^53 - 1, the API's limit); anything that may overflow that range —
 * sums, products — is computed in BigInt and converted back with a check.
 *
 * Pure: no framework, no I/O.
 */
import type { DomainErrorCode } from './error-codes';
import { refuse } from './errors';

/** The largest amount the service accepts, 2^53 - 1 (API: "beyond ±(2^53 − 1) is refused"). */
export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** Code used whenever an amount is not a safe integer. */
export const AMOUNT_OUT_OF_RANGE = 'AMOUNT_OUT_OF_RANGE' satisfies DomainErrorCode;

/** True when `value` is an integer number of minor units within ±(2^53 − 1). */
export function isSafeMinor(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * Returns `value` unchanged when it is a safe integer; otherwise refuses with
 * AMOUNT_OUT_OF_RANGE (rule R6.2). `field` names the amount in the message.
 */
export function assertMinor(value: unknown, field = 'amountMinor'): number {
  if (!isSafeMinor(value)) {
    refuse(AMOUNT_OUT_OF_RANGE, 'R6.2', `${field} must be an integer number of minor units between -${MAX_MINOR} and ${MAX_MINOR}`, {
      field,
      value: typeof value === 'bigint' ? value.toString() : value,
    });
  }
  return value;
}

/** Converts a BigInt result back to a number, refusing (R6.2) when it is not safe. */
export function fromBigMinor(value: bigint, field = 'amountMinor'): number {
  if (value > BigInt(MAX_MINOR) || value < -BigInt(MAX_MINOR)) {
    refuse(AMOUNT_OUT_OF_RANGE, 'R6.2', `${field} is outside ±${MAX_MINOR} minor units`, { field, value: value.toString() });
  }
  return Number(value);
}

/**
 * R6.2 on a read: a figure leaves the service exactly or not at all. Returns `value`
 * when it is a safe integer; otherwise (only money recorded before the bound was kept
 * can get there) refuses with AMOUNT_OUT_OF_RANGE rather than answer it rounded.
 */
export function reportableMinor(value: number): number {
  if (!Number.isSafeInteger(value)) {
    refuse(AMOUNT_OUT_OF_RANGE, 'R6.2', `A figure of this answer is beyond ±${MAX_MINOR} minor units, so it cannot be reported exactly (R6.2)`);
  }
  return value;
}

/** Exact sum of safe-integer amounts, as a BigInt (never overflows). Each term is checked. */
export function sumMinor(values: Iterable<number>, field = 'amountMinor'): bigint {
  let total = 0n;
  for (const v of values) total += BigInt(assertMinor(v, field));
  return total;
}

/** Checked addition: a + b as a safe integer, refusing (R6.2) if the result is not safe. */
export function addMinor(a: number, b: number, field = 'amountMinor'): number {
  return fromBigMinor(BigInt(assertMinor(a, field)) + BigInt(assertMinor(b, field)), field);
}

/** One transfer of money between two parties; `reverses` marks the reversal of an earlier one (a void). */
export interface GrossMove {
  readonly from: string;
  readonly to: string;
  readonly amountMinor: number;
  readonly reverses?: boolean;
}

/**
 * R6.2 bound: what `moves` add to each party's gross money (the sum of |amount| of every
 * transfer it takes part in, on either side); a reversal takes back what the transfer
 * it reverses added. Any balance, net, paid, received or outstanding figure of a party
 * is at most its gross in size, so a gross kept within 2^53 − 1 keeps them all safe
 * integers. Parties whose gross does not change are left out; exact (BigInt).
 */
export function grossDeltas(moves: Iterable<GrossMove>): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const m of moves) {
    const amount = BigInt(assertMinor(m.amountMinor));
    const size = amount < 0n ? -amount : amount;
    const delta = m.reverses ? -size : size;
    for (const party of [m.from, m.to]) out.set(party, (out.get(party) ?? 0n) + delta);
  }
  for (const [party, d] of out) if (d === 0n) out.delete(party);
  return out;
}
