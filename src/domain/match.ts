/**
 * Match play (R3): creating a match, scoring its history, the Crawford game and
 * the dead cube, penalties and forfeit.
 *
 * The history is the match's finished games and penalties in the order they
 * happened. An abandoned or voided game is simply not in it (R6.3), so whatever
 * it would have changed, including the Crawford count, is as before.
 */
import { DoublingPermission } from './cube';
import { refuse } from './errors';
import { GameSetup } from './game';
import { MatchRules, MatchRulesInput, resolveMatchRules } from './rules';
import { validateSides } from './sides';
import { otherSide, Side, SideIndex } from './types';
import { gameVariantAt, parseVariant, splitVariantRules, validateVariantTarget, Variant, variantHasCube, variantRules } from './variants';

const MIN_TARGET = 1;
const MAX_TARGET = 63;

export interface MatchInput {
  readonly sides: unknown;
  readonly target: unknown;
  readonly rules?: MatchRulesInput | null;
  /** R8: the game of the nardy family played (absent: backgammon). */
  readonly variant?: unknown;
}

export interface MatchSetup {
  readonly sides: readonly [Side, Side];
  readonly target: number;
  readonly rules: MatchRules;
  /** R3.3: a 1-point match has no cube; R8.1–R8.6: nor has a variant without one. */
  readonly hasCube: boolean;
  /** R8: set when the match was created naming its variant (absent: backgammon). */
  readonly variant?: Variant;
}

export type MatchEvent =
  | {
      readonly kind: 'game';
      readonly winnerSide: SideIndex;
      readonly points: number;
      /** The game's number at its table, if known (reported back for the Crawford game). */
      readonly gameNo?: number | null;
    }
  | {
      /** R3.6: points awarded to `side` (so against the other side). */
      readonly kind: 'penalty';
      readonly side: SideIndex;
      readonly points: number;
    }
  | {
      /** R3.9: `side` forfeits the match; the other side wins it, the score staying as played. */
      readonly kind: 'forfeit';
      readonly side: SideIndex;
      readonly reason: ForfeitReason;
    };

/** R3.9: why a side forfeited (`penalties`: more than half the target against it, R3.6). */
export const FORFEIT_REASONS = ['no-show', 'lateness', 'time', 'disqualification', 'withdrawal', 'concession', 'penalties'] as const;
export type ForfeitReason = (typeof FORFEIT_REASONS)[number];

/** R3.2, R3.9: how a match ended: a score reached the target, or a side forfeited. */
export type MatchEnd = { readonly kind: 'points' } | { readonly kind: 'forfeit'; readonly side: SideIndex; readonly reason: ForfeitReason };

export interface MatchGameInfo {
  /** Position among the match's counted games, 0-based. */
  readonly index: number;
  readonly gameNo: number | null;
  readonly crawford: boolean;
  readonly postCrawford: boolean;
  readonly scoreBefore: readonly [number, number];
  readonly scoreAfter: readonly [number, number];
}

export interface NextGame {
  /** R3.4: the next game is the Crawford game. */
  readonly crawford: boolean;
  readonly doubling: DoublingPermission;
  /** target − score, per side (R3.5). */
  readonly pointsToGo: readonly [number, number];
}

export interface MatchScore {
  /** Real totals (R3.2: 6-4 in a 5-point match). */
  readonly score: readonly [number, number];
  /** R3.6: penalty points awarded against each side (i.e. to its opponent). */
  readonly penaltiesAgainst: readonly [number, number];
  readonly status: 'in-progress' | 'finished';
  readonly winnerSide: SideIndex | null;
  /** How it ended: a score reached the target (R3.2), or a side forfeited (R3.9; by penalties, R3.6); null while in progress. */
  readonly endedBy: MatchEnd | null;
  /**
   * R3.4: position (0-based, among counted games) of the Crawford game once it is
   * known, i.e. as soon as a score reaches target − 1; null before that or when
   * Crawford is off. Equal to `games.length` while it is the next game.
   */
  readonly crawfordGameIndex: number | null;
  /** The Crawford game's `gameNo` if it has been played and carried one. */
  readonly crawfordGameNo: number | null;
  readonly games: readonly MatchGameInfo[];
  /** What the next game is; null once the match is over (R3.2: no game after the end). */
  readonly nextGame: NextGame | null;
}

