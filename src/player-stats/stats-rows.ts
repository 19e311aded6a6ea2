/**
 * How the statistics read games and tables from the database: the SQL of their columns


 */
import { Columns, cols, Row, RowDecodeError } from '../db/decode';
import { TABLE_KINDS } from '../domain/table-kinds';
import { replayChouetteGame } from '../domain/chouette';
import { type StatsAction, type StatsChouetteSeats, type StatsCounters, type StatsCubeResult, type StatsGame, type StatsRow, STATS_COUNTERS } from '../domain/player-stats';
import { gameVariantOf, RESULT_NAMES, type ResultName } from '../domain/game-variants';
import type { SideIndex } from '../domain/types';
import { decodeChouetteLog, toDomainAction } from '../tables/pure';

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

/** The column of player_stats for each counter. */
export const STATS_COLUMNS: Readonly<Record<keyof StatsCounters, string>> = {
  gamesPlayed: 'games_played',
  gamesWon: 'games_won',
  gamesLost: 'games_lost',
  draws: 'draws',
  pointsWon: 'points_won',
  pointsLost: 'points_lost',
  gammonsWon: 'gammons_won',
  gammonsLost: 'gammons_lost',
  backgammonsWon: 'backgammons_won',
  backgammonsLost: 'backgammons_lost',
  doubles: 'doubles',
  takes: 'takes',
  passes: 'passes',
  beavers: 'beavers',
  matchesPlayed: 'matches_played',
  matchesWon: 'matches_won',
  resignationsOffered: 'resignations_offered',
  resignationsAccepted: 'resignations_accepted',
  resignationsRefused: 'resignations_refused',
};

/**
 * Adds `rows` (one per player and variant) to club `clubId`'s player_stats, inserting the
 * rows that do not exist yet: the one statement the commands (with their COMMIT) and the
 * rebuild (into emptied rows) write the counters with.
 */
export function playerStatsUpsert(clubId: string, rows: readonly StatsRow[]): { text: string; values: unknown[] } {
  return {
    text: PLAYER_STATS_UPSERT,
    values: [clubId, rows.map((r) => r.playerId), rows.map((r) => r.variant), ...STATS_COUNTERS.map((k) => rows.map((r) => r[k]))],
  };
}

/** playerStatsUpsert's statement: the same text every time (built once). */
const PLAYER_STATS_UPSERT = ((columns: string[]) =>
  `INSERT INTO player_stats (club_id, player_id, variant, ${columns.join(', ')})
      SELECT $1, * FROM unnest($2::uuid[], $3::text[], ${columns.map((_, j) => `$${j + 4}::bigint[]`).join(', ')})
      ON CONFLICT (club_id, player_id, variant) DO UPDATE SET ${columns.map((c) => `${c} = player_stats.${c} + excluded.${c}`).join(', ')}`)(STATS_COUNTERS.map((k) => STATS_COLUMNS[k]));

/** A player_stats row (`SELECT player_id, variant, <counters>`). */
export function decodeStatsRow(r: Row): StatsRow {
  const c = cols(r);
  const row = { playerId: c.text('player_id'), variant: c.text('variant') } as StatsRow;
  for (const k of STATS_COUNTERS) row[k] = Number(c.bigintText(STATS_COLUMNS[k]));
  return row;
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
  /** R3.10 */
  offeredBy: string | null;
  checkersLeft: number | null;
}

/** SQL for a game's own variant (R8): absent in rows from before variants, and in chouette games, = backgammon. */
export const GAME_VARIANT_SQL = `COALESCE(g.setup->>'variant', 'backgammon')`;

/** A game's `result` object, or null. */
export function resultOrNull(c: Columns, name: string): StoredResult | null {
  const v = c.objectOrNull(name);
  if (v === null) return null;
  const { winner, result, resigned, offeredBy, checkersLeft } = v;
  const kind = RESULT_NAMES.find((k) => k === result) ?? null;
  if (
    !(winner === null || winner === undefined || typeof winner === 'string') ||
    !(result === null || result === undefined || kind !== null) ||
    !(resigned === null || resigned === undefined || typeof resigned === 'boolean') ||
    !(offeredBy === null || offeredBy === undefined || typeof offeredBy === 'string') ||
    !(checkersLeft === null || checkersLeft === undefined || (typeof checkersLeft === 'number' && Number.isSafeInteger(checkersLeft)))
  ) {
    throw new RowDecodeError(name, 'game result', v);
  }
  return { winner: winner ?? null, result: kind, resigned: resigned ?? null, offeredBy: offeredBy ?? null, checkersLeft: checkersLeft ?? null };
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

/** A stored result as the statistics read it: its level, whether resigned, who offered it (ids in lower case). */
function statsResult(result: ResultName, resigned: boolean | null, offeredBy: string | null): StatsGame['result'] {
  return { result, ...(resigned === null ? {} : { resigned }), ...(offeredBy === null ? {} : { offeredBy: lower(offeredBy) }) };
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
    result: result && result.result ? statsResult(result.result, result.resigned, result.offeredBy) : null,
    actions: statsActions(c, 'actions'),
  };
}
