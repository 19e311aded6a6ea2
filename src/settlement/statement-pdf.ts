/**
 * R6.5 settlement statement as a printable A4 PDF (pdfkit).
 *
 * Pure apart from reading the two DejaVu Sans font files once: no framework, no
 * clock, no randomness. The document's dates come from the statement's `asOf`,
 * and pdfkit derives the file /ID from the document info, so the same Statement
 * renders to byte-identical PDFs.
 *
 * Layout: A4 portrait, 40 pt margins, 9 pt text on 14 pt rows. Twelve players,
 * twelve transfers and six payments fit on one page; anything longer flows onto
 * further pages, each table repeating its header on the new page. Every cell is
 * clipped to its column: text gets an ellipsis, amounts shrink to fit.
 *
 * Text is always drawn without pdfkit's `width` option, so pdfkit never wraps a
 * line nor adds a page by itself; the layout below does both explicitly.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HOUSE } from '../domain/settlement';
import type { Statement } from '../domain/statement';

type Doc = PDFKit.PDFDocument;

// ---------------------------------------------------------------------------
// Fonts
// ---------------------------------------------------------------------------

const REGULAR = 'DejaVuSans';
const BOLD = 'DejaVuSans-Bold';

let fontCache: { regular: Buffer; bold: Buffer } | null = null;

/** The DejaVu Sans files, read on first use and kept for the life of the process. */
function fonts(): { regular: Buffer; bold: Buffer } {
  if (!fontCache) {
    const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    fontCache = {
      regular: readFileSync(join(dir, 'DejaVuSans.ttf')),
      bold: readFileSync(join(dir, 'DejaVuSans-Bold.ttf')),
    };
  }
  return fontCache;
}

// ---------------------------------------------------------------------------
// Formatting (integer and string arithmetic only: R6.2, no floating point)
// ---------------------------------------------------------------------------

/** Minor-unit digits of an ISO 4217 currency (USD 2, JPY 0, BHD 3); 2 when unknown. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount in minor units as a decimal string with `digits` fraction digits and
 * comma thousands separators: (1500, 2) → "15.00", (-5, 2) → "-0.05",
 * (123456, 0) → "123,456".
 */