/** R3.1: an odd target from 1 to 63; the message says "even" or "out of range". */
export function validateTarget(target: unknown, evenTarget = false): number {
  if (typeof target !== 'number' || !Number.isInteger(target)) {
    refuse('INVALID_TARGET', 'R3.1', `The match target must be a whole odd number from ${MIN_TARGET} to ${MAX_TARGET} (R3.1)`, {
      target,
    });
  }
  if (target < MIN_TARGET || target > MAX_TARGET) {
    refuse('TARGET_OUT_OF_RANGE', 'R3.1', `A ${target}-point match is out of range: the target is an odd number from ${MIN_TARGET} to ${MAX_TARGET} (R3.1)`, { target });
  }
  if (target % 2 === 0 && !evenTarget) {
    refuse('TARGET_EVEN', 'R3.1', `${target} is even: a match is played to an odd number of points, such as 3, 5 or 7, unless it is created with "evenTarget": true (R3.1)`, {
      target,
    });
  }
  return target;
}

/**
 * Validates a new match: target (R3.1), sides (R3.7), rules with the defaults
 * `{ crawford: true, deadCube: 'refuse' }` and no money-only setting (R2.8).
 */
export function createMatch(input: MatchInput): MatchSetup {
  const variant = parseVariant(input.variant);
  // R8.1, R8.10: `cube`, `evenTarget` and the settings the variant lacks, then the match settings (R2.8, R3.4, R3.5).
  const { settings, rest } = splitVariantRules(variant, input.rules ?? {}, 'match');
  // R3.1 for backgammon (an even target only with `evenTarget`), R8.7 for the other variants.
  const target = variant === 'backgammon' ? validateTarget(input.target, settings.evenTarget) : validateVariantTarget(variant, input.target);
  const sides = validateSides(input.sides, 'match');
  const resolved = variantRules(resolveMatchRules(rest as MatchRulesInput), settings);
  const rules = settings.evenTarget ? Object.freeze({ ...resolved, evenTarget: true }) : resolved;
  const hasCube = target > 1 && variantHasCube(variant, settings.cube);
  return input.variant === undefined ? { sides, target, rules, hasCube } : { sides, target, rules, hasCube, variant };
}

/**
 * R3.2–R3.6: the score of a match from its history (finished games and penalties,
 * in order). An event after the match is over is refused (R3.2).
 */
export function scoreMatch(match: Pick<MatchSetup, 'target' | 'rules'>, history: readonly MatchEvent[]): MatchScore {
  const { target } = match;
  const score: [number, number] = [0, 0];
  const against: [number, number] = [0, 0];
  const games: MatchGameInfo[] = [];
  let winnerSide: SideIndex | null = null;
  let endedBy: MatchEnd | null = null;
  let crawfordGameIndex: number | null = null;

  for (const [position, event] of history.entries()) {
    if (winnerSide !== null) {
      refuse('MATCH_FINISHED', 'R3.2', `The match is over (${score[0]}-${score[1]} to ${target}): nothing more can be recorded in it (R3.2)`, { position });
    }
    checkEvent(event, position);
    if (event.kind === 'game') {
      const index = games.length;
      const before: [number, number] = [score[0], score[1]];
      score[event.winnerSide] += event.points;
      games.push({
        index,
        gameNo: event.gameNo ?? null,
        crawford: crawfordGameIndex === index,
        postCrawford: crawfordGameIndex !== null && index > crawfordGameIndex,
        scoreBefore: before,
        scoreAfter: [score[0], score[1]],
      });
    } else if (event.kind === 'penalty') {
      score[event.side] += event.points;
      against[otherSide(event.side)] += event.points;
    } else {
      // R3.9: the other side wins; the score stays as played.
      winnerSide = otherSide(event.side);
      endedBy = { kind: 'forfeit', side: event.side, reason: event.reason };
      continue;
    }

    // R3.6, R3.9: penalties against one side beyond half the target forfeit the match.
    const forfeiting = ([0, 1] as const).find((s) => against[s] * 2 > target);
    if (forfeiting !== undefined) {
      winnerSide = otherSide(forfeiting);
      endedBy = { kind: 'forfeit', side: forfeiting, reason: 'penalties' };
    } else {
      // R3.2: a score reaching or passing the target ends the match.
      const reached = ([0, 1] as const).find((s) => score[s] >= target);
      if (reached !== undefined) {
        winnerSide = reached;
        endedBy = { kind: 'points' };
      }
    }
    // R3.4: the game right after a score first becomes exactly target − 1.
    if (winnerSide === null && match.rules.crawford && crawfordGameIndex === null && target > 1) {
      if (score[0] === target - 1 || score[1] === target - 1) {
        crawfordGameIndex = games.length;
      }
    }
  }

  const finished = winnerSide !== null;
  const crawfordIndex = crawfordGameIndex;
  let nextGame: NextGame | null = null;
  if (!finished) {
    const crawford = crawfordIndex === games.length;
    nextGame = {
      crawford,
      doubling: target === 1 ? 'one-point-match' : crawford ? 'crawford' : 'allowed',
      pointsToGo: [target - score[0], target - score[1]],
    };
  }
  return {
    score,
    penaltiesAgainst: against,
    status: finished ? 'finished' : 'in-progress',
    winnerSide,
    endedBy,
    crawfordGameIndex: crawfordIndex,
    crawfordGameNo: crawfordIndex !== null && crawfordIndex < games.length ? games[crawfordIndex].gameNo : null,
    games,
    nextGame,
  };
}

