import { Injectable } from '@nestjs/common';
import { TABLE_KINDS } from '../domain/table-kinds';
import { cols, Row, RowDecodeError } from '../db/decode';
import type { Reads } from '../db/tx';
import type { StatsGame } from '../domain/player-stats';
import { gameVariantOf, type GameVariantName, type ResultName } from '../domain/game-variants';
import { CHOUETTE_REPLAY_SQL, chouetteCubeResults, GAME_VARIANT_SQL, lowerSeats, lowerSides, resultOrNull, seatsOrNull, sidesOrNull, TABLE_SIDES_SQL } from '../player-stats';

const STATUSES: ReadonlyArray<SessionGameRow['status']> = ['finished', 'voided', 'abandoned'];

/** A game of the session, with what its list, its CSV and the standings need. */
export interface SessionGameRow extends StatsGame {
  tableId: string;
  gameNo: number;
  status: 'finished' | 'voided' | 'abandoned';
  /** R8: the game's own variant (backgammon for chouettes and rows from before variants). */
  variant: GameVariantName;
  /** A `finish`: its winner (null for a Plakoto draw, R8.3), its result, and Tavla 31's `checkersLeft` (R8.6). */
  result: { winner: string | null; result: ResultName; resigned: boolean; checkersLeft?: number } | null;
  points: number | null;
  voidReason: string | null;
  startedAt: Date;
  endedAt: Date | null;
  /** A finished match's last game (whatever its status): the row that carries how the match ended. */
  endsMatch: boolean;
}

function mapRow(r: Row): SessionGameRow {
  const c = cols(r);
  const kind = c.oneOf('kind', TABLE_KINDS);
  const sides = sidesOrNull(c, 'sides');
  const seats = seatsOrNull(c, 'seats');
  const result = resultOrNull(c, 'result');
  // Every finish names its winner but a draw, which has none (R8.3).
  if (result && result.result && result.result !== 'draw' && result.winner === null) throw new RowDecodeError('result', 'a finish with its winner', result);
  return {
    tableId: c.text('table_id'),
    gameNo: c.int('game_no'),
    kind,
    status: c.oneOf('status', STATUSES),
    // Ids in lower case, as the database keeps uuids (a scorer may have sent upper case).
    sides: kind !== 'chouette' && sides ? lowerSides(sides) : null,
    seats: kind === 'chouette' && seats ? lowerSeats(seats) : null,
    cubes: chouetteCubeResults(r, c.json('chouette_actions')),
    winnerSide: c.intOrNull('winner_side'),
    variant: gameVariantOf(c.textOrNull('variant')),
    result:
      result && result.result
        ? {
            winner: result.winner === null ? null : result.winner.toLowerCase(),
            result: result.result,
            resigned: result.resigned ?? false,
            ...(result.checkersLeft === null ? {} : { checkersLeft: result.checkersLeft }),
          }
        : null,
    actions: [],
    points: c.intOrNull('points'),
    voidReason: c.textOrNull('void_reason'),
    startedAt: c.date('started_at'),
    endedAt: c.dateOrNull('ended_at'),
    endsMatch: c.bool('ends_match'),
  };
}

/**
 * The reads behind a session's games list and standings. Every query is scoped by
 * club_id and goes through the session's tables (game_tables_session_ix), then the
 * games' primary key.
 */
@Injectable()
export class StandingsRepository {
  /**
   * Finished, voided and abandoned games of the session's tables, by table id (tables
   * in creation order) then game number, after the keyset `after`; `limit` rows at most.
   */
  sessionGames(
    tx: Reads,
    clubId: string,
    sessionId: string,
    after: { tableId: string; gameNo: number } | null,
    limit: number,
    statuses: ReadonlyArray<SessionGameRow['status']> = STATUSES,
  ): Promise<SessionGameRow[]> {
    const params: unknown[] = [clubId, sessionId, statuses];
    let keyset = '';
    if (after) keyset = ` AND (g.table_id, g.game_no) > ($${params.push(after.tableId)}::uuid, $${params.push(after.gameNo)}::int)`;
    return tx.rows(
      `SELECT g.table_id, g.game_no, t.kind, g.status, ${TABLE_SIDES_SQL} AS sides, g.setup->'seatsAtStart' AS seats,
              g.winner_side, g.result, g.points, ${GAME_VARIANT_SQL} AS variant, g.void_reason, g.started_at, g.ended_at,
              CASE WHEN t.kind = 'chouette' THEN g.actions END AS chouette_actions, ${CHOUETTE_REPLAY_SQL},
              (t.kind = 'match' AND t.status = 'finished' AND g.game_no = t.next_game_no - 1) AS ends_match
         FROM game_tables t JOIN games g ON g.club_id = t.club_id AND g.table_id = t.id
        WHERE t.club_id = $1 AND t.session_id = $2 AND g.status = ANY($3::text[])${keyset}
        ORDER BY g.table_id, g.game_no
        LIMIT $${params.push(limit)}`,
      params,
      mapRow,
    );
  }
}
