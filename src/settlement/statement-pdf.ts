/**
 * R6.5 settlement statement as a printable A4 PDF (pdfkit).
 *
 * Pure apart from reading its font files once: no framework, no clock, no
 * randomness. The document's dates come from the statement's `asOf`, and pdfkit
 * derives the file /ID from the document info, so the same Statement in the same
 * time zone renders to byte-identical PDFs.
 *
 * Names and notes may be in any script: each line is set run by run in a font that
 * has its letters, right-to-left runs in visual order (src/settlement/pdf-typesetter.ts,
 * which lists the fonts); only the glyphs used are embedded.
 *
 * Times are printed in the club's time zone, each with its UTC offset (or "UTC" when
 * the club keeps UTC); the zone is named in the header.
 *
 * Layout: A4 portrait, 40 pt margins, 9 pt text on 14 pt rows. Twelve players,
 * twelve transfers and six payments fit on one page; anything longer flows onto
 * further pages, each table repeating its header on the new page. Every cell is
 * clipped to its column: text gets an ellipsis, amounts shrink to fit.
 *
 * Text is always drawn at explicit positions without pdfkit's `width` option, so
 * pdfkit never wraps a line nor adds a page by itself; the layout below does both.
 */
import { HOUSE } from '../domain/settlement';
import type { Statement } from '../domain/statement';
import { currencyMinorDigits, groupedDecimal } from '../domain/currency';
import { dayInZone, isUtcZone, stampInZone } from '../domain/zoned-time';
import { Typesetter, Weight } from './pdf-typesetter';

type Doc = PDFKit.PDFDocument;

/** How the statement is printed. */
export interface StatementPdfOptions {
  /** The club's IANA time zone: every time is printed there (default UTC). */
  timeZone?: string;
}

// ---------------------------------------------------------------------------
// Formatting (integer and string arithmetic only: R6.2, no floating point)
// ---------------------------------------------------------------------------

/**
 * An amount in minor units as a decimal string with `digits` fraction digits and
 * comma thousands separators: (1500, 2) → "15.00", (-5, 2) → "-0.05",
 * (123456, 0) → "123,456". The currency's digits: currencyMinorDigits (ISO 4217).
 */
export function formatMinor(amountMinor: number | bigint, digits: number): string {
  return groupedDecimal(amountMinor, digits);
}

/** Times in the club's zone: the day, a stamp with its offset, and the zone as the header names it. */
interface Clock {
  day(time: string): string;
  stamp(time: string): string;
  /** "UTC", or the zone's name. */
  zoneName: string;
  utc: boolean;
}

function clock(timeZone: string): Clock {
  const utc = isUtcZone(timeZone);
  return { day: (t) => dayInZone(t, timeZone), stamp: (t) => stampInZone(t, timeZone), zoneName: utc ? 'UTC' : timeZone, utc };
}

/** One line of printable text: control characters and runs of white space become one space. */
function clean(text: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return (text ?? '').replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

// ---------------------------------------------------------------------------
// Page geometry and style
// ---------------------------------------------------------------------------

const MARGIN = 40;
const FONT_SIZE = 9;
const ROW_HEIGHT = 14;
const HEADER_HEIGHT = 24;
const PAD = 4;
const MIN_NUMBER_SIZE = 5;
const ELLIPSIS = '…';
/** DejaVu Sans ascender (1901/2048 em): from a cell's top to the baseline every run of its line sits on. */
const ASCENT = 1901 / 2048;

const INK = '#000000';
const MUTED = '#555555';
const RULE = '#888888';
const HEADER_FILL = '#e4e4e4';
const STRIPE_FILL = '#f4f4f4';

interface Column {
  title: string;
  /** A second, smaller header line (the currency of an amount column). */
  unit?: string;
  width: number;
  align: 'left' | 'right' | 'center';
  /** Amounts are never cut: they shrink to fit instead. */
  numeric?: boolean;
}

type RowStyle = 'normal' | 'house' | 'total';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The longest prefix of `text` (whole graphemes) that, followed by "…", fits in `width`. */
function ellipsize(ts: Typesetter, text: string, width: number): string {
  if (ts.width(text) <= width) return text;
  const graphemes = Array.from(segmenter.segment(text), (g) => g.segment);
  let lo = 0;
  let hi = graphemes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ts.width(graphemes.slice(0, mid).join('').trimEnd() + ELLIPSIS) <= width) lo = mid;
    else hi = mid - 1;
  }
  return graphemes.slice(0, lo).join('').trimEnd() + ELLIPSIS;
}

