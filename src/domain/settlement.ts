/**
 * Session money: rake (R6.4), nets and outstanding balances (R6.5, R6.6), and the
 * transfers that settle a session (R6.5).
 *
 * Pure TypeScript: no framework, no I/O. All money is integer minor units held in
 * JS numbers that must be safe integers (R6.2); sums and products are computed in
 * BigInt so they can never silently lose precision.
 *
 * Sign convention everywhere in this module: a positive balance means the party
 * IS OWED money (it receives); a negative balance means it OWES money (it pays).
 * The club's house account is the party id "house" and is treated like any other
 * party.
 */
import { refuse } from './errors';
import { assertMinor, fromBigMinor, sumMinor } from './money';

/** The party id of the club's house account (rake, R6.4). */
export const HOUSE = 'house';

/** Basis points in 100 %: rakePercent 2.5 % is stored as 250. */
const BASIS_POINTS_PER_WHOLE = 10_000;

export interface Balance {
  party: string;
  /** Positive: the party is owed this much. Negative: the party owes it. */
  balanceMinor: number;
}

export interface Transfer {
  from: string;
  to: string;
  amountMinor: number;
}

/**
 * Total order on party ids: plain UTF-16 code-unit order (what `<` does on
 * strings). Deliberately not `localeCompare`, whose result depends on the
 * runtime's locale data.
 */