/**
 * The setup of the match's next game: Crawford (R3.4), a 1-point match's missing
 * cube (R3.3) and the dead-cube context (R3.5) all come from the score. Refused
 * once the match is over (R3.2). `finishedGames` (draws included, R8.5) picks a Tavli
 * match's next variant.
 */
export function nextMatchGameSetup(match: MatchSetup, score: MatchScore, finishedGames = 0): GameSetup {
  if (!score.nextGame) {
    refuse('MATCH_FINISHED', 'R3.2', `The match is over (${score.score[0]}-${score.score[1]} to ${match.target}): no game can start after the end (R3.2)`);
  }
  return {
    table: 'match',
    sides: match.sides,
    rules: match.rules,
    doubling: score.nextGame.doubling,
    match: { pointsToGo: score.nextGame.pointsToGo, deadCube: match.rules.deadCube },
    ...(match.variant === undefined ? {} : { variant: gameVariantAt(match.variant, finishedGames) }),
  };
}

function checkEvent(event: MatchEvent, position: number): void {
  if (event.kind !== 'game' && event.kind !== 'penalty' && event.kind !== 'forfeit') {
    refuse('INVALID_MATCH_EVENT', 'R3.2', 'A match history holds finished games, penalties and a forfeit only (R3.2, R3.6, R3.9)', { position });
  }
  if (event.kind === 'forfeit') {
    if (event.side !== 0 && event.side !== 1) refuse('INVALID_MATCH_EVENT', 'R3.9', 'The side that forfeits is 0 or 1 (R3.9)', { position });
    if (!(FORFEIT_REASONS as readonly string[]).includes(event.reason)) {
      refuse('INVALID_MATCH_EVENT', 'R3.9', `A forfeit's reason is one of ${FORFEIT_REASONS.join(', ')} (R3.9)`, { position });
    }
    return;
  }
  const rule = event.kind === 'game' ? 'R3.2' : 'R3.6';
  const side = event.kind === 'game' ? event.winnerSide : event.side;
  if (side !== 0 && side !== 1) {
    refuse('INVALID_MATCH_EVENT', rule, `The side is 0 or 1 (${rule})`, { position });
  }
  if (!Number.isSafeInteger(event.points) || event.points < 1) {
    refuse(
      event.kind === 'game' ? 'INVALID_GAME_POINTS' : 'INVALID_PENALTY',
      rule,
      event.kind === 'game'
        ? `A finished game is worth a whole number of points, at least 1 (R1.1, R3.2); got ${String(event.points)}`
        : `Penalty points are a whole number, at least 1 (R3.6); got ${String(event.points)}`,
      { position },
    );
  }
}

/**
 * R3.9: a forfeited match is rated (R7) only when at least one of its games was finished;
 * one ended by points always is, and so is one forfeited by penalties (R7.1: penalty
 * points are points on the board, and penalty-forfeited matches count).
 */
export function matchEndIsRated(endedBy: MatchEnd, finishedGames: number): boolean {
  return endedBy.kind === 'points' || endedBy.reason === 'penalties' || finishedGames > 0;
}

/** One result of a match, as a void names it (R6.3, R3.6, R3.9). */
export type MatchResultRef = { readonly kind: 'game'; readonly gameNo: number } | { readonly kind: 'penalty'; readonly seq: number } | { readonly kind: 'forfeit'; readonly seq: number };

/**
 * R6.3, R3.6, R3.9: the match's most recent result, the only one a void may take back:
 * its forfeit, if it stands (nothing can follow one); else its latest penalty when that
 * came after its latest finished game (a penalty is given between games, after the game
 * numbered `afterGameNo` started), else that game; null when it has none.
 * `penalties` are those standing (not voided), in the order they were given.
 */
export function latestMatchResult(
  latestFinishedGameNo: number | null,
  penalties: ReadonlyArray<{ readonly seq: number; readonly afterGameNo: number }>,
  forfeit: { readonly seq: number } | null,
): MatchResultRef | null {
  if (forfeit) return { kind: 'forfeit', seq: forfeit.seq };
  const last = penalties.length ? penalties[penalties.length - 1] : null;
  if (last && (latestFinishedGameNo === null || last.afterGameNo >= latestFinishedGameNo)) return { kind: 'penalty', seq: last.seq };
  return latestFinishedGameNo === null ? null : { kind: 'game', gameNo: latestFinishedGameNo };
}