class Layout {
  private y: number;
  private readonly left: number;
  private readonly bottom: number;
  readonly width: number;

  constructor(
    private readonly doc: Doc,
    private readonly ts: Typesetter,
  ) {
    this.left = doc.page.margins.left;
    this.width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    this.bottom = doc.page.height - doc.page.margins.bottom;
    this.y = doc.page.margins.top;
  }

  /** Starts a new page unless `height` still fits on this one; true when it did. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.doc.addPage();
    this.y = this.doc.page.margins.top;
    return true;
  }

  gap(height: number): void {
    this.y += height;
  }

  /**
   * One line of text at (x, top), clipped to `width`: text is ellipsized,
   * numbers are shrunk (never cut) and keep the baseline of `size`.
   */
  cell(text: string, x: number, top: number, width: number, align: Column['align'], size: number, weight: Weight, numeric = false): void {
    const ts = this.ts.style(weight, size);
    let shown = text;
    if (numeric) {
      let s = size;
      while (s > MIN_NUMBER_SIZE && ts.width(shown) > width) {
        s -= 0.5;
        ts.style(weight, s);
      }
    } else {
      shown = ellipsize(ts, shown, width);
    }
    if (!shown) return;
    const w = ts.width(shown);
    const dx = align === 'right' ? width - w : align === 'center' ? (width - w) / 2 : 0;
    ts.draw(shown, x + Math.max(0, dx), top + ASCENT * size);
    ts.style(weight, size);
  }

  /** A single line of text across the page. */
  line(text: string, opts: { size: number; bold?: boolean; color?: string; height: number }): void {
    this.ensure(opts.height);
    const doc = this.doc;
    doc.fillColor(opts.color ?? INK);
    this.cell(clean(text), this.left, this.y, this.width, 'left', opts.size, opts.bold ? 'bold' : 'regular');
    doc.fillColor(INK);
    this.y += opts.height;
  }

  /** Label/value pairs in `perRow` equal columns. */
  pairs(items: Array<[string, string]>, perRow: number): void {
    const colWidth = this.width / perRow;
    for (let i = 0; i < items.length; i += perRow) {
      this.ensure(ROW_HEIGHT);
      items.slice(i, i + perRow).forEach(([label, value], j) => {
        const x = this.left + j * colWidth;
        const labelText = `${label}:`;
        const labelWidth = Math.min(this.ts.style('bold', FONT_SIZE).width(labelText) + 3, colWidth / 2);
        this.cell(labelText, x, this.y, labelWidth, 'left', FONT_SIZE, 'bold');
        this.cell(clean(value), x + labelWidth, this.y, colWidth - labelWidth - PAD, 'left', FONT_SIZE, 'regular');
      });
      this.y += ROW_HEIGHT;
    }
  }

  /** A section heading, kept on the same page as the first `keep` points that follow it. */
  heading(text: string, keep: number): void {
    this.ensure(20 + keep);
    this.gap(6);
    this.line(text, { size: 11, bold: true, height: 18 });
  }

  private header(columns: Column[]): void {
    const doc = this.doc;
    doc.rect(this.left, this.y, this.width, HEADER_HEIGHT).fill(HEADER_FILL);
    doc.fillColor(INK);
    let x = this.left;
    for (const c of columns) {
      this.cell(c.title, x + PAD, this.y + 2, c.width - 2 * PAD, c.align, FONT_SIZE, 'bold');
      if (c.unit) {
        doc.fillColor(MUTED);
        this.cell(c.unit, x + PAD, this.y + 13, c.width - 2 * PAD, c.align, 7.5, 'regular');
        doc.fillColor(INK);
      }
      x += c.width;
    }
    this.rule(this.y + HEADER_HEIGHT, 0.75);
    this.y += HEADER_HEIGHT;
  }

