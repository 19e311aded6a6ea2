/**
 * A session's games as CSV (RFC 4180), for spreadsheets: one header row, then one
 * row per finished, voided or abandoned game, in the order of the JSON list (tables
 * in creation order, then game number).
 *
 * Pure: no framework, no I/O; the same games in the same time zone render to the
 * same bytes.
 *
 * COLUMNS (always these 21, in this order):
 *
 *   tableKind   match | money | chouette
 *   tableId     the table's id
 *   gameNo      the game's number at its table (integer)
 *   status      finished | voided | abandoned
 *   startedAt   RFC 3339 in the club's time zone with its offset
 *               (2025-03-15T08:40:00.000+09:00 in Asia/Tokyo; …Z when the club keeps UTC)
 *   endedAt     the same (empty if never ended)
 *   players     names joined by ` / `, side 0 first (a chouette: box, partner, then
 *               the team in line order)
 *   winnerSide  0 | 1 (a chouette: 0 = box side, 1 = team); empty when no winner
 *   winners     names of who won joined by ` / `; empty when no winner: the
 *               winning side; in a chouette each member whose own cube won
 *               (R5.4, R5.5: one who passed a box double lost) and the box and
 *               partner when the box's cubes netted him points
 *   result      single | gammon | backgammon for a game ended by `finish`, or the
 *               variant's result: oin | mars (long nardy, R8.1), mother | draw
 *               (Plakoto, R8.3; a draw has no winner); empty after a pass and
 *               for an abandoned game
 *   resigned    true | false with a result (R1.4), else empty
 *   endedBy     finish | pass (a chouette ended by passes too); empty if abandoned
 *   points      what the game was worth to its winner (cube × result, R1.1–R1.3;
 *               Tavla 31: checkersLeft, R8.6; a draw: 0); empty in a chouette
 *               and for an abandoned game
 *   voidReason  why a voided game was voided (R6.3), else empty
 *   playerIds   the players' ids, same order as `players`, separated by one space
 *   winnerIds   the winners' ids, same order as `winners`, separated by one space
 *   variant     the game's own variant (R8.9): backgammon | long-nardy | portes |
 *               plakoto | fevga | tavla-31 (a Tavli table's games are Portes,
 *               Plakoto or Fevga, R8.5)
 *   checkersLeft  Tavla 31 (R8.6): the loser's checkers left on the board, as an
 *               integer; empty otherwise
 *   matchEndedBy  points | forfeit on the last game of a finished match (R3.2,
 *               R3.9), whatever that game's status (a forfeit mid-game closes it as
 *               abandoned); empty on every other row
 *   forfeitSide   with `forfeit`: the side that forfeited, 0 | 1; else empty
 *   forfeitReason with `forfeit`: no-show | lateness | time | disqualification |
 *               withdrawal | concession | penalties (R3.6); else empty
 *
 * A match ended before any game was started (a no-show) has no row here: the match
 * itself and the settlement statement's matches show how it ended.
 *
 * A voided game keeps what it was (winner, result, points): its status says it no
 * longer counts. Money is not here: the ledger and the settlement statement have it.
 *
 * Later columns came after the others (variant and checkersLeft after the first
 * 16, the match's end after those) so that a reader by position keeps finding the
 * earlier ones where they were.
 *
 * NUMBERS (gameNo, winnerSide, points, checkersLeft, forfeitSide) are plain integers, never quoted or prefixed.
 * QUOTING and FORMULA INJECTION as in statement-csv.ts: a field holding `,` `"` CR
 * or LF is quoted with `"` doubled; every text field starting with `=` `+` `-` `@`
 * TAB CR or `'` gets a leading `'` (a player named `=HYPERLINK(…)` stays text).
 * Records end with CRLF, the last one included. A UTF-8 byte-order mark starts the
 * text only when asked for (`bom`). `parseCsv` (src/common/csv.ts) reads it back.
 */
import { BOM, CRLF, csvInteger, csvText } from '../common/csv';
import type { TableKind } from '../domain/table-kinds';
import { rfc3339InZone } from '../domain/zoned-time';

