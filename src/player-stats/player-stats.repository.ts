import { Injectable } from '@nestjs/common';
import { Columns, cols, Decoder, Row, RowDecodeError } from '../db/decode';
import type { Reads } from '../db/tx';
import { replayChouetteGame } from '../domain/chouette';
import type { StatsAction, StatsChouetteSeats, StatsCubeResult, StatsGame, StatsSessionNet, StatsTableKind } from '../domain/player-stats';
import { gameVariantOf, RESULT_NAMES, type ResultName } from '../domain/game-variants';
import type { SideIndex } from '../domain/types';
import { minorFromDb } from '../ledger';
import { decodeChouetteLog, decodeTable, type FinishedGameRow, MatchTableRow, TableEntity, toDomainAction } from '../tables';

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
  table: MatchTableRow;
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
  finishedGames(tx: Reads, clubId: string, playerId: string): Promise<StatsGameRow[]> {
    return tx.rows(
      `SELECT g.table_id, g.game_no, t.kind, ${TABLE_SIDES_SQL} AS sides, g.setup->'seatsAtStart' AS seats,
              g.winner_side, g.result, g.points, ${GAME_VARIANT_SQL} AS variant, g.actions, ${CHOUETTE_REPLAY_SQL}
         FROM games g JOIN game_tables t ON t.club_id = g.club_id AND t.id = g.table_id
        WHERE g.club_id = $1
          AND g.table_id IN (SELECT tp.table_id FROM table_players tp WHERE tp.club_id = $1 AND tp.player_id = $2)
          AND g.players @> ARRAY[$2]::uuid[]
          AND g.status = 'finished'
        ORDER BY g.table_id, g.game_no`,
      [clubId, playerId],
      statsGameRow,
    );
  }

  /** Finished matches the player sat at, with their finished games in order. */
  async finishedMatches(tx: Reads, clubId: string, playerId: string): Promise<FinishedMatchRow[]> {
    const tables = await tx.rows(
      `SELECT t.* FROM game_tables t JOIN table_players tp ON tp.club_id = t.club_id AND tp.table_id = t.id
        WHERE t.club_id = $1 AND tp.player_id = $2 AND t.kind = 'match' AND t.status = 'finished'
        ORDER BY t.id`,
      [clubId, playerId],
      decodeTableRow,
    );
    if (tables.length === 0) return [];
    const rows = await tx.rows(
      `SELECT table_id, game_no, winner_side, points FROM games
        WHERE club_id = $1 AND table_id = ANY($2::uuid[]) AND status = 'finished'
        ORDER BY table_id, game_no`,
      [clubId, tables.map((t) => t.id)],
      (r) => {
        const c = cols(r);
        return { tableId: c.text('table_id'), game: { gameNo: c.int('game_no'), winnerSide: sideOf(c, 'winner_side'), points: c.int('points') } };
      },
    );
    const games = new Map<string, FinishedGameRow[]>();
    for (const { tableId, game } of rows) {
      const list = games.get(tableId) ?? [];
      list.push(game);
      games.set(tableId, list);
    }
    return tables.map((table) => ({ table: decodeTable(table, 'match'), games: games.get(table.id) ?? [] }));
  }

  /** The player's net in every session he has a running total in, with its currency. */
  sessionNets(tx: Reads, clubId: string, playerId: string): Promise<StatsSessionNet[]> {
    return tx.rows(
      `SELECT s.currency, st.net_minor::text AS net
         FROM session_totals st JOIN sessions s ON s.club_id = st.club_id AND s.id = st.session_id
        WHERE st.club_id = $1 AND st.party = $2`,
      [clubId, playerId],
      (r) => {
        const c = cols(r);
        return { currency: c.text('currency').trim(), netMinor: minorFromDb(c.text('net')) };
      },
    );
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
 * `r` has the row's `kind` and the columns of CHOUETTE_REPLAY_SQL.
 */
export function chouetteCubeResults(r: Row, actions: unknown): StatsCubeResult[] {
  const c = cols(r);
  if (c.text('kind') !== 'chouette' || c.json('chouette_setup') === null) return [];
  // The setup and the log as the app recorded them: the replay checks both against the rules.
  const log = decodeChouetteLog('chouette game', c.json('chouette_setup'), actions);
  const state = replayChouetteGame(log.setup, log.actions.map(toDomainAction), c.intOrNull('automatic_doubles') ?? 0);
  return state.settlement.map((s) => ({ member: lower(s.member), winner: s.winner, points: s.points, endedBy: s.endedBy }));
}

const TABLE_KINDS: readonly StatsTableKind[] = ['match', 'money', 'chouette'];

/** A winner_side that must be 0 or 1 (a finished match game). */
export function sideOf(c: Columns, name: string): SideIndex {
  const v = c.int(name);
  if (v !== 0 && v !== 1) throw new RowDecodeError(name, '0 or 1', v);
  return v;
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A table's two sides (TABLE_SIDES_SQL), or null. */
export function sidesOrNull(c: Columns, name: string): Sides | null {
  const v = c.json(name);
  if (v === null) return null;
  if (!Array.isArray(v) || v.length !== 2 || !isStringArray(v[0]) || !isStringArray(v[1])) throw new RowDecodeError(name, 'two sides of player ids', v);
  return [v[0], v[1]];
}

/** A chouette game's seats at its start (`setup.seatsAtStart`), or null. */
export function seatsOrNull(c: Columns, name: string): StatsChouetteSeats | null {
  const v = c.objectOrNull(name);
  if (v === null) return null;
  const { box, partner, line } = v;
  if (typeof box !== 'string' || !(partner === null || partner === undefined || typeof partner === 'string') || !isStringArray(line)) {
    throw new RowDecodeError(name, 'chouette seats', v);
  }
  return { box, partner: partner ?? null, line };
}

/**
 * What the readers of a game's `result` (a `finish`: winner, kind of win, resigned)
 * use of it. R8: the result may be a variant's (oin, mars, mother, draw: a draw has
 * no winner); Tavla 31 keeps `checkersLeft` (R8.6).
 */
export interface StoredResult {
  winner: string | null;
  result: ResultName | null;
  resigned: boolean | null;
  checkersLeft: number | null;
}

/** SQL for a game's own variant (R8): absent in rows from before variants, and in chouette games, = backgammon. */
export const GAME_VARIANT_SQL = `COALESCE(g.setup->>'variant', 'backgammon')`;

/** A game's `result` object, or null. */
export function resultOrNull(c: Columns, name: string): StoredResult | null {
  const v = c.objectOrNull(name);
  if (v === null) return null;
  const { winner, result, resigned, checkersLeft } = v;
  const kind = RESULT_NAMES.find((k) => k === result) ?? null;
  if (
    !(winner === null || winner === undefined || typeof winner === 'string') ||
    !(result === null || result === undefined || kind !== null) ||
    !(resigned === null || resigned === undefined || typeof resigned === 'boolean') ||
    !(checkersLeft === null || checkersLeft === undefined || (typeof checkersLeft === 'number' && Number.isSafeInteger(checkersLeft)))
  ) {
    throw new RowDecodeError(name, 'game result', v);
  }
  return { winner: winner ?? null, result: kind, resigned: resigned ?? null, checkersLeft: checkersLeft ?? null };
}

/** A game's stored action log as the statistics read it (type and by); null for none. */
function statsActions(c: Columns, name: string): StatsAction[] {
  const v = c.json(name);
  if (v === null) return [];
  if (!Array.isArray(v)) throw new RowDecodeError(name, 'json array', v);
  return v.map((a: unknown) => {
    if (typeof a !== 'object' || a === null || !('type' in a) || typeof a.type !== 'string') throw new RowDecodeError(name, 'actions with a type', a);
    const by = 'by' in a ? a.by : undefined;
    return { type: a.type, by: typeof by === 'string' ? lower(by) : null };
  });
}

/** A game_tables row (`SELECT t.*`). */
const decodeTableRow: Decoder<TableEntity> = (r) => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    kind: c.oneOf('kind', TABLE_KINDS),
    sessionId: c.textOrNull('session_id'),
    status: c.oneOf('status', ['in-progress', 'finished'] as const),
    setup: object(c, 'setup'),
    state: object(c, 'state'),
    stakeMinor: c.bigintTextOrNull('stake_minor'),
    nextGameNo: c.int('next_game_no'),
    currentGameNo: c.intOrNull('current_game_no'),
    version: c.int('version'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
  };
};

function object(c: Columns, name: string): Record<string, unknown> {
  const v = c.objectOrNull(name);
  if (v === null) throw new RowDecodeError(name, 'json object', v);
  return v;
}

/** A games row (joined to its table) as the statistics read it. */
export function statsGameRow(r: Row): StatsGameRow {
  const c = cols(r);
  const kind = c.oneOf('kind', TABLE_KINDS);
  const seats = seatsOrNull(c, 'seats');
  const sides = sidesOrNull(c, 'sides');
  const result = resultOrNull(c, 'result');
  return {
    tableId: c.text('table_id'),
    gameNo: c.int('game_no'),
    kind,
    sides: kind !== 'chouette' && sides ? lowerSides(sides) : null,
    seats: kind === 'chouette' && seats ? lowerSeats(seats) : null,
    cubes: chouetteCubeResults(r, c.json('actions')),
    winnerSide: c.intOrNull('winner_side'),
    variant: gameVariantOf(c.textOrNull('variant')),
    points: c.intOrNull('points'),
    result: result && result.result ? (result.resigned === null ? { result: result.result } : { result: result.result, resigned: result.resigned }) : null,
    actions: statsActions(c, 'actions'),
  };
}