  private rule(y: number, lineWidth: number): void {
    this.doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(lineWidth)
      .strokeColor(RULE)
      .stroke();
  }

  /**
   * A table: header, then rows (striped); a row that does not fit starts a new
   * page, which repeats the header. `styles[i]` marks the house and total rows.
   */
  table(columns: Column[], rows: string[][], styles: RowStyle[] = []): void {
    const doc = this.doc;
    this.ensure(HEADER_HEIGHT + ROW_HEIGHT);
    this.header(columns);
    const textTop = (ROW_HEIGHT - FONT_SIZE * 1.164) / 2;
    rows.forEach((row, i) => {
      if (this.ensure(ROW_HEIGHT)) this.header(columns);
      const style = styles[i] ?? 'normal';
      if (style === 'normal' && i % 2 === 1) {
        doc.rect(this.left, this.y, this.width, ROW_HEIGHT).fill(STRIPE_FILL);
      }
      if (style !== 'normal') this.rule(this.y, style === 'total' ? 0.75 : 0.4);
      doc.fillColor(INK);
      const weight: Weight = style === 'total' ? 'bold' : 'regular';
      let x = this.left;
      columns.forEach((c, j) => {
        this.cell(clean(row[j]), x + PAD, this.y + textTop, c.width - 2 * PAD, c.align, FONT_SIZE, weight, c.numeric);
        x += c.width;
      });
      this.y += ROW_HEIGHT;
    });
    this.rule(this.y, 0.75);
  }
}

// ---------------------------------------------------------------------------
// The statement
// ---------------------------------------------------------------------------

/**
 * Exact sum of minor amounts (BigInt), printed as it is: a column total of several
 * parties may pass 2^53 − 1 even though each party's figure is within it (R6.2).
 */
function sumOf(values: Iterable<number | bigint>): bigint {
  let total = 0n;
  for (const v of values) total += BigInt(v);
  return total;
}

