/**
 * The R6.5 settlement statement as CSV (RFC 4180), for spreadsheets and programs.
 *
 * Pure: no framework, no I/O. The same Statement in the same time zone always
 * renders to the same string, byte for byte: rows follow the Statement's own
 * (totally ordered) lists and nothing depends on the locale, the clock or the
 * machine's zone.
 *
 * ONE TABLE, ONE HEADER ROW. Every row has these 21 columns; the first column,
 * `record`, says what the row describes and which other columns it fills (every
 * other cell of that row is empty):
 *
 *   record,playerId,name,games,netMinor,paidMinor,receivedMinor,outstandingMinor,
 *   fromId,fromName,toId,toName,amountMinor,currency,note,at,
 *   net,paid,received,outstanding,amount
 *
 *   record    | columns filled
 *   ----------+-----------------------------------------------------------------
 *   session   | playerId = the session's id, name = the session's name,
 *   (1 row)   | currency, note = `status=<open|closed>; rakePercent=<n>;
 *             | timeZone=<the club's IANA zone>` (e.g. `status=closed;
 *             | rakePercent=2.5; timeZone=Asia/Tokyo`), at = asOf
 *   player    | playerId, name, games, netMinor, paidMinor, receivedMinor,
 *   (1 each)  | outstandingMinor, currency — in the Statement's player order
 *   house     | playerId = `house`, name = `House`, netMinor = the house's take
 *   (1 row)   | (houseMinor), outstandingMinor = houseOutstandingMinor, currency
 *   payment   | playerId = the payment's id, fromId, fromName, toId, toName,
 *   (1 each)  | amountMinor, currency, note (empty when there is none), at
 *   match     | playerId = the match's id, name = `<side 0> vs <side 1>` (a
 *   (1 each   | pair's names joined by ` & `), fromName = the losing side,
 *   finished  | toName = the winning side, amountMinor = its stake (empty when
 *   match)    | none), currency, note = `score=<a>-<b>; endedBy=points` or
 *             | `score=<a>-<b>; endedBy=forfeit; side=<0|1>; reason=<reason>`
 *             | (R3.2, R3.9), at = when it ended — in the Statement's order
 *   tournament| playerId = the tournament's id, name = its name, amountMinor =
 *   (1 each   | the flight's prize pool, netMinor = the house's commission out
 *   flight)   | of it (R9.9), games = its entries, currency, note =
 *             | `flight=<name>; status=<open|running|finished>;
 *             | entryFeeMinor=<n|none>`
 *   prize     | playerId = the tournament's id, fromId = `house`, fromName =
 *   (1 each,  | `House`, toId, toName = the winner, amountMinor, currency, note =
 *   after its | `flight=<name>; bracket=<main|consolation>; place=<n>` (R9.9)
 *   flight)   |
 *   transfer  | fromId, fromName, toId, toName, amountMinor, currency — the
 *   (1 each)  | transfers that settle the session, in the Statement's order
 *   total     | netMinor = totalMinor (players' nets plus the house's: always 0),
 *   (1 row)   | currency
 *
 * Rows come in exactly that order: session, players, house, payments, matches,
 * tournaments (each flight followed by its prizes), transfers, total.
 *
 * NUMBERS. The numeric columns (games, netMinor, paidMinor, receivedMinor,
 * outstandingMinor, amountMinor) hold integers in minor units (R6.2), written
 * in plain decimal: no thousands separator, no decimals, no exponent, a leading
 * `-` for a negative amount. They are never quoted and never prefixed, so a
 * spreadsheet reads them as numbers.
 *
 * MAJOR UNITS. Each minor-unit amount also appears in major units in the column
 * named without `Minor` (netMinor → net, …, amountMinor → amount), filled whenever
 * its minor column is: exact decimal text computed from the integer with the
 * currency's ISO 4217 minor digits (USD 2: -1234 → -12.34; JPY 0: 500 → 500;
 * BHD 3: 1500 → 1.500), `.` as the decimal point, no grouping, never rounded. They
 * came after the others so that a reader by position keeps finding the first 16
 * where they were.
 *
 * TIMES (`at`) are RFC 3339 in the club's time zone with its offset
 * (2025-03-15T08:40:00.000+09:00 in Asia/Tokyo), `Z` when the club keeps UTC: the
 * same instant as the JSON's, written as the club's clock shows it.
 *
 * QUOTING (RFC 4180). A field containing `,`, `"`, CR or LF is enclosed in double
 * quotes and every `"` inside it is doubled; other fields are written as they
 * are. Records end with CRLF, the last one included. A UTF-8 byte-order mark
 * starts the text only when asked for (`bom`), for spreadsheets that otherwise
 * guess another encoding.
 *
 * FORMULA INJECTION. A spreadsheet would run a cell that starts with `=`, `+`,
 * `-` or `@` (and some treat a leading tab or CR the same way) as a formula: a
 * player named `=HYPERLINK(...)` must not become a live link. So every TEXT field
 * (every column except `record` and the numeric and major-unit ones: ids, names,
 * currency, note, at) that starts with one of `=` `+` `-` `@` TAB CR gets a `'` in front of it:
 * `=HYPERLINK("x")` is written `'=HYPERLINK("x")` (then quoted, since it holds a
 * `"`). A text field that itself starts with `'` gets one too, so the escape can
 * always be undone exactly: a program reading the file drops ONE leading `'` from
 * a text field when there is one, and gets the original value back.
 *
 * An empty cell in a text column and an empty text are the same thing (a payment
 * without a note has an empty `note`).
 *
 * `parseCsv` (src/common/csv.ts) reads any RFC 4180 text (this module's output
 * included) back into rows of fields; it does not undo the `'` prefix.
 */
