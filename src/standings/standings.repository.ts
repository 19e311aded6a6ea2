import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { StatsChouetteSeats, StatsGame, StatsTableKind } from '../domain/player-stats';
import type { ResultKind } from '../domain/types';
import { CHOUETTE_REPLAY_SQL, chouetteCubeResults, lowerSeats, lowerSides, TABLE_SIDES_SQL } from '../player-stats';

type Row = Record<string, unknown>;
type Sides = readonly [readonly string[], readonly string[]];

/** A game of the session, with what its list, its CSV and the standings need. */
export interface SessionGameRow extends StatsGame {
  tableId: string;
  gameNo: number;
  status: 'finished' | 'voided' | 'abandoned';
  result: { winner: string; result: ResultKind; resigned: boolean } | null;
  points: number | null;
  voidReason: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

function mapRow(r: Row): SessionGameRow {
  const kind = r.kind as StatsTableKind;
  const sides = (r.sides as Sides | null) ?? null;
  const seats = (r.seats as StatsChouetteSeats | null) ?? null;
  const result = (r.result as { winner: string; result: ResultKind; resigned?: boolean } | null) ?? null;
  return {
    tableId: r.table_id as string,
    gameNo: r.game_no as number,
    kind,
    status: r.status as SessionGameRow['status'],
    // Ids in lower case, as the database keeps uuids (a scorer may have sent upper case).
    sides: kind !== 'chouette' && sides ? lowerSides(sides) : null,
    seats: kind === 'chouette' && seats ? lowerSeats(seats) : null,
    cubes: chouetteCubeResults(r, r.chouette_actions),
    winnerSide: (r.winner_side as number | null) ?? null,
    result: result && result.result ? { winner: result.winner.toLowerCase(), result: result.result, resigned: result.resigned ?? false } : null,
    actions: [],
    points: (r.points as number | null) ?? null,
    voidReason: (r.void_reason as string | null) ?? null,
    startedAt: r.started_at as Date,
    endedAt: (r.ended_at as Date | null) ?? null,
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
  async sessionGames(
    m: EntityManager,
    clubId: string,
    sessionId: string,
    after: { tableId: string; gameNo: number } | null,
    limit: number,
    statuses: ReadonlyArray<SessionGameRow['status']> = ['finished', 'voided', 'abandoned'],
  ): Promise<SessionGameRow[]> {
    const params: unknown[] = [clubId, sessionId, statuses];
    let keyset = '';
    if (after) keyset = ` AND (g.table_id, g.game_no) > ($${params.push(after.tableId)}::uuid, $${params.push(after.gameNo)}::int)`;
    const rows: Row[] = await m.query(
      `SELECT g.table_id, g.game_no, t.kind, g.status, ${TABLE_SIDES_SQL} AS sides, g.setup->'seatsAtStart' AS seats,
              g.winner_side, g.result, g.points, g.void_reason, g.started_at, g.ended_at,
              CASE WHEN t.kind = 'chouette' THEN g.actions END AS chouette_actions, ${CHOUETTE_REPLAY_SQL}
         FROM game_tables t JOIN games g ON g.club_id = t.club_id AND g.table_id = t.id
        WHERE t.club_id = $1 AND t.session_id = $2 AND g.status = ANY($3::text[])${keyset}
        ORDER BY g.table_id, g.game_no
        LIMIT $${params.push(limit)}`,
      params,
    );
    return rows.map(mapRow);
  }
}