function draw(doc: Doc, ts: Typesetter, s: Statement, time: Clock): void {
  const digits = currencyMinorDigits(s.currency);
  const money = (minor: number | bigint) => formatMinor(minor, digits);
  const currency = clean(s.currency);
  const layout = new Layout(doc, ts);
  const w = layout.width;

  // Title and session facts.
  layout.line(s.clubName, { size: 16, bold: true, height: 22 });
  layout.line(`Settlement statement — ${clean(s.sessionName)}`, { size: 12, bold: true, height: 20 });
  layout.gap(2);
  layout.pairs(
    [
      ['Date', time.day(s.startsAt ?? s.asOf)],
      ['Status', s.status],
      ['Currency', currency],
      ['Rake', `${String(s.rakePercent)} %`],
      ['Rake taken', `${money(s.houseMinor)} ${currency}`],
      ['As of', time.stamp(s.asOf)],
      ['Time zone', time.zoneName],
    ],
    3,
  );

  // Players, the house and the total.
  const housePaid = sumOf(s.payments.filter((p) => p.from === HOUSE).map((p) => p.amountMinor));
  const houseReceived = sumOf(s.payments.filter((p) => p.to === HOUSE).map((p) => p.amountMinor));
  const amount = (title: string): Column => ({ title, unit: currency, width: 82, align: 'right', numeric: true });
  const playerColumns: Column[] = [
    { title: 'Player', width: w - 44 - 4 * 82, align: 'left' },
    { title: 'Games', width: 44, align: 'right', numeric: true },
    amount('Net'),
    amount('Paid'),
    amount('Received'),
    amount('Outstanding'),
  ];
  const playerRows = s.players.map((p) => [p.name, String(p.games), money(p.netMinor), money(p.paidMinor), money(p.receivedMinor), money(p.outstandingMinor)]);
  const houseRow = ['House (rake)', '', money(s.houseMinor), money(housePaid), money(houseReceived), money(s.houseOutstandingMinor)];
  const totalRow = [
    'Total',
    '',
    money(s.totalMinor),
    money(sumOf([...s.players.map((p) => p.paidMinor), housePaid])),
    money(sumOf([...s.players.map((p) => p.receivedMinor), houseReceived])),
    money(sumOf([...s.players.map((p) => p.outstandingMinor), s.houseOutstandingMinor])),
  ];
  layout.heading(`Players (${s.players.length})`, HEADER_HEIGHT + ROW_HEIGHT);
  layout.table(playerColumns, [...playerRows, houseRow, totalRow], [...playerRows.map((): RowStyle => 'normal'), 'house', 'total']);
  layout.gap(3);
  layout.line('Net: won (+) or lost (−) after rake. Outstanding = net + paid − received; positive means still owed.', {
    size: 7.5,
    color: MUTED,
    height: 11,
  });

  // Payments recorded against the session.
  if (s.payments.length === 0) {
    layout.heading('Payments', ROW_HEIGHT);
    layout.line('No payments recorded.', { size: FONT_SIZE, height: ROW_HEIGHT });
  } else {
    layout.heading(`Payments (${s.payments.length})`, HEADER_HEIGHT + ROW_HEIGHT);
    // In UTC the column says so and each time is the wall clock; elsewhere each time
    // carries its offset, which may change within a session (daylight saving time).
    const whenWidth = time.utc ? 90 : Math.ceil(ts.style('regular', FONT_SIZE).width('0000-00-00 00:00 +00:00')) + 2 * PAD + 2;
    const nameWidth = 110;
    const when = (at: string) => (time.utc ? time.stamp(at).replace(/ UTC$/, '') : time.stamp(at));
    layout.table(
      [
        { title: 'When', unit: time.zoneName, width: whenWidth, align: 'left' },
        { title: 'From', width: nameWidth, align: 'left' },
        { title: '', width: 20, align: 'center' },
        { title: 'To', width: nameWidth, align: 'left' },
        { title: 'Amount', unit: currency, width: 75, align: 'right', numeric: true },
        { title: 'Note', width: w - whenWidth - 2 * nameWidth - 20 - 75, align: 'left' },
      ],
      s.payments.map((p) => [when(p.at), p.fromName, '→', p.toName, money(p.amountMinor), p.note ?? '']),
    );
  }

  // The session's finished matches and how each ended (R3.2, R3.9); left out when there is none.
  if (s.matches.length > 0) {
    layout.heading(`Matches (${s.matches.length})`, HEADER_HEIGHT + ROW_HEIGHT);
    const sideWidth = 130;
    const ended = (m: Statement['matches'][number]) => (m.endedBy.kind === 'points' ? 'points' : `forfeit by ${m.sideNames[m.endedBy.side]}: ${m.endedBy.reason}`);
    layout.table(
      [
        { title: 'Side 0', width: sideWidth, align: 'left' },
        { title: 'Side 1', width: sideWidth, align: 'left' },
        { title: 'Score', width: 50, align: 'center' },
        { title: 'Ended by', width: w - 2 * sideWidth - 50 - 75, align: 'left' },
        { title: 'Stake', unit: currency, width: 75, align: 'right', numeric: true },
      ],
      s.matches.map((m) => [m.sideNames[0], m.sideNames[1], `${m.score[0]}–${m.score[1]}`, ended(m), m.stakeMinor === null ? '' : money(m.stakeMinor)]),
    );
  }

  // The session's tournaments, flight by flight: pool, the house's commission, prizes (R9.9).
  if (s.tournaments.length > 0) {
    layout.heading(`Tournaments (${s.tournaments.length})`, HEADER_HEIGHT + ROW_HEIGHT);
    const nameWidth = 150;
    const placeWidth = 60;
    layout.table(
      [
        { title: 'Tournament', width: nameWidth, align: 'left' },
        { title: 'Flight', width: 80, align: 'left' },
        { title: 'Entries', width: 50, align: 'right' },
        { title: 'Pool', unit: currency, width: 75, align: 'right', numeric: true },
        { title: 'House', unit: currency, width: 75, align: 'right', numeric: true },
        { title: 'Status', width: w - nameWidth - 80 - 50 - 150, align: 'left' },
      ],
      s.tournaments.map((f) => [f.name, f.flight, String(f.entries), money(f.poolMinor), money(f.houseMinor), f.status]),
    );
    const prizes = s.tournaments.flatMap((f) => f.prizes.map((p) => ({ f, p })));
    if (prizes.length > 0) {
      layout.heading(`Prizes (${prizes.length})`, HEADER_HEIGHT + ROW_HEIGHT);
      layout.table(
        [
          { title: 'Tournament', width: nameWidth, align: 'left' },
          { title: 'Place', width: placeWidth, align: 'left' },
          { title: 'Player', width: w - nameWidth - placeWidth - 75, align: 'left' },
          { title: 'Prize', unit: currency, width: 75, align: 'right', numeric: true },
        ],
        prizes.map(({ f, p }) => [`${f.name} (${f.flight})`, `${p.bracket === 'consolation' ? 'cons. ' : ''}${p.place}`, p.name, money(p.amountMinor)]),
      );
    }
  }

  // Transfers that settle what is outstanding.
  if (s.transfers.length === 0) {
    layout.heading('Transfers to settle', ROW_HEIGHT);
    layout.line('Nothing to settle: every balance is zero.', { size: FONT_SIZE, height: ROW_HEIGHT });
  } else {
    layout.heading(`Transfers to settle (${s.transfers.length})`, HEADER_HEIGHT + ROW_HEIGHT);
    const nameWidth = (w - 40 - 100) / 2;
    layout.table(
      [
        { title: 'Payer', width: nameWidth, align: 'left' },
        { title: '', width: 40, align: 'center' },
        { title: 'Payee', width: nameWidth, align: 'left' },
        { title: 'Amount', unit: currency, width: 100, align: 'right', numeric: true },
      ],
      s.transfers.map((t) => [t.fromName, 'pays', t.toName, money(t.amountMinor)]),
    );
  }
}