export function compareParty(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------
// R6.4 rake
// ---------------------------------------------------------------------------

/**
 * R6.4: the rake on one winner's net for a money game or chouette game, i.e.
 * floor(netMinor × rakeBasisPoints / 10 000). Computed in BigInt: never a float.
 *
 * - `netMinor` is the winner's net for that game (after a box partner's share);
 *   zero or negative (a non-winner) pays no rake → 0.
 * - `rakeBasisPoints` is the session's rakePercent in basis points, an integer
 *   from 0 to 10 000 (2.5 % = 250); anything else is refused
 *   (INVALID_RAKE_PERCENT, R6.4).
 *
 * The result always satisfies 0 ≤ rake ≤ netMinor.
 */
export function rakeFor(netMinor: number, rakeBasisPoints: number): number {
  assertMinor(netMinor, 'netMinor');
  assertRakeBasisPoints(rakeBasisPoints);
  if (netMinor <= 0 || rakeBasisPoints === 0) return 0;
  // BigInt division truncates toward zero, which is floor for a non-negative
  // numerator: "rounded down to the minor unit".
  return Number((BigInt(netMinor) * BigInt(rakeBasisPoints)) / BigInt(BASIS_POINTS_PER_WHOLE));
}

function assertRakeBasisPoints(bp: unknown): asserts bp is number {
  if (typeof bp !== 'number' || !Number.isInteger(bp) || bp < 0 || bp > BASIS_POINTS_PER_WHOLE) {
    refuse('INVALID_RAKE_PERCENT', 'R6.4', `rake must be an integer number of basis points from 0 to ${BASIS_POINTS_PER_WHOLE} (0 % to 100 %, 2.5 % = 250)`, { rakeBasisPoints: bp });
  }
}

/**
 * Converts a session's `rakePercent` as it arrives in JSON (e.g. 2.5 or "2.5") to
 * integer basis points (250) without floating-point arithmetic: the number's
 * shortest decimal spelling is parsed as text. At most two decimals, 0 to 100;
 * anything else is refused (INVALID_RAKE_PERCENT, R6.4).
 */
export function basisPointsFromPercent(percent: number | string): number {
  const text = typeof percent === 'number' ? String(percent) : percent.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  const bp = m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
  if (!m || !(bp >= 0 && bp <= BASIS_POINTS_PER_WHOLE)) {
    refuse('INVALID_RAKE_PERCENT', 'R6.4', 'rakePercent must be a number from 0 to 100 with at most two decimals (e.g. 2.5)', { rakePercent: percent });
  }
  return bp;
}

/** Inverse of basisPointsFromPercent, for display: 250 → 2.5. */
export function percentFromBasisPoints(bp: number): number {
  assertRakeBasisPoints(bp);
  return bp / 100;
}

// ---------------------------------------------------------------------------
// Nets and balances
// ---------------------------------------------------------------------------

/**
 * True when the balances sum to exactly zero (computed in BigInt, so it cannot
 * be fooled by rounding). Refuses (AMOUNT_OUT_OF_RANGE, R6.2) a non-safe amount.
 */
export function sumsToZero(entries: Iterable<{ balanceMinor: number }>): boolean {
  return (
    sumMinor(
      mapIter(entries, (e) => e.balanceMinor),
      'balanceMinor',
    ) === 0n
  );
}

/**
 * Each party's net over a list of money movements (ledger entries or payments):
 * what it received minus what it paid. A negative `amountMinor` simply counts in
 * the opposite direction. Every party named in an entry appears in the result
 * (possibly with 0); keys are in party-id order so the map iterates the same way
 * whatever the order of the entries.
 *
 * The nets of any list of entries sum to zero by construction.
 */
export function netsFromEntries(entries: Iterable<Transfer>): Map<string, number> {
  const acc = new Map<string, bigint>();
  for (const e of entries) {
    assertParty(e.from);
    assertParty(e.to);
    const amount = BigInt(assertMinor(e.amountMinor, 'amountMinor'));
    acc.set(e.from, (acc.get(e.from) ?? 0n) - amount);
    acc.set(e.to, (acc.get(e.to) ?? 0n) + amount);
  }
  const out = new Map<string, number>();
  for (const party of [...acc.keys()].sort(compareParty)) {
    out.set(party, fromBigMinor(acc.get(party)!, `net of ${party}`));
  }
  return out;
}

/**
 * R6.5/R6.6: what is still outstanding once the payments recorded against the
 * session are taken into account: net + what the party paid − what it received,
 * i.e. net − (received − paid) over the payments. Positive: still owed money.
 * Every party in `nets` or in a payment appears once, sorted by party id; the
 * result is ready for `settleTransfers`.
 */
export function outstandingBalances(nets: ReadonlyMap<string, number> | Iterable<readonly [string, number]>, payments: Iterable<Transfer>): Balance[] {
  const acc = new Map<string, bigint>();
  for (const [party, net] of nets) {
    assertParty(party);
    acc.set(party, (acc.get(party) ?? 0n) + BigInt(assertMinor(net, 'netMinor')));
  }
  for (const [party, paymentNet] of netsFromEntries(payments)) {
    acc.set(party, (acc.get(party) ?? 0n) - BigInt(paymentNet));
  }
  return [...acc.keys()].sort(compareParty).map((party) => ({
    party,
    balanceMinor: fromBigMinor(acc.get(party)!, `outstanding balance of ${party}`),
  }));
}

// ---------------------------------------------------------------------------
// R6.5 settlement transfers
// ---------------------------------------------------------------------------

interface Open {
  party: string;
  /** What is still to be paid (debtor) or received (creditor); always > 0. */
  amount: number;
}

/** Larger amount first; equal amounts by party id ascending. A total order (ids are unique). */
function openOrder(a: Open, b: Open): number {
  // Both amounts are in [1, 2^53 − 1]: the difference is exact.
  return b.amount - a.amount || compareParty(a.party, b.party);
}

/** Inserts `item` into `list` (sorted by openOrder) at its place. */
function insertSorted(list: Open[], item: Open): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (openOrder(list[mid], item) < 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

/**
 * R6.5: the transfers that settle every balance exactly.
 *
 * Input: one balance per party (positive = is owed, receives; negative = owes,
 * pays; zero = already square). Refused:
 * - balances that do not sum to zero: UNBALANCED (R6.5);
 * - a party listed twice: DUPLICATE_PARTY (R6.5);
 * - an empty or non-string party id: INVALID_PARTY (R6.5);
 * - an amount that is not a safe integer: AMOUNT_OUT_OF_RANGE (R6.2).
 *
 * Algorithm (greedy): debtors and creditors are each kept sorted by the amount
 * still open, largest first, ties broken by party id ascending (UTF-16 code-unit
 * order). Repeatedly the largest debtor pays the largest creditor
 * min(debt, credit); whoever is left with something open goes back into its list
 * at its sorted place.
 *
 * Why at most (k − 1) transfers, k = parties with a non-zero balance: every
 * transfer pays min(debt, credit), so it closes at least one of the two parties
 * and each party is closed at most once. The balances still open always sum to
 * zero, so a single open party is impossible: the last transfer is between one
 * debtor and one creditor owing each other exactly the same amount, and closes
 * both. Hence k parties are closed by at most k − 1 transfers (0 when k = 0).
 * (This bound is what R6.5 requires; the true minimum number of transfers is
 * NP-hard to find in general and is not attempted.)
 *
 * Properties: every amount is > 0; a party only ever pays (debtor) or only ever
 * receives (creditor), never both; no amount exceeds the largest |balance|.
 *
 * Determinism: the working lists are sorted by a total order before anything
 * else happens, so the output depends only on the set of (party, balance) pairs,
 * never on their order: the same balances in any order give byte-identical
 * output. Transfers come out in the order they are generated (largest first).
 */
export function settleTransfers(balances: Iterable<Balance>): Transfer[] {
  const seen = new Set<string>();
  const debtors: Open[] = [];
  const creditors: Open[] = [];
  let total = 0n;
  for (const b of balances) {
    assertParty(b.party);
    const amount = assertMinor(b.balanceMinor, `balanceMinor of ${b.party}`);
    if (seen.has(b.party)) {
      refuse('DUPLICATE_PARTY', 'R6.5', `party ${b.party} is listed more than once`, { party: b.party });
    }
    seen.add(b.party);
    total += BigInt(amount);
    if (amount > 0) creditors.push({ party: b.party, amount });
    else if (amount < 0) debtors.push({ party: b.party, amount: -amount });
  }
  if (total !== 0n) {
    refuse('UNBALANCED', 'R6.5', `balances must sum to zero; they sum to ${total} minor units`, {
      sumMinor: total.toString(),
    });
  }
  debtors.sort(openOrder);
  creditors.sort(openOrder);

  const transfers: Transfer[] = [];
  while (debtors.length > 0 && creditors.length > 0) {
    const debtor = debtors.shift()!;
    const creditor = creditors.shift()!;
    const amountMinor = Math.min(debtor.amount, creditor.amount);
    transfers.push({ from: debtor.party, to: creditor.party, amountMinor });
    debtor.amount -= amountMinor;
    creditor.amount -= amountMinor;
    if (debtor.amount > 0) insertSorted(debtors, debtor);
    if (creditor.amount > 0) insertSorted(creditors, creditor);
  }
  // With a zero sum both lists run out together; anything else is a bug.
  if (debtors.length > 0 || creditors.length > 0) {
    throw new Error('settleTransfers: internal error, balances left open');
  }
  return transfers;
}

// ---------------------------------------------------------------------------

function assertParty(party: unknown): asserts party is string {
  if (typeof party !== 'string' || party.length === 0) {
    refuse('INVALID_PARTY', 'R6.5', 'a party id must be a non-empty string (a player id or "house")', {
      party: party,
    });
  }
}

function* mapIter<T, U>(items: Iterable<T>, f: (item: T) => U): Iterable<U> {
  for (const item of items) yield f(item);
}
