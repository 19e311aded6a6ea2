/**
 * Jellyfish `.mat` match records (GET /v1/matches/{id}/export, Accept: text/plain).
 *
 * Pure: a match's finished games in, the text out. No checker moves are written
 * (the service records none): each game is its score line, its cube actions and
 * its result.
 *
 * ## What GNU Backgammon's importer accepts (the format has no specification)
 *
 * Read in gnubg's own source: import.c (ImportMatVariation, ImportGame,
 * ParseMatMove, GetMatLine) and play.c (AddMoveRecord, ApplyMoveRecord,
 * ApplyGameOver) of the current upstream tree (public mirror GitMirroring/gnubg,
 * "Copyright 2001-2023"); set.c (CommandSetBoard, CheckCubeAllowed,
 * CommandSetCubeValue) and positionid.c (PositionFromXG) of the same tree; an
 * older import.c (alcacoop/libgnubg-android, ~1.02) for what old versions
 * require; export.c (ExportMatchMat, ExportGameJF) for the layout gnubg itself
 * writes.
 *
 * - Lines are read with fgets; "\n" and "\r\n" both work (CR is cut or skipped as
 *   white space). A line longer than 1023 bytes is split. Blank lines are skipped.
 * - Header: lines starting (column 0) with ';' or '#' are comments. Tags read:
 *   `; [Event "x"]`, `; [Site "x"]`, `; [Round "x"]`, `; [Transcriber "x"]`,
 *   `; [EventDate "YYYY.MM.DD"]` (sscanf "%4u.%2u.%2u": dots, not dashes; without
 *   it gnubg dates the match from the file's mtime), `; [Variation "..."]`,
 *   `; [CubeLimit "1"]` (no cube). `[Crawford ...]`, `[Jacoby ...]`, `[Beaver ...]`
 *   and `[Player ...]` are discarded. The value ends at the LAST `"]` of the line.
 *   Other comment lines become the match comment.
 * - The first other line matching sscanf "%d point match%c" (P/M either case, any
 *   leading blanks) gives the length. Nothing in the games is looked for before it.
 * - A game starts at a line containing "Game " (current: anywhere in the line,
 *   number = atoi after it; old versions: the line must START with " Game ",
 *   one space). The number minus one becomes gnubg's game index, and
 *   AddMoveRecord asserts index <= 2 * length + 1 (g_assert: an abort), so games
 *   are numbered 1..n here, never with the table's own game numbers.
 * - The line after it is the score line: name 0 = text before the FIRST ':'
 *   (trimmed), score 0 = atoi after it; then the non-blank run of the score is
 *   skipped, then blanks; name 1 = text up to the next ':', score 1 = atoi after it.
 *   So names may hold spaces but no ':'. Each name is cut to MAX_NAME_LEN - 1
 *   bytes (31: szName is 32 bytes in the backgammon.h read). A ',' followed by a number > 0 cuts the name there (the
 *   rest is read as a GridGammon rating); old versions cut at ANY ','. An empty
 *   name makes the parser walk back past the start of the line.
 * - The scores on the score line are taken as they are (MOVE_GAMEINFO
 *   anScore[]): gnubg does not recompute a game's starting score from the one
 *   before, so a score that jumps (our penalties, R3.6) is accepted. A score
 *   >= the length ends the import ("match is already over -- ignore extra games").
 * - Crawford: the file cannot say. gnubg assumes the Crawford rule and marks as
 *   the Crawford game the first game whose score line has exactly one side at
 *   length - 1; later games are post-Crawford. A [Crawford "Off"] tag is ignored.
 * - Game lines, until the next "Game " line: a line starting "; Set Pos=" with
 *   '/' at index 36 is XG's position extension (26-char XG board at 10..35, cube
 *   at 37: '0' = centred at 1). Any other line is split in two columns: if it
 *   has two ':' (two dice rolls) at the second roll, else if it is longer than 15
 *   characters at the first "  " (two spaces) at or after index 15. The left part
 *   is read from after the first ')' (the row number). Current upstream does NOT
 *   reset the right-column pointer between lines (older versions did): a line of
 *   15 characters or less with no ':' re-reads whatever the previous line left in
 *   the buffer at the old right-column offset (e.g. a second "Doubles"). So every
 *   numbered row here is padded to the right column (trailing blanks are
 *   load-bearing: do not strip them).
 * - In a cell (leading/trailing blanks stripped; prefixes, any case):
 *   "double..." / "beaver..." / "raccoon..." = a MOVE_DOUBLE by that column's
 *   player; a second one while a double is pending doubles the cube at once
 *   (cBeavers++); the number after "=>" is ignored (gnubg counts the cube itself).
 *   "take..." = take (cube x2); "drop..." = pass: game over at once, the doubler
 *   wins the cube value as it stands (the value before the pending offer).
 *   "win..." = only while the game state is GAME_PLAYING: the other player
 *   resigns, at 1, 2 or 3 x cube as N <= cube, <= 2 x cube, or more; N = atoi
 *   after "Wins" and the rest ("point(s)", "and the match") is not read. After a
 *   drop the game is over and the "Wins" line is ignored. "resign..." is ignored;
 *   anything else warns once ("Unrecognised move") and is skipped.
 * - MOVELESS GAMES: the game-info record leaves the state at GAME_NONE and only a
 *   further record (a roll, a double, a set-position...) makes it GAME_PLAYING. A
 *   game with neither moves nor cube actions therefore gets NO result from its
 *   "Wins" line: no winner, no points, and a last game like that never ends the
 *   match. Such a game is written here with the XG line
 *   `; Set Pos=-b----E-C---eE---c-e----B-/0` (the opening position, cube centred
 *   at 1: true, and no invented dice) before its "Wins" line: the importer sets
 *   GAME_PLAYING itself and records a set-board, so "Wins" becomes a resignation
 *   worth exactly N. It prints console noise ("The cube has been centred.", a
 *   board; in the Crawford game "The cube is disabled during the Crawford game.")
 *   and gnubg then calls the game "edited". A gnubg without the Set Pos
 *   extension (it is in both recent trees read, not in the ~1.02 one) only warns
 *   "Unrecognised move" once and loses the result as before.
 * - gnubg's own writer: " N point match", " Game n", score line
 *   " %-31s%s : %d" (name 1 at column 32), rows "%3d) %-27s " + right cell, cube
 *   cells " Doubles => n" / " Takes" / " Drops" (text at column 6 on the left, 34
 *   on the right), "Wins n point" singular for 1, plural otherwise, the winner's
 *   "Wins" on a line of its own without a row number (6 or 34 blanks before it).
 *   It never writes "and the match" (a FIXME); Jellyfish does; it is harmless.
 *
 * ## What this module writes
 *
 * Optional `; [Event "..."]` and `; [EventDate "YYYY.MM.DD"]`, then " N point
 * match", then per game: " Game k", the score line, the cube actions in rows
 * (each action in its side's column, reading order left-right then down, a cell
 * left empty when the same side acts twice in a row), and the winner's
 * "Wins N point(s)[ and the match]" line in the winner's column. A game without
 * any cube action gets the Set Pos line above. "\n" line ends, deterministic.
 *
 * Input that would make gnubg's reading differ from ours is refused with a
 * MatExportError (a bug in the data, not a client error): an impossible cube
 * sequence, a result that is not the cube times 1, 2 or 3, a pass not won by the
 * doubler for the standing cube value, scores going back, a score at or past the
 * target before a game, `matchOver` disagreeing with the score, cube actions in a
 * game marked Crawford.
 *
 * The format is backgammon's: a match of another variant (R8) is refused by the
 * rules (EXPORT_UNSUPPORTED_VARIANT, R8.9) before anything is written.
 */
