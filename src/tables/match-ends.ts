import { Injectable } from '@nestjs/common';
import type { Tx } from '../db/tx';
import { RatingChange, RatingsService } from '../ratings';
import { MatchEnding, MatchReopening, ratedState } from './engines';
import type { StatsChange } from './game-stats';
import { HookWrites, MatchEndHooks } from './match-end-hooks';
import type { MatchTableRow } from './stored-state';

/**
 * What a match's end reads and locks, the same whether a game, a penalty or a forfeit
 * ended it (the domain decided the end: `MatchEnding`). Reads only; the caller writes
 * the rating change and the hooks' writes with its COMMIT.
 */
@Injectable()
export class MatchEnds {
  constructor(
    private readonly ratings: RatingsService,
    private readonly hooks: MatchEndHooks,
  ) {}

  /**
   * R7.1: a rated end rates the match's players (their rows read and locked now), the
   * change kept on the match for a void; an unrated one keeps "rated for nobody", which
   * the rebuild of players.rated_matches reads. Then what follows it (a tournament's draw, R9.5).
   */
  async ended(tx: Tx, match: MatchTableRow, ending: MatchEnding, now: Date): Promise<{ rating: RatingChange | null; hookWrites: HookWrites }> {
    const rating = ending.rated ? await this.ratings.rate(tx, match.clubId, match, ending.winnerSide) : null;
    match.state = ratedState(match.state, rating ? rating.applied : []);
    const hookWrites = await this.hooks.prepare(tx, { match, kind: 'ended', score: ending.score, at: now });
    return { rating, hookWrites };
  }

  /**
   * R6.3, R7.1: a match that a void of its last game reopened: its rating change taken
   * back (its players read and locked now), its win to take back from the statistics,
   * and what follows (R9.10: a tournament may refuse it, or take back the pairing it fed).
   */
  async reopened(tx: Tx, match: MatchTableRow, reopening: MatchReopening, now: Date): Promise<Reopened> {
    const matches = reopening.winnerSide === null ? [] : [{ t: match, winnerSide: reopening.winnerSide }];
    const rating = await this.ratings.unrate(tx, match.clubId, reopening.unrate);
    const hookWrites = await this.hooks.prepare(tx, { match, kind: 'reopened', score: reopening.score, at: now });
    return { rating, hookWrites, matches };
  }
}

/** What a void that reopened a match writes with its COMMIT. */
export interface Reopened {
  rating: RatingChange | null;
  hookWrites: HookWrites | null;
  /** The statistics' match to take back, with the side that had won it. */
  matches: StatsChange['matches'];
}

export const NOT_REOPENED: Reopened = { rating: null, hookWrites: null, matches: [] };
