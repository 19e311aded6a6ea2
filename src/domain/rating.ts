/**
 * Club ratings (R7.1), the FIBS formula:
 *
 *   D        = |r1 − r2|                      (rating difference)
 *   n        = match length (the target)
 *   P_upset  = 1 / (10^(D·√n / 2000) + 1)     (chance the underdog wins)
 *   P        = P_upset      if the favourite (higher rating) wins,
 *              1 − P_upset  if the underdog wins
 *   K        = max(1, 5 − experience/100)     (each player from his OWN experience)
 *   winner  += 4·K_winner·√n·P
 *   loser   −= 4·K_loser·√n·P
 *   both players' experience += n
 *
 * With equal ratings D = 0, P_upset = 1/2, and P = 1/2 whichever player wins
 * (either may be called "the favourite"; both readings give the same number).
 *
 * Pairs (consultation play, R3.7): each player of a side is rated, by the same
 * formula, against the AVERAGE rating of the other side, with his own K; see
 * `pairRatingChanges`.
 *
 * ROUNDING: none. Deltas, new ratings and everything in between are kept in
 * full double precision; the caller stores the full-precision rating (a float
 * column), so no rounding error accumulates over a player's history. Round only
 * for display, with `roundRating` (2 decimals, as FIBS shows ratings). Ratings
 * are not money: R6.2's "no floating point" applies to money only.
 *
 * Pure TypeScript: no framework, no I/O.
 */
import { refuse } from './errors';

/** R7.1: new players start at 1500 ... */
export const NEW_PLAYER_RATING = 1500;
/** ... with experience 0. */
export const NEW_PLAYER_EXPERIENCE = 0;

export interface RatedPlayer {
  rating: number;
  /** Total match points played so far (sum of the targets of rated matches). */
  experience: number;
}

export interface RatingOutcome {
  /** Signed change: positive for the winner, negative for the loser (full precision). */
  delta: number;
  /** rating + delta (full precision). */
  rating: number;
  /** experience + n. */
  experience: number;
}

export interface RatingChange {
  winner: RatingOutcome;
  loser: RatingOutcome;
}

export interface SidePlayer extends RatedPlayer {
  id: string;
}

/** R7.1: K = max(1, 5 − experience/100), from the player's own experience. */
export function kFactor(experience: number): number {
  assertExperience(experience);
  return Math.max(1, 5 - experience / 100);
}

/** R7.1: P_upset = 1 / (10^(D·√n/2000) + 1) with D = |r1 − r2|: the underdog's chance. */
export function upsetProbability(ratingA: number, ratingB: number, target: number): number {
  assertRating(ratingA);
  assertRating(ratingB);
  assertTarget(target);
  const d = Math.abs(ratingA - ratingB);
  return 1 / (Math.pow(10, (d * Math.sqrt(target)) / 2000) + 1);
}

/**
 * R7.1: the P of the formula for a match won by a player rated `winnerRating`
 * against one rated `loserRating`: P_upset if the winner is the favourite (or
 * the ratings are equal), else 1 − P_upset.
 */
export function winnerWeight(winnerRating: number, loserRating: number, target: number): number {
  const pUpset = upsetProbability(winnerRating, loserRating, target);
  return winnerRating >= loserRating ? pUpset : 1 - pUpset;
}

/**
 * R7.1: the rating change of a finished match between two players.
 * `target` is the match length n. Each player's K comes from his own experience,
 * so the two deltas are equal and opposite only when the two K are equal.
 *
 * Refused (INVALID_RATING_INPUT, R7.1): a rating that is not a finite number, an
 * experience that is not a non-negative integer, a target that is not a
 * positive integer.
 */
export function ratingChange(input: { winner: RatedPlayer; loser: RatedPlayer; target: number }): RatingChange {
  const { winner, loser, target } = input;
  const p = winnerWeight(winner.rating, loser.rating, target);
  const base = 4 * Math.sqrt(target) * p;
  const winnerDelta = kFactor(winner.experience) * base;
  const loserDelta = -kFactor(loser.experience) * base;
  return {
    winner: { delta: winnerDelta, rating: winner.rating + winnerDelta, experience: winner.experience + target },
    loser: { delta: loserDelta, rating: loser.rating + loserDelta, experience: loser.experience + target },
  };
}