import { BOM, CRLF, csvInteger, csvText } from '../common/csv';
import { currencyMinorDigits, minorToDecimal } from '../domain/currency';
import { HOUSE } from '../domain/settlement';
import { HOUSE_NAME, Statement } from '../domain/statement';
import { rfc3339InZone } from '../domain/zoned-time';

/** How the CSV is written. */
export interface CsvOptions {
  /** The club's IANA time zone: times are written there (default UTC). */
  timeZone?: string;
  /** Start with a UTF-8 byte-order mark. */
  bom?: boolean;
}

const COLUMNS = [
  'record',
  'playerId',
  'name',
  'games',
  'netMinor',
  'paidMinor',
  'receivedMinor',
  'outstandingMinor',
  'fromId',
  'fromName',
  'toId',
  'toName',
  'amountMinor',
  'currency',
  'note',
  'at',
  'net',
  'paid',
  'received',
  'outstanding',
  'amount',
] as const;

type Column = (typeof COLUMNS)[number];

const NUMERIC_COLUMNS = ['games', 'netMinor', 'paidMinor', 'receivedMinor', 'outstandingMinor', 'amountMinor'] as const;
type NumericColumn = (typeof NUMERIC_COLUMNS)[number];
/** Each major-unit column and the minor-unit column it is computed from. */
const MAJOR_OF = { net: 'netMinor', paid: 'paidMinor', received: 'receivedMinor', outstanding: 'outstandingMinor', amount: 'amountMinor' } as const;
type MajorColumn = keyof typeof MAJOR_OF;
type TextColumn = Exclude<Column, NumericColumn | MajorColumn | 'record'>;

type RecordKind = 'session' | 'player' | 'house' | 'payment' | 'match' | 'tournament' | 'prize' | 'transfer' | 'total';

/** One data row: the record kind, then whichever cells it fills (the rest stay empty). */
type Row = { record: RecordKind } & Partial<Record<NumericColumn, number>> & Partial<Record<TextColumn, string>>;

const NUMERIC = new Set<Column>(NUMERIC_COLUMNS);

