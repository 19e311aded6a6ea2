/**
 * RFC 4180 cells shared by every CSV this service writes (statements, games); the tests
 * read them back with test/support/csv.ts.
 * Records end with CRLF. Text that a spreadsheet would run as a formula (leading
 * `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`; so does text already starting
 * with `'`, so a reader can always undo the guard by removing one leading `'`.
 */
export const CRLF = '\r\n';

/** The UTF-8 byte-order mark, written first when a client asks for it (`?bom=1`): some spreadsheets read UTF-8 without it as another encoding. */
export const BOM = '\uFEFF';

const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);
const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell: guarded against formulas (unless `guard` is false) and quoted when needed. */
export function csvText(text: string, guard = true): string {
  const guarded = guard && text.length > 0 && FORMULA_TRIGGERS.has(text[0]) ? `'${text}` : text;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** A number cell: a plain safe integer (never guarded: "-5" stays a number), or a RangeError naming `what`. */
export function csvInteger(value: unknown, what: string): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be a safe integer, got ${String(value)}`);
  }
  // String(-0) is "0": no stray sign.
  return String(value);
}