export function formatMinor(amountMinor: number | bigint, digits: number): string {
  if (typeof amountMinor === 'number' && !Number.isSafeInteger(amountMinor)) throw new RangeError(`not a safe integer amount: ${amountMinor}`);
  if (!Number.isInteger(digits) || digits < 0) throw new RangeError(`bad number of minor digits: ${digits}`);
  let value = BigInt(amountMinor);
  const negative = value < 0n;
  if (negative) value = -value;
  const plain = value.toString().padStart(digits + 1, '0');
  const whole = plain.slice(0, plain.length - digits).replace(/\B(?=(\d{3})+$)/g, ',');
  const fraction = digits > 0 ? `.${plain.slice(plain.length - digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}/;

/** The calendar date of an RFC 3339 time as written (YYYY-MM-DD). */
function datePart(time: string): string {
  const m = DATE_PREFIX.exec(time);
  if (m) return m[0];
  const d = new Date(time);
  return Number.isNaN(d.getTime()) ? time : d.toISOString().slice(0, 10);
}

/** An RFC 3339 time in UTC as "YYYY-MM-DD HH:MM" (as written when it does not parse). */
function stamp(time: string): string {
  const d = new Date(time);
  if (Number.isNaN(d.getTime())) return time;
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** An RFC 3339 time as "YYYY-MM-DD HH:MM UTC". */
function dateTime(time: string): string {
  const shown = stamp(time);
  return shown === time ? time : `${shown} UTC`;
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
/** DejaVu Sans ascender (1901/2048 em): from a cell's top to its baseline. */
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
function ellipsize(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  const graphemes = Array.from(segmenter.segment(text), (g) => g.segment);
  let lo = 0;
  let hi = graphemes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (doc.widthOfString(graphemes.slice(0, mid).join('').trimEnd() + ELLIPSIS) <= width) lo = mid;
    else hi = mid - 1;
  }
  return graphemes.slice(0, lo).join('').trimEnd() + ELLIPSIS;
}

class Layout {
  private y: number;
  private readonly left: number;
  private readonly bottom: number;
  readonly width: number;

  constructor(private readonly doc: Doc) {
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
  cell(text: string, x: number, top: number, width: number, align: Column['align'], size: number, numeric = false): void {
    const doc = this.doc;
    doc.fontSize(size);
    let shown = text;
    if (numeric) {
      let s = size;
      while (s > MIN_NUMBER_SIZE && doc.widthOfString(shown) > width) {
        s -= 0.5;
        doc.fontSize(s);
      }
    } else {
      shown = ellipsize(doc, shown, width);
    }
    if (!shown) return;
    const w = doc.widthOfString(shown);
    const dx = align === 'right' ? width - w : align === 'center' ? (width - w) / 2 : 0;
    doc.text(shown, x + Math.max(0, dx), top + ASCENT * size, { lineBreak: false, baseline: 'alphabetic' });
    doc.fontSize(size);
  }

  /** A single line of text across the page. */
  line(text: string, opts: { size: number; bold?: boolean; color?: string; height: number }): void {
    this.ensure(opts.height);
    const doc = this.doc;
    doc.font(opts.bold ? BOLD : REGULAR).fillColor(opts.color ?? INK);
    this.cell(clean(text), this.left, this.y, this.width, 'left', opts.size);
    doc.fillColor(INK);
    this.y += opts.height;
  }

  /** Label/value pairs in `perRow` equal columns. */
  pairs(items: Array<[string, string]>, perRow: number): void {
    const doc = this.doc;
    const colWidth = this.width / perRow;
    for (let i = 0; i < items.length; i += perRow) {
      this.ensure(ROW_HEIGHT);
      items.slice(i, i + perRow).forEach(([label, value], j) => {
        const x = this.left + j * colWidth;
        doc.font(BOLD).fontSize(FONT_SIZE);
        const labelText = `${label}:`;
        const labelWidth = Math.min(doc.widthOfString(labelText) + 3, colWidth / 2);
        this.cell(labelText, x, this.y, labelWidth, 'left', FONT_SIZE);
        doc.font(REGULAR);
        this.cell(clean(value), x + labelWidth, this.y, colWidth - labelWidth - PAD, 'left', FONT_SIZE);
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
      doc.font(BOLD);
      this.cell(c.title, x + PAD, this.y + 2, c.width - 2 * PAD, c.align, FONT_SIZE);
      if (c.unit) {
        doc.font(REGULAR).fillColor(MUTED);
        this.cell(c.unit, x + PAD, this.y + 13, c.width - 2 * PAD, c.align, 7.5);
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
      doc.fillColor(INK).font(style === 'total' ? BOLD : REGULAR);
      let x = this.left;
      columns.forEach((c, j) => {
        this.cell(clean(row[j]), x + PAD, this.y + textTop, c.width - 2 * PAD, c.align, FONT_SIZE, c.numeric);
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

function draw(doc: Doc, s: Statement): void {
  const digits = currencyDigits(s.currency);
  const money = (minor: number | bigint) => formatMinor(minor, digits);
  const currency = clean(s.currency);
  const layout = new Layout(doc);
  const w = layout.width;

  // Title and session facts.
  layout.line(s.clubName, { size: 16, bold: true, height: 22 });
  layout.line(`Settlement statement — ${clean(s.sessionName)}`, { size: 12, bold: true, height: 20 });
  layout.gap(2);
  layout.pairs(
    [
      ['Date', datePart(s.startsAt ?? s.asOf)],
      ['Status', s.status],
      ['Currency', currency],
      ['Rake', `${String(s.rakePercent)} %`],
      ['Rake taken', `${money(s.houseMinor)} ${currency}`],
      ['As of', dateTime(s.asOf)],
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
    layout.table(
      [
        { title: 'When', unit: 'UTC', width: 90, align: 'left' },
        { title: 'From', width: 110, align: 'left' },
        { title: '', width: 20, align: 'center' },
        { title: 'To', width: 110, align: 'left' },
        { title: 'Amount', unit: currency, width: 75, align: 'right', numeric: true },
        { title: 'Note', width: w - 90 - 110 - 20 - 110 - 75, align: 'left' },
      ],
      s.payments.map((p) => [stamp(p.at), p.fromName, '→', p.toName, money(p.amountMinor), p.note ?? '']),
    );
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
function footers(doc: Doc, s: Statement): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const top = doc.page.height - doc.page.margins.bottom + 14;
    const pageText = `Page ${i - range.start + 1} of ${range.count}`;
    doc.font(REGULAR).fontSize(7.5).fillColor(MUTED);
    const pageWidth = doc.widthOfString(pageText);
    doc.text(pageText, left + width - pageWidth, top, { lineBreak: false });
    const what = ellipsize(doc, `${clean(s.clubName)} · ${clean(s.sessionName)} · settlement statement as of ${dateTime(s.asOf)}`, width - pageWidth - 12);
    doc.text(what, left, top, { lineBreak: false });
  }
  doc.fillColor(INK);
}

/** The statement as an A4 PDF. Same statement, same bytes. */
export function renderStatementPdf(s: Statement): Promise<Buffer> {
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
      const { regular, bold } = fonts();
      doc.registerFont(REGULAR, regular);
      doc.registerFont(BOLD, bold);
      doc.font(REGULAR).fontSize(FONT_SIZE).fillColor(INK);
      draw(doc, s);
      footers(doc, s);
      doc.end();
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