/** Renders the statement as RFC 4180 CSV; see the top of this file for the layout. */
export function renderStatementCsv(s: Statement, options: CsvOptions = {}): string {
  const timeZone = options.timeZone ?? 'UTC';
  const at = (time: string) => rfc3339InZone(time, timeZone);
  const digits = currencyMinorDigits(s.currency);
  const currency = s.currency;
  const rows: Row[] = [];
  rows.push({
    record: 'session',
    playerId: s.sessionId,
    name: s.sessionName,
    currency,
    note: `status=${s.status}; rakePercent=${s.rakePercent}; timeZone=${timeZone}`,
    at: at(s.asOf),
  });
  for (const p of s.players) {
    rows.push({
      record: 'player',
      playerId: p.playerId,
      name: p.name,
      games: p.games,
      netMinor: p.netMinor,
      paidMinor: p.paidMinor,
      receivedMinor: p.receivedMinor,
      outstandingMinor: p.outstandingMinor,
      currency,
    });
  }
  rows.push({
    record: 'house',
    playerId: HOUSE,
    name: HOUSE_NAME,
    netMinor: s.houseMinor,
    outstandingMinor: s.houseOutstandingMinor,
    currency,
  });
  for (const p of s.payments) {
    rows.push({
      record: 'payment',
      playerId: p.id,
      fromId: p.from,
      fromName: p.fromName,
      toId: p.to,
      toName: p.toName,
      amountMinor: p.amountMinor,
      currency,
      note: p.note ?? '',
      at: at(p.at),
    });
  }
  for (const m of s.matches) {
    const loser = m.winnerSide === 0 ? 1 : 0;
    const end = m.endedBy.kind === 'points' ? 'endedBy=points' : `endedBy=forfeit; side=${m.endedBy.side}; reason=${m.endedBy.reason}`;
    rows.push({
      record: 'match',
      playerId: m.matchId,
      name: `${m.sideNames[0]} vs ${m.sideNames[1]}`,
      fromName: m.sideNames[loser],
      toName: m.sideNames[m.winnerSide],
      ...(m.stakeMinor === null ? {} : { amountMinor: m.stakeMinor }),
      currency,
      note: `score=${m.score[0]}-${m.score[1]}; ${end}`,
      at: at(m.endedAt),
    });
  }
  for (const f of s.tournaments) {
    rows.push({
      record: 'tournament',
      playerId: f.tournamentId,
      name: f.name,
      games: f.entries,
      netMinor: f.houseMinor,
      amountMinor: f.poolMinor,
      currency,
      note: `flight=${f.flight}; status=${f.status}; entryFeeMinor=${f.entryFeeMinor ?? 'none'}`,
    });
    for (const p of f.prizes) {
      rows.push({
        record: 'prize',
        playerId: f.tournamentId,
        fromId: HOUSE,
        fromName: HOUSE_NAME,
        toId: p.playerId,
        toName: p.name,
        amountMinor: p.amountMinor,
        currency,
        note: `flight=${f.flight}; bracket=${p.bracket}; place=${p.place}`,
      });
    }
  }
  for (const t of s.transfers) {
    rows.push({
      record: 'transfer',
      fromId: t.from,
      fromName: t.fromName,
      toId: t.to,
      toName: t.toName,
      amountMinor: t.amountMinor,
      currency,
    });
  }
  rows.push({ record: 'total', netMinor: s.totalMinor, currency });

  const lines = [COLUMNS.join(','), ...rows.map((row) => renderRow(row, digits))];
  return (options.bom ? BOM : '') + lines.join(CRLF) + CRLF;
}

function renderRow(row: Row, digits: number): string {
  return COLUMNS.map((column) => {
    if (column in MAJOR_OF) {
      const minor = row[MAJOR_OF[column as MajorColumn]];
      // The minor column, written before it, has been checked to be a safe integer.
      return minor === undefined ? '' : minorToDecimal(minor, digits);
    }
    return renderCell(column, row[column as Exclude<Column, MajorColumn>]);
  }).join(',');
}

function renderCell(column: Column, value: string | number | undefined): string {
  if (value === undefined) return '';
  if (NUMERIC.has(column)) return csvInteger(value, `statement CSV: ${column}`);
  return csvText(String(value), column !== 'record');
}