/** Arithmetic mean of a side's ratings. */
export function averageRating(side: readonly RatedPlayer[]): number {
  if (side.length === 0) {
    refuse('INVALID_RATING_INPUT', 'R7.1', 'a side must have at least one player');
  }
  let sum = 0;
  for (const p of side) {
    assertRating(p.rating);
    sum += p.rating;
  }
  return sum / side.length;
}

/**
 * R7.1 with R3.7: the rating changes of a match between two sides, each one
 * player or a pair. Every player is rated as if he alone had played the average
 * rating of the other side, with his own K (and his own rating for D): a winner
 * gains 4·K·√n·P with P from (his rating, the losers' average); a loser loses
 * 4·K·√n·P with P from (the winners' average, his rating). Everyone gains n
 * experience. With one player per side this is exactly `ratingChange`.
 *
 * Returns one outcome per player id, in input order (side 0 first).
 * Refused (R7.1): an empty side, a player on both sides or twice
 * (DUPLICATE_PLAYER), a winnerSide other than 0 or 1, or invalid numbers
 * (INVALID_RATING_INPUT).
 */
export function pairRatingChanges(sides: readonly [readonly SidePlayer[], readonly SidePlayer[]], winnerSide: 0 | 1, target: number): Map<string, RatingOutcome> {
  if (winnerSide !== 0 && winnerSide !== 1) {
    refuse('INVALID_RATING_INPUT', 'R7.1', 'winnerSide must be 0 or 1', { winnerSide });
  }
  const seen = new Set<string>();
  for (const side of sides) {
    for (const p of side) {
      if (seen.has(p.id)) {
        refuse('DUPLICATE_PLAYER', 'R7.1', `player ${p.id} appears more than once in the match`, { playerId: p.id });
      }
      seen.add(p.id);
    }
  }
  const winners = sides[winnerSide];
  const losers = sides[winnerSide === 0 ? 1 : 0];
  const winnersAverage = averageRating(winners);
  const losersAverage = averageRating(losers);

  const out = new Map<string, RatingOutcome>();
  sides.forEach((side, index) => {
    for (const player of side) {
      if (index === winnerSide) {
        const change = ratingChange({
          winner: player,
          loser: { rating: losersAverage, experience: NEW_PLAYER_EXPERIENCE },
          target,
        });
        out.set(player.id, change.winner);
      } else {
        const change = ratingChange({
          winner: { rating: winnersAverage, experience: NEW_PLAYER_EXPERIENCE },
          loser: player,
          target,
        });
        out.set(player.id, change.loser);
      }
    }
  });
  return out;
}

/** For display only: a rating or delta rounded to 2 decimals (half away from zero). */
export function roundRating(value: number, decimals = 2): number {
  const f = 10 ** decimals;
  const r = (Math.sign(value) * Math.round(Math.abs(value) * f)) / f;
  return r === 0 ? 0 : r;
}

// ---------------------------------------------------------------------------

function assertRating(rating: unknown): asserts rating is number {
  if (typeof rating !== 'number' || !Number.isFinite(rating)) {
    refuse('INVALID_RATING_INPUT', 'R7.1', 'a rating must be a finite number', { rating });
  }
}

function assertExperience(experience: unknown): asserts experience is number {
  if (typeof experience !== 'number' || !Number.isSafeInteger(experience) || experience < 0) {
    refuse('INVALID_RATING_INPUT', 'R7.1', 'experience must be a non-negative integer (match points played)', {
      experience,
    });
  }
}

function assertTarget(target: unknown): asserts target is number {
  if (typeof target !== 'number' || !Number.isSafeInteger(target) || target < 1) {
    refuse('INVALID_RATING_INPUT', 'R7.1', 'the match length n must be a positive integer', { target });
  }
}