import { BACKGAMMON } from './game-variants';
import { refuse } from './errors';

export interface MatGameAction {
  type: 'double' | 'take' | 'pass' | 'beaver' | 'raccoon';
  side: 0 | 1;
  /** cube value after this action takes effect, e.g. double to 2 → 2; beaver → 4 */
  value?: number;
}

export interface MatGame {
  gameNo: number;
  scoreBefore: [number, number];
  crawford: boolean;
  actions: MatGameAction[];
  winnerSide: 0 | 1;
  points: number;
  /** the match ended with this game */
  matchOver: boolean;
}

export interface MatMatch {
  target: number;
  names: [string, string];
  games: MatGame[];
  date?: string /* YYYY-MM-DD */;
  event?: string;
  /** R8: the match's variant; absent = backgammon. Only backgammon can be written (R8.9). */
  variant?: string;
  /** How the match ended other than by its games (a forfeit, R3.9), written as a `Termination` tag. */
  termination?: string;
}

/** The data cannot be written so that gnubg reads back what the service recorded. */
export class MatExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MatExportError';
  }
}

/** XG board of the opening position, as gnubg's PositionFromXG reads it (26 characters). */
export const OPENING_POSITION_XG = '-b----E-C---eE---c-e----B-';
/** The line that makes a game without moves or cube actions a game in play for gnubg. */
export const SET_OPENING_POSITION = `; Set Pos=${OPENING_POSITION_XG}/0`;