/** How the CSV is written. */
export interface GamesCsvOptions {
  /** The club's IANA time zone: times are written there (default UTC). */
  timeZone?: string;
  /** Start with a UTF-8 byte-order mark. */
  bom?: boolean;
}

export interface SessionGameCsvRow {
  tableKind: TableKind;
  tableId: string;
  gameNo: number;
  /** R8: the game's own variant. */
  variant: string;
  status: 'finished' | 'voided' | 'abandoned';
  startedAt: string;
  endedAt: string | null;
  /** Ids and names in side order. */
  players: ReadonlyArray<{ id: string; name: string }>;
  winnerSide: number | null;
  winners: ReadonlyArray<{ id: string; name: string }>;
  result: { result: string; resigned: boolean; checkersLeft?: number | null } | null;
  endedBy: 'finish' | 'pass' | null;
  points: number | null;
  voidReason: string | null;
  /** On a finished match's last game: how the match ended (R3.2, R3.9). */
  matchEndedBy: { kind: 'points' | 'forfeit'; side?: 0 | 1; reason?: string } | null;
}

export const SESSION_GAMES_COLUMNS = [
  'tableKind',
  'tableId',
  'gameNo',
  'status',
  'startedAt',
  'endedAt',
  'players',
  'winnerSide',
  'winners',
  'result',
  'resigned',
  'endedBy',
  'points',
  'voidReason',
  'playerIds',
  'winnerIds',
  'variant',
  'checkersLeft',
  'matchEndedBy',
  'forfeitSide',
  'forfeitReason',
] as const;

type Column = (typeof SESSION_GAMES_COLUMNS)[number];

const NUMERIC = new Set<Column>(['gameNo', 'winnerSide', 'points', 'checkersLeft', 'forfeitSide']);

/** Renders the games as CSV; see the top of this file. */
export function renderSessionGamesCsv(games: readonly SessionGameCsvRow[], options: GamesCsvOptions = {}): string {
  const timeZone = options.timeZone ?? 'UTC';
  const lines = [SESSION_GAMES_COLUMNS.join(','), ...games.map((g) => renderRow(g, timeZone))];
  return (options.bom ? BOM : '') + lines.join(CRLF) + CRLF;
}

function cells(g: SessionGameCsvRow, timeZone: string): Record<Column, string | number | null> {
  return {
    tableKind: g.tableKind,
    tableId: g.tableId,
    gameNo: g.gameNo,
    status: g.status,
    startedAt: rfc3339InZone(g.startedAt, timeZone),
    endedAt: g.endedAt === null ? null : rfc3339InZone(g.endedAt, timeZone),
    players: g.players.map((p) => p.name).join(' / '),
    winnerSide: g.winnerSide,
    winners: g.winners.map((p) => p.name).join(' / '),
    result: g.result?.result ?? null,
    resigned: g.result ? String(g.result.resigned) : null,
    endedBy: g.endedBy,
    points: g.points,
    voidReason: g.voidReason,
    playerIds: g.players.map((p) => p.id).join(' '),
    winnerIds: g.winners.map((p) => p.id).join(' '),
    variant: g.variant,
    checkersLeft: g.result?.checkersLeft ?? null,
    matchEndedBy: g.matchEndedBy?.kind ?? null,
    forfeitSide: g.matchEndedBy?.side ?? null,
    forfeitReason: g.matchEndedBy?.reason ?? null,
  };
}

function renderRow(g: SessionGameCsvRow, timeZone: string): string {
  const row = cells(g, timeZone);
  return SESSION_GAMES_COLUMNS.map((column) => renderCell(column, row[column])).join(',');
}

/** One cell: a plain integer, or text guarded against formulas and quoted as RFC 4180 asks. */
function renderCell(column: Column, value: string | number | null): string {
  if (value === null) return '';
  if (NUMERIC.has(column)) return csvInteger(value, `games CSV: ${column}`);
  return csvText(String(value));
}