/** Footer on every page: what the document is, and page n of m. */
function footers(doc: Doc, ts: Typesetter, s: Statement, time: Clock): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const top = doc.page.height - doc.page.margins.bottom + 14;
    const pageText = `Page ${i - range.start + 1} of ${range.count}`;
    doc.fillColor(MUTED);
    ts.style('regular', 7.5);
    const pageWidth = ts.width(pageText);
    ts.draw(pageText, left + width - pageWidth, top + ASCENT * 7.5);
    const what = ellipsize(ts, `${clean(s.clubName)} · ${clean(s.sessionName)} · settlement statement as of ${time.stamp(s.asOf)}`, width - pageWidth - 12);
    ts.draw(what, left, top + ASCENT * 7.5);
  }
  doc.fillColor(INK);
}

/** The statement as an A4 PDF, its times in `options.timeZone` (default UTC). Same statement and zone, same bytes. */
export function renderStatementPdf(s: Statement, options: StatementPdfOptions = {}): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    try {
      const asOf = new Date(s.asOf);
      const when = Number.isNaN(asOf.getTime()) ? new Date(0) : asOf;
      // pdfkit (and its font engine) is loaded on the first PDF, not at start: most
      // instances never print one, and it is a large share of the process's memory.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const PDFDocument = require('pdfkit') as typeof import('pdfkit');
      const doc = new PDFDocument({
        size: 'A4',
        margin: MARGIN,
        bufferPages: true,
        lang: 'en',
        displayTitle: true,
        info: {
          Title: `${clean(s.clubName)} — ${clean(s.sessionName)} — settlement statement`,
          Author: clean(s.clubName),
          Subject: `Settlement statement of session ${s.sessionId}`,
          Creator: 'backgammon-club-scorekeeping',
          CreationDate: when,
          ModDate: when,
        },
      });
      const chunks: Buffer[] = [];
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
      const time = clock(options.timeZone ?? 'UTC');
      const ts = new Typesetter(doc).style('regular', FONT_SIZE);
      doc.fillColor(INK);
      draw(doc, ts, s, time);
      footers(doc, ts, s, time);
      doc.end();
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