/** gnubg keeps MAX_NAME_LEN - 1 bytes of a name. */
const MAX_NAME_BYTES = 31;
/** GetMatLine reads 1023 bytes a line; a tag value stays well below. */
const MAX_EVENT_CHARS = 200;
/** "%3d) ": the row number. */
const ROW_PREFIX_WIDTH = 5;
/** The left cell, its leading blank included, up to the right column (column 33). */
const LEFT_CELL_WIDTH = 28;
/** " %-31s": "name : score" of the left player. */
const SCORE_LEFT_WIDTH = 31;

const EOL = '\n';

/**
 * R8.9: the .mat format records backgammon only; a match of another variant is
 * refused with the variant named.
 */
export function assertMatExportable(variant: string | undefined): void {
  if (variant === undefined || variant === BACKGAMMON) return;
  refuse('EXPORT_UNSUPPORTED_VARIANT', 'R8.9', `A ${variant} match cannot be exported as .mat: the format records backgammon matches only`, { variant });
}

export function renderMat(m: MatMatch): string {
  assertMatExportable(m.variant);
  const target = checkTarget(m.target);
  const names = [sanitizeName(m.names?.[0], 0), sanitizeName(m.names?.[1], 1)] as const;
  const lines: string[] = [];

  const event = m.event === undefined ? '' : sanitizeTagValue(m.event);
  if (event) lines.push(`; [Event "${event}"]`);
  if (m.date !== undefined) lines.push(`; [EventDate "${formatDate(m.date)}"]`);
  const termination = m.termination === undefined ? '' : sanitizeTagValue(m.termination);
  if (termination) lines.push(`; [Termination "${termination}"]`);
  if (lines.length > 0) lines.push('');

  lines.push(` ${target} point match`);

  const games = m.games ?? [];
  let previousAfter: [number, number] | null = null;
  games.forEach((game, index) => {
    const label = `game ${index + 1}${game.gameNo !== undefined ? ` (no. ${String(game.gameNo)})` : ''}`;
    const before = checkScore(game.scoreBefore, target, label);
    if (previousAfter && (before[0] < previousAfter[0] || before[1] < previousAfter[1])) {
      fail(`${label}: the score before it (${before[0]}-${before[1]}) is lower than after the game before (${previousAfter[0]}-${previousAfter[1]})`);
    }
    const { rows, cube, passed } = layOutActions(game, label);
    const points = checkResult(game, cube, passed, label);
    const after: [number, number] = [before[0], before[1]];
    after[game.winnerSide] += points;
    const reached = after[game.winnerSide] >= target;
    if (game.matchOver !== reached) {
      fail(
        reached
          ? `${label}: ${after[0]}-${after[1]} reaches the ${target}-point target but the game is not marked as ending the match`
          : `${label}: marked as ending the match, but ${after[0]}-${after[1]} does not reach the ${target}-point target`,
      );
    }
    if (reached && index !== games.length - 1) {
      fail(`${label} ended the match (${after[0]}-${after[1]}): no game can follow it`);
    }

    lines.push('');
    lines.push(` Game ${index + 1}`);
    lines.push(scoreLine(names, before));
    if (game.actions.length === 0) lines.push(SET_OPENING_POSITION);
    lines.push(...rows);
    lines.push(winsLine(game.winnerSide, points, reached));
    previousAfter = after;
  });

  return lines.join(EOL) + EOL;
}

/** Cube state while reading a game's actions (as in ./cube: the shown value, the pending offer). */
interface OfferState {
  by: 0 | 1;
  value: number;
  kind: 'double' | 'beaver' | 'raccoon';
  receiver: 0 | 1;
}

