import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { Db } from '../db/db.service';
import { cols } from '../db/decode';
import { changePlayerRows } from '../db/player-rows';
import type { Tx } from '../db/tx';
import { pairRatingChanges, roundRating, SidePlayer } from '../domain/rating';
import type { SideIndex } from '../domain/types';
import { isRated } from './rated';

/** What a rating reads of a match table: its setup's sides (player ids) and length (a subset of the match setup in domain/match-table.ts). */
export interface RatedMatch {
  setup: {
    readonly sides: readonly [readonly string[], readonly string[]];
    readonly target: number;
    /** R8: absent in matches from before variants (backgammon). */
    readonly variant?: string;
  };
}

/** What a finished match did to each player's rating, kept on the match so a void can take it back (R7.1). */
export interface AppliedRating {
  playerId: string;
  /** Signed change at full precision. */
  delta: number;
  /** Experience gained: the match length. */
  experience: number;
}

export class RatingDto {
  @ApiProperty({ format: 'uuid' })
  playerId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Club rating by the FIBS formula (R7.1), to two decimals.', example: 1503.9 })
  rating: number;

  @ApiProperty({ description: 'Match points played in rated matches (R7.1).', example: 5 })
  experience: number;

  @ApiProperty({ description: 'Finished backgammon matches the player has played in the club: the rated ones (R8.9).', example: 1 })
  matches: number;
}

/** A rating change worked out (the players locked), to write with the COMMIT and announce. */
export interface RatingChange {
  /** What the match does to each player (the match keeps these for a void). */
  applied: AppliedRating[];
  /** 1: the change is made; -1: it is taken back. */
  sign: 1 | -1;
  /** Each player's rating after it, as GET /v1/ratings lists it (in the order of `applied`). */
  after: RatingDto[];
}

const NO_CHANGE: RatingChange = { applied: [], sign: 1, after: [] };

/** A player's row as a rating reads it, with the rated matches he has played. */
interface RatedPlayer {
  id: string;
  name: string;
  rating: number;
  experience: number;
  matches: number;
}

/** The change and each player's rating after it: the match is finished (sign 1) or open again (sign -1) once it is written. */
function changeOf(applied: AppliedRating[], sign: 1 | -1, now: Map<string, RatedPlayer>): RatingChange {
  const after = applied.map((a) => {
    const p = now.get(a.playerId)!;
    return { playerId: p.id, name: p.name, rating: roundRating(p.rating + sign * a.delta), experience: p.experience + sign * a.experience, matches: p.matches + sign };
  });
  return { applied, sign, after };
}

/**
 * R7.1 club ratings: a match that finishes (by its games or by a penalty) rates its
 * players in the same transaction; a void that reopens it takes the change back.
 */
@Injectable()
export class RatingsService {
  constructor(private readonly db: Db) {}

  /**
   * Rates a match that has just finished: every player against the other side's
   * average (R3.7), from the ratings as they are now (rows locked in id order). Reads
   * only: `apply` writes the change (with the COMMIT), whose `applied` the match keeps.
   */
  async rate(tx: Tx, clubId: string, t: RatedMatch, winnerSide: SideIndex): Promise<RatingChange> {
    const { setup } = t;
    // R7.2, R8.9: only backgammon matches are rated; another variant's match changes nobody's rating.
    if (!isRated(setup)) return NO_CHANGE;
    const ids = [...setup.sides[0], ...setup.sides[1]];
    const now = await this.lockPlayers(tx, clubId, ids);
    const side = (s: readonly string[]): SidePlayer[] => s.map((id) => ({ id, rating: now.get(id)!.rating, experience: now.get(id)!.experience }));
    const outcomes = pairRatingChanges([side(setup.sides[0]), side(setup.sides[1])], winnerSide, setup.target);
    const applied = ids.map((playerId) => ({ playerId, delta: outcomes.get(playerId)!.delta, experience: setup.target }));
    return changeOf(applied, 1, now);
  }

  /**
   * Takes back what `rate` did (a void reopened the match): the players' rows locked in
   * id order, as `rate` locks them. Reads only: `apply` writes it.
   */
  async unrate(tx: Tx, clubId: string, applied: AppliedRating[]): Promise<RatingChange> {
    // A match that was not rated (R8.9: not backgammon) kept no changes: nothing to take back.
    if (applied.length === 0) return NO_CHANGE;
    const players = await this.lockPlayers(tx, clubId, [...new Set(applied.map((a) => a.playerId))]);
    return changeOf(applied, -1, players);
  }

  /**
   * Adds (or takes back) the change: a deferred write, as an increment of the rows' values
   * at COMMIT. Reads nothing, so it may come after the command's other deferred writes.
   */
  apply(tx: Tx, clubId: string, change: RatingChange): void {
    if (change.applied.length === 0) return;
    const { sign } = change;
    // rated_matches: the read model of `matches` (R8.9: the rated matches are the finished backgammon ones).
    changePlayerRows(tx, clubId, new Map(change.applied.map((a) => [a.playerId, { rating: sign * a.delta, experience: sign * a.experience, ratedMatches: sign }])));
  }

  /** The players' rows locked (in id order), with what GET /v1/ratings shows of them. */
  private async lockPlayers(tx: Tx, clubId: string, ids: string[]): Promise<Map<string, RatedPlayer>> {
    const rows = await tx.rows(
      `SELECT id, name, rating::text AS rating, experience, rated_matches FROM players WHERE club_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
      [clubId, ids],
      (r) => {
        const c = cols(r);
        return { id: c.text('id'), name: c.text('name'), rating: c.float('rating'), experience: c.int('experience'), matches: c.int('rated_matches') };
      },
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** GET /v1/ratings: best first (rating descending, then id). */
  async list(auth: KeyAuth, limit: number, cursor?: string): Promise<Page<RatingDto>> {
    const after = decodeCursor(cursor, ['number', 'string']);
    const rows = await this.db.once.rows(
      `SELECT p.id, p.name, p.rating::text AS rating, p.experience, p.rated_matches AS matches
         FROM players p
        WHERE p.club_id = $1 AND ($2::float8 IS NULL OR p.rating < $2 OR (p.rating = $2 AND p.id > $3::uuid))
        ORDER BY p.rating DESC, p.id
        LIMIT $4`,
      [auth.clubId, (after?.[0] as number) ?? null, (after?.[1] as string) ?? null, limit + 1],
      (r) => {
        const c = cols(r);
        return { id: c.text('id'), name: c.text('name'), rating: c.float('rating'), experience: c.int('experience'), matches: c.int('matches') };
      },
    );
    return toPage(
      rows,
      limit,
      (r) => [r.rating, r.id],
      (r) => ({
        playerId: r.id,
        name: r.name,
        rating: roundRating(r.rating),
        experience: r.experience,
        matches: r.matches,
      }),
    );
  }
}
