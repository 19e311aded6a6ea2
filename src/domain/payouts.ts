/**
 * Money for a finished game: a money game's stake × points (R4.2) and a match's
 * stake on its last game (R3.8), as transfers between players in integer minor
 * units (R6.2). Every payout is a transfer, so a game's payouts always sum to zero.
 *
 * Products are computed in BigInt and refused (AMOUNT_OUT_OF_RANGE, R6.2) rather
 * than silently rounded when they leave the safe-integer range.
 */
import { refuse } from './errors';
import { GameState, PointTransfer } from './game';
import { assertMinor, fromBigMinor } from './money';
import { otherSide, PlayerId, Side, SideIndex } from './types';

export interface Payout {
  readonly from: PlayerId;
  readonly to: PlayerId;
  readonly amountMinor: number;
}

/**
 * Splits `amount` into `parts` shares as evenly as possible; the odd minor units
 * go to the first-named (R3.8).
 */
export function splitEvenly(amount: bigint, parts: number): bigint[] {
  const n = BigInt(parts);
  const base = amount / n;
  const odd = Number(amount % n);
  return Array.from({ length: parts }, (_, i) => base + (i < odd ? 1n : 0n));
}

/**
 * `amount` paid by side `from` to side `to`: each side's share split evenly, odd
 * unit on the first-named player of each side (R3.8), paired in order so that
 * there are as few transfers as possible. Zero amounts post nothing.
 */
export function sideTransfers(from: Side, to: Side, amount: bigint, field = 'amountMinor'): Payout[] {
  const pay = splitEvenly(amount, from.length);
  const get = splitEvenly(amount, to.length);
  const payouts: Payout[] = [];
  let i = 0;
  let j = 0;
  while (i < pay.length && j < get.length) {
    const part = pay[i] < get[j] ? pay[i] : get[j];
    if (part > 0n) {
      payouts.push({ from: from[i], to: to[j], amountMinor: fromBigMinor(part, field) });
    }
    pay[i] -= part;
    get[j] -= part;
    if (pay[i] === 0n) i++;
    if (get[j] === 0n) j++;
  }
  return payouts;
}

/** R4.2: a finished money game's payouts: the loser pays the winner stake × points. */
export function moneyGamePayouts(game: Pick<GameState, 'status' | 'settlement'>, stakeMinor: number): Payout[] {
  assertFinished(game, 'R4.2');
  const stake = BigInt(checkStake(stakeMinor, 'R4.1', 'stakeMinor'));
  return game.settlement.flatMap((t: PointTransfer) => {
    const amount = stake * BigInt(t.points);
    // R6.2: never beyond 2^53 − 1 minor units.
    fromBigMinor(amount, 'stake × points');
    return sideTransfers(t.from, t.to, amount, 'stake × points');
  });
}

/** R3.8: when a match ends, its losing side pays the stake to the winning side. */
export function matchStakePayouts(sides: readonly [Side, Side], winnerSide: SideIndex, stakeMinor: number): Payout[] {
  const stake = BigInt(checkStake(stakeMinor, 'R3.8', 'stakeMinor'));
  return sideTransfers(sides[otherSide(winnerSide)], sides[winnerSide], stake);
}

/**
 * A finished match game's payouts: a match game itself moves no money; the game
 * that ends the match carries the match stake, if any (R3.8).
 */
export function matchGamePayouts(
  game: Pick<GameState, 'status' | 'winnerSide'>,
  match: { readonly sides: readonly [Side, Side]; readonly stakeMinor: number | null; readonly endsMatch: boolean },
): Payout[] {
  assertFinished(game, 'R3.8');
  if (!match.endsMatch || match.stakeMinor === null || game.winnerSide === null) return [];
  return matchStakePayouts(match.sides, game.winnerSide, match.stakeMinor);
}

/** A stake: an integer number of minor units, zero or more (R6.2). */
export function checkStake(stakeMinor: number, rule: string, field: string): number {
  assertMinor(stakeMinor, field);
  if (stakeMinor < 0) {
    refuse('INVALID_STAKE', rule, `The stake cannot be negative (${rule}); got ${stakeMinor}`, { field });
  }
  return stakeMinor;
}

function assertFinished(game: Pick<GameState, 'status'>, rule: string): void {
  if (game.status !== 'finished') {
    refuse('GAME_NOT_FINISHED', rule, `Only a finished game pays out (${rule}): this game is still in progress`);
  }
}