function layOutActions(game: MatGame, label: string): { rows: string[]; cube: number; passed: boolean } {
  const actions: readonly MatGameAction[] = Array.isArray(game.actions) ? game.actions : fail(`${label}: actions must be a list`);
  if (game.crawford && actions.length > 0) {
    fail(`${label} is the Crawford game: it cannot hold cube actions (R3.4)`);
  }
  let cube = 1;
  let owner: 0 | 1 | null = null;
  let pending: OfferState | null = null;
  let passedOffer: OfferState | null = null;
  const cells: (string | undefined)[] = [];

  for (const [i, action] of actions.entries()) {
    const where = `${label}, action ${i + 1} (${String(action?.type)})`;
    const side = action?.side;
    if (side !== 0 && side !== 1) fail(`${where}: side must be 0 or 1`);
    if (passedOffer) fail(`${where}: the game already ended with a pass`);
    let text: string;
    switch (action.type) {
      case 'double': {
        if (pending) fail(`${where}: a ${pending.kind} to ${pending.value} is still waiting for an answer`);
        if (owner !== null && owner !== side) fail(`${where}: side ${String(owner)} owns the cube at ${cube}; side ${side} cannot double`);
        pending = { by: side, value: cube * 2, kind: 'double', receiver: side === 0 ? 1 : 0 };
        text = `Doubles => ${checkValue(action, pending.value, where)}`;
        break;
      }
      case 'beaver':
      case 'raccoon': {
        const answers = action.type === 'beaver' ? 'double' : 'beaver';
        if (!pending || pending.kind !== answers || pending.by === side) {
          fail(`${where}: a ${action.type} answers the other side's ${answers}`);
        }
        // Shown as if the offer answered had been taken; the redoubler offers twice that.
        cube = pending.value;
        pending = { by: side, value: cube * 2, kind: action.type, receiver: pending.receiver };
        text = `${action.type === 'beaver' ? 'Beavers' : 'Raccoons'} => ${checkValue(action, pending.value, where)}`;
        break;
      }
      case 'take': {
        if (!pending || pending.by === side) fail(`${where}: there is no offer from the other side to take`);
        checkValue(action, pending.value, where);
        cube = pending.value;
        owner = pending.receiver;
        pending = null;
        text = 'Takes';
        break;
      }
      case 'pass': {
        if (!pending || pending.by === side) fail(`${where}: there is no offer from the other side to pass`);
        if (action.value !== undefined && action.value !== cube) {
          fail(`${where}: a pass leaves the cube at ${cube}, not ${String(action.value)}`);
        }
        passedOffer = pending;
        pending = null;
        text = 'Drops';
        break;
      }
      default:
        fail(`${where}: unknown action type`);
    }
    // Reading order: row by row, left cell then right cell; a side's action goes in its column.
    if (cells.length % 2 !== side) cells.push(undefined);
    cells.push(text);
  }

  if (pending) fail(`${label}: the game ends with a ${pending.kind} to ${pending.value} unanswered`);
  if (passedOffer && game.winnerSide !== passedOffer.by) {
    fail(`${label}: the ${passedOffer.kind} was passed, so its side ${passedOffer.by} wins, not side ${String(game.winnerSide)}`);
  }

  const rows: string[] = [];
  for (let r = 0; r * 2 < cells.length; r++) {
    rows.push(rowLine(r + 1, cells[r * 2], cells[r * 2 + 1]));
  }
  return { rows, cube, passed: passedOffer !== null };
}

function checkValue(action: MatGameAction, expected: number, where: string): number {
  if (action.value !== undefined && action.value !== expected) {
    fail(`${where}: the cube goes to ${expected} here, not ${String(action.value)}`);
  }
  return expected;
}

/**
 * The points gnubg will give: after a pass the standing cube value; after a
 * finish N read as a resignation of 1, 2 or 3 x cube, so N must be one of those.
 */
