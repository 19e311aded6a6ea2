/**
 * Money for a finished chouette game (R5.5, R5.9, R5.11, R6.2–R6.4).
 *
 * 1. R5.5/R5.11: each member settles with the box alone: stake × points of his
 *    cube, at the lower of his and the box's stake when stakes are per player.
 * 2. R5.9: the partner takes `partnerShare` % of the box's net for the game,
 *    rounded toward zero so the odd minor unit stays with the box. When the box
 *    lost, the partner bears the same share of the loss (he pays the box), again
 *    with the odd unit left with the box.
 * 3. R6.4: rake: `rakeBasisPoints` of each winner's net for the game (after the
 *    partner's share), rounded down, paid by that winner to "house".
 *
 * Every payout is one transfer (from, to, amount > 0); there is at most one per
 * payer–payee pair (R6.3), so a game's payouts always sum to zero. Amounts are
 * computed in BigInt and refused (AMOUNT_OUT_OF_RANGE, R6.2) beyond 2^53 − 1.
 */
import { refuse } from './errors';
import { ChouetteGameSetup, ChouetteGameState } from './chouette-game';
import { ChouetteRules } from './chouette-rules';
import { assertMinor, fromBigMinor } from './money';
import { checkStake, Payout } from './payouts';
import { HOUSE, netsFromEntries, rakeFor } from './settlement';
import { PlayerId } from './types';

export interface PlayerStake {
  readonly playerId: PlayerId;
  readonly stakeMinor: number;
}

/** R5.11: the table's stake per point, and optionally a stake per player. */
export interface ChouetteStakes {
  readonly stakeMinor: number;
  /** Per-player stakes; a player not listed plays at the table stake. */
  readonly perPlayer: ReadonlyMap<PlayerId, number>;
}

/** R5.11: validates the table stake and the per-player stakes (each player once, ≥ 0, safe integers). */
export function resolveChouetteStakes(stakeMinor: number, stakes?: readonly PlayerStake[] | null): ChouetteStakes {
  checkStake(stakeMinor, 'R5.11', 'stakeMinor');
  const perPlayer = new Map<PlayerId, number>();
  if (stakes !== undefined && stakes !== null) {
    // Array.isArray would narrow a readonly array to any[]: test the value as unknown.
    const list: unknown = stakes;
    if (!Array.isArray(list)) {
      refuse('INVALID_STAKE', 'R5.11', 'Per-player stakes are a list of { playerId, stakeMinor } (R5.11)');
    }
    for (const s of stakes) {
      if (typeof s !== 'object' || s === null || typeof s.playerId !== 'string' || s.playerId.length === 0) {
        refuse('INVALID_STAKE', 'R5.11', 'Every per-player stake is { playerId, stakeMinor } (R5.11)');
      }
      if (perPlayer.has(s.playerId)) {
        refuse('DUPLICATE_STAKE', 'R5.11', `Player ${s.playerId} has two stakes: one stake per player (R5.11)`, { playerId: s.playerId });
      }
      perPlayer.set(s.playerId, checkStake(s.stakeMinor, 'R5.11', `stake of ${s.playerId}`));
    }
  }
  return { stakeMinor, perPlayer };
}

/** R5.11: the stake per point between the box and a member: the lower of their two stakes. */
export function stakeBetween(stakes: ChouetteStakes, box: PlayerId, member: PlayerId): number {
  const boxStake = stakes.perPlayer.get(box) ?? stakes.stakeMinor;
  const memberStake = stakes.perPlayer.get(member) ?? stakes.stakeMinor;
  return Math.min(boxStake, memberStake);
}

/** R5.9: the partner's part of the box's net (signed): |net| × share / 100 rounded down, the odd unit left with the box. */
export function partnerPart(boxNet: bigint, partnerShare: number): bigint {
  if (!Number.isInteger(partnerShare) || partnerShare < 0 || partnerShare > 100) {
    refuse('INVALID_PARTNER_SHARE', 'R5.9', `"partnerShare" is a whole percentage from 0 to 100 (R5.9); got ${String(partnerShare)}`);
  }
  // BigInt division truncates toward zero: the partner's part never exceeds the exact share, either sign.
  return (boxNet * BigInt(partnerShare)) / 100n;
}

export interface ChouetteMoneyOptions {
  readonly stakes: ChouetteStakes;
  /** R6.4: the session's rake in basis points (2.5 % = 250); 0 or omitted = none. */
  readonly rakeBasisPoints?: number;
}

/**
 * The payouts of a finished chouette game, in this order: member ↔ box (team
 * order), box ↔ partner, then the rake of each winner (box, partner, team order).
 */
export function chouetteGamePayouts(
  setup: Pick<ChouetteGameSetup, 'box' | 'partner'> & { readonly rules: Pick<ChouetteRules, 'partnerShare'> },
  game: Pick<ChouetteGameState, 'status' | 'settlement'>,
  options: ChouetteMoneyOptions,
): Payout[] {
  if (game.status !== 'finished') {
    refuse('GAME_NOT_FINISHED', 'R5.5', 'Only a finished chouette game pays out (R5.5): this game is still in progress');
  }
  const payouts: Payout[] = [];
  const nets = new Map<PlayerId, bigint>();
  const credit = (p: PlayerId, amount: bigint) => nets.set(p, (nets.get(p) ?? 0n) + amount);
  const post = (from: PlayerId, to: PlayerId, amount: bigint, field: string) => {
    if (amount === 0n) return;
    payouts.push({ from, to, amountMinor: fromBigMinor(amount, field) });
    credit(from, -amount);
    credit(to, amount);
  };

  // 1. R5.5/R5.11: each member with the box.
  for (const r of game.settlement) {
    const stake = BigInt(stakeBetween(options.stakes, setup.box, r.member));
    const amount = stake * BigInt(assertMinor(r.points, 'points'));
    if (r.winner === 'box') post(r.member, setup.box, amount, 'stake × points');
    else post(setup.box, r.member, amount, 'stake × points');
  }

  // 2. R5.9: the partner's share of the box's net, win or loss.
  if (setup.partner !== null) {
    const boxNet = nets.get(setup.box) ?? 0n;
    const part = partnerPart(boxNet, setup.rules.partnerShare);
    if (part > 0n) post(setup.box, setup.partner, part, 'partner share');
    else if (part < 0n) post(setup.partner, setup.box, -part, 'partner share');
  }

  // 3. R6.4: rake on each winner's net for the game.
  const bp = options.rakeBasisPoints ?? 0;
  const order = [setup.box, ...(setup.partner === null ? [] : [setup.partner]), ...game.settlement.map((r) => r.member)];
  const rakes: [PlayerId, bigint][] = [];
  for (const p of order) {
    const net = nets.get(p) ?? 0n;
    const rake = rakeFor(fromBigMinor(net, `net of ${p}`), bp);
    if (rake > 0) rakes.push([p, BigInt(rake)]);
  }
  for (const [p, rake] of rakes) post(p, HOUSE, rake, 'rake');
  return payouts;
}

/** Each party's net for the game (players and "house"): what it received minus what it paid. */
export function chouetteGameNets(payouts: readonly Payout[]): Map<PlayerId, number> {
  return netsFromEntries(payouts);
}
