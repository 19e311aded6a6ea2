import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChouetteGameSetup, replayChouetteGame } from '../domain/chouette';
import type { GameAction } from '../domain/game';
import type { StatsAction, StatsChouetteSeats, StatsCubeResult, StatsGame, StatsSessionNet, StatsTableKind } from '../domain/player-stats';
import type { ResultKind } from '../domain/types';
import { minorFromDb } from '../ledger';
import { type FinishedGameRow, TableEntity, TablePlayerEntity } from '../tables';

type Row = Record<string, unknown>;

type Sides = readonly [readonly string[], readonly string[]];

/**
 * SQL for the two sides of the game_tables row `t`: a match's and a money game's
 * `setup.sides` (a money game's `players`, one a side, if it has no `sides`);
 * null for a chouette, whose sides are each game's seats.
 */
export const TABLE_SIDES_SQL = `CASE WHEN t.kind = 'chouette' THEN NULL
  ELSE coalesce(t.setup->'sides', jsonb_build_array(jsonb_build_array(t.setup->'players'->0), jsonb_build_array(t.setup->'players'->1))) END`;

/**
 * SQL for what replaying a chouette game needs besides its actions: the domain setup
 * kept in the game's `setup` (null at other tables) and its automatic doubles.
 */
export const CHOUETTE_REPLAY_SQL = `CASE WHEN t.kind = 'chouette' THEN g.setup->'setup' END AS chouette_setup, g.automatic_doubles`;

/** A finished game with what the statistics need of its table. */
export interface StatsGameRow extends StatsGame {
  tableId: string;
  gameNo: number;
}

/** A finished match table and its finished games, to be scored (R3.2, R3.6). */
export interface FinishedMatchRow {
  table: TableEntity;
  games: FinishedGameRow[];
}

/**
 * The reads behind a player's statistics. Every query is scoped by
 * club_id; the player's tables come from table_players (indexed by player), so no
 * index on games.players is needed.
 */
@Injectable()
export class PlayerStatsRepository {
  /**
   * The player's finished games, with their table's kind and sides and (chouettes)
   * the seats at the start.
   */
  async finishedGames(m: EntityManager, clubId: string, playerId: string): Promise<StatsGameRow[]> {
    const rows: Row[] = await m.query(
      `SELECT g.table_id, g.game_no, t.kind, ${TABLE_SIDES_SQL} AS sides, g.setup->'seatsAtStart' AS seats,
              g.winner_side, g.result, g.actions, ${CHOUETTE_REPLAY_SQL}
         FROM games g JOIN game_tables t ON t.club_id = g.club_id AND t.id = g.table_id
        WHERE g.club_id = $1
          AND g.table_id IN (SELECT tp.table_id FROM table_players tp WHERE tp.club_id = $1 AND tp.player_id = $2)
          AND g.players @> ARRAY[$2]::uuid[]
          AND g.status = 'finished'
        ORDER BY g.table_id, g.game_no`,
      [clubId, playerId],
    );
    return rows.map(statsGameRow);
  }

  /** Finished matches the player sat at, with their finished games in order. */
  async finishedMatches(m: EntityManager, clubId: string, playerId: string): Promise<FinishedMatchRow[]> {
    const tables = await m
      .createQueryBuilder(TableEntity, 't')
      .innerJoin(TablePlayerEntity, 'tp', 'tp.clubId = t.clubId AND tp.tableId = t.id')
      .where('t.clubId = :clubId AND tp.playerId = :playerId', { clubId, playerId })
      .andWhere(`t.kind = 'match' AND t.status = 'finished'`)
      .orderBy('t.id', 'ASC')
      .getMany();
    if (tables.length === 0) return [];
    const rows: Row[] = await m.query(
      `SELECT table_id, game_no, winner_side, points FROM games
        WHERE club_id = $1 AND table_id = ANY($2::uuid[]) AND status = 'finished'
        ORDER BY table_id, game_no`,
      [clubId, tables.map((t) => t.id)],
    );
    const games = new Map<string, FinishedGameRow[]>();
    for (const r of rows) {
      const list = games.get(r.table_id as string) ?? [];
      list.push({ gameNo: r.game_no as number, winnerSide: r.winner_side as 0 | 1, points: r.points as number });
      games.set(r.table_id as string, list);
    }
    return tables.map((table) => ({ table, games: games.get(table.id) ?? [] }));
  }

  /** The player's net in every session he has a running total in, with its currency. */
  async sessionNets(m: EntityManager, clubId: string, playerId: string): Promise<StatsSessionNet[]> {
    const rows: Row[] = await m.query(
      `SELECT s.currency, st.net_minor::text AS net
         FROM session_totals st JOIN sessions s ON s.club_id = st.club_id AND s.id = st.session_id
        WHERE st.club_id = $1 AND st.party = $2`,
      [clubId, playerId],
    );
    return rows.map((r) => ({ currency: (r.currency as string).trim(), netMinor: minorFromDb(r.net) }));
  }
}

/** Ids as the database keeps uuids (lower case): a scorer may have sent them in upper case. */
const lower = (id: string) => id.toLowerCase();

/** A table's sides with ids in lower case. */
export function lowerSides(sides: Sides): [string[], string[]] {
  return [sides[0].map(lower), sides[1].map(lower)];
}

/** A chouette game's seats with ids in lower case. */
export function lowerSeats(seats: StatsChouetteSeats): StatsChouetteSeats {
  return { box: lower(seats.box), partner: seats.partner ? lower(seats.partner) : null, line: seats.line.map(lower) };
}

/**
 * R5.4/R5.5: each member cube's result in a chouette game, from its action log replayed
 * through the rules (a stored log was valid when recorded), ids in lower case. Empty
 * for a game that did not finish (abandoned) or a row that is not a chouette's.
 */
export function chouetteCubeResults(r: Row, actions: unknown): StatsCubeResult[] {
  const setup = (r.chouette_setup as ChouetteGameSetup | null) ?? null;
  if (r.kind !== 'chouette' || !setup) return [];
  const state = replayChouetteGame(setup, (actions as GameAction[] | null) ?? [], (r.automatic_doubles as number | null) ?? 0);
  return state.settlement.map((c) => ({ member: lower(c.member), winner: c.winner, points: c.points, endedBy: c.endedBy }));
}

/** A games row (joined to its table) as the statistics read it. */
function statsGameRow(r: Row): StatsGameRow {
  const kind = r.kind as StatsTableKind;
  const seats = (r.seats as StatsChouetteSeats | null) ?? null;
  const sides = (r.sides as Sides | null) ?? null;
  const result = (r.result as { result: ResultKind; resigned?: boolean } | null) ?? null;
  return {
    tableId: r.table_id as string,
    gameNo: r.game_no as number,
    kind,
    sides: kind !== 'chouette' && sides ? lowerSides(sides) : null,
    seats: kind === 'chouette' && seats ? lowerSeats(seats) : null,
    cubes: chouetteCubeResults(r, r.actions),
    winnerSide: (r.winner_side as number | null) ?? null,
    result: result && result.result ? result : null,
    actions: ((r.actions as StatsAction[] | null) ?? []).map((a) => ({ type: a.type, by: typeof a.by === 'string' ? lower(a.by) : null })),
  };
}