function checkResult(game: MatGame, cube: number, passed: boolean, label: string): number {
  if (game.winnerSide !== 0 && game.winnerSide !== 1) fail(`${label}: winnerSide must be 0 or 1`);
  const points = game.points;
  if (!Number.isSafeInteger(points) || points < 1) fail(`${label}: points must be a whole number, at least 1`);
  if (passed) {
    if (points !== cube) fail(`${label}: a pass with the cube at ${cube} is worth ${cube}, not ${points}`);
  } else if (points !== cube && points !== 2 * cube && points !== 3 * cube) {
    fail(`${label}: with the cube at ${cube} a game is worth ${cube}, ${2 * cube} or ${3 * cube}, not ${points}`);
  }
  return points;
}

function checkTarget(target: unknown): number {
  if (typeof target !== 'number' || !Number.isSafeInteger(target) || target < 1) {
    fail(`the match target must be a whole number, at least 1; got ${String(target)}`);
  }
  return target;
}

function checkScore(score: unknown, target: number, label: string): [number, number] {
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (!Array.isArray(score) || score.length !== 2 || !ok(score[0]) || !ok(score[1])) {
    fail(`${label}: scoreBefore must be two whole numbers, 0 or more`);
  }
  const before: [number, number] = [score[0], score[1]];
  if (before[0] >= target || before[1] >= target) {
    fail(`${label}: ${before[0]}-${before[1]} has already reached the ${target}-point target; no game is played after the end`);
  }
  return before;
}

function scoreLine(names: readonly [string, string], score: readonly [number, number]): string {
  const left = `${names[0]} : ${score[0]}`;
  return ` ${left.padEnd(SCORE_LEFT_WIDTH)}${left.length >= SCORE_LEFT_WIDTH ? ' ' : ''}${names[1]} : ${score[1]}`;
}

/**
 * A numbered row: the left cell always padded to the right column, so the line is
 * longer than 15 characters with a double blank after index 15 (see the header:
 * gnubg keeps a stale right-column pointer for short lines).
 */
function rowLine(row: number, left: string | undefined, right: string | undefined): string {
  const leftCell = ` ${left ?? ''}`;
  const leftPart = leftCell.length + 2 > LEFT_CELL_WIDTH ? leftCell + '  ' : leftCell.padEnd(LEFT_CELL_WIDTH);
  return `${String(row).padStart(ROW_PREFIX_WIDTH - 2)}) ${leftPart}${right === undefined ? '' : ` ${right}`}`;
}

function winsLine(side: 0 | 1, points: number, matchOver: boolean): string {
  const text = `Wins ${points} point${points === 1 ? '' : 's'}${matchOver ? ' and the match' : ''}`;
  const indent = side === 0 ? ROW_PREFIX_WIDTH : ROW_PREFIX_WIDTH + LEFT_CELL_WIDTH;
  return `${' '.repeat(indent)} ${text}`;
}

/**
 * A display name gnubg reads back as written: no ':' (it ends the name), no ','
 * (old versions cut the name there; current ones when digits follow), no line
 * breaks or other control characters, blanks collapsed, at most 31 UTF-8 bytes
 * cut at a character boundary, never empty.
 */
export function sanitizeName(name: unknown, side: 0 | 1): string {
  const raw = typeof name === 'string' ? name : '';
  const cleaned = collapse(raw.replace(/[:,]/g, ' '));
  const cut = collapse(truncateUtf8(cleaned, MAX_NAME_BYTES));
  return cut || `Player ${side + 1}`;
}

function sanitizeTagValue(value: string): string {
  const cleaned = collapse(String(value).replace(/"/g, "'"));
  return collapse(Array.from(cleaned).slice(0, MAX_EVENT_CHARS).join(''));
}

/** Control characters and Unicode blanks/line separators to one ASCII blank; trimmed. */
function collapse(s: string): string {
  return s.replace(/[\p{Cc}\p{Zs}\p{Zl}\p{Zp}]+/gu, ' ').trim();
}

function truncateUtf8(s: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += ch;
  }
  return out;
}

/** YYYY-MM-DD (a real calendar date) to gnubg's EventDate "YYYY.MM.DD". */
function formatDate(date: string): string {
  const match = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (match) {
    const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const t = new Date(Date.UTC(y, mo - 1, d));
    if (t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d) {
      return `${match[1]}.${match[2]}.${match[3]}`;
    }
  }
  return fail(`the match date must be a calendar date YYYY-MM-DD; got ${String(date)}`);
}

function fail(message: string): never {
  throw new MatExportError(`Cannot export the match as .mat: ${message}`);
}
