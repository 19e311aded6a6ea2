/**
 * Sets one line of text in any script on a pdfkit page: each run of the line (see
 * src/domain/text-runs.ts) in a font that has its letters, in the order the runs stand
 * on the page, right-to-left runs shaped and reversed.
 *
 * Fonts (all SIL Open Font License, from npm packages; read on first use and kept for
 * the life of the process; pdfkit embeds only the glyphs a document uses):
 *
 *   face    | script                         | font (package)
 *   --------+--------------------------------+---------------------------------------------
 *   base    | Latin, Greek, Cyrillic, …      | DejaVu Sans (dejavu-fonts-ttf)
 *   cjk     | Han (Chinese, kanji), kana     | Noto Sans CJK SC, "Noto Sans Hans" (@embedpdf/fonts-sc)
 *   hangul  | Hangul (Korean)                | Noto Sans CJK KR, "Noto Sans KR" (@embedpdf/fonts-kr)
 *   arabic  | Arabic                         | Noto Naskh Arabic (@embedpdf/fonts-arabic)
 *   hebrew  | Hebrew                         | Noto Sans Hebrew (@embedpdf/fonts-hebrew)
 *
 * Each in a regular and a bold weight. A character whose own face lacks it is drawn in
 * the first face of base, cjk, hangul, arabic, hebrew that has it (DejaVu Sans has much
 * of Arabic and Hebrew too); one that none has prints as DejaVu's missing-glyph box.
 * A font is read and parsed (fontkit) when a document first needs it, and the parsed
 * font is handed to every later document until no PDF has been printed for a minute
 * (`KEEP_FONTS_MS`), then let go: parsing a CJK font's CFF table for a subset costs a few
 * hundred milliseconds, and the CJK fonts take some 50 MB parsed, so an evening's
 * statements printed one after the other parse them once, and an idle instance does
 * not keep them. Each document starts with an empty glyph cache (see `fontFor`), so
 * what it writes depends on nothing printed before it.
 *
 * Visual order: runs stand left to right as the bidirectional levels put them; the
 * glyphs of a right-to-left run are written in visual order (fontkit reverses Arabic and
 * Hebrew as it shapes them; other runs at an odd level, such as a bracket between two
 * Hebrew words, are reversed here). The PDF's text layer maps every glyph back to its
 * characters (ToUnicode), and extractors (pdf.js, poppler) put the letters of a
 * right-to-left run back in logical order.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FacePicker, reverseForDisplay, ScriptGroup, TextRun, visualRuns } from '../domain/text-runs';

type Doc = PDFKit.PDFDocument;

export type Face = 'base' | 'cjk' | 'hangul' | 'arabic' | 'hebrew';
export type Weight = 'regular' | 'bold';

/** The fonts folder of an @embedpdf/fonts-* package (its main file is dist/index.cjs). */
const embedPdfFonts = (pkg: string) => join(dirname(require.resolve(pkg)), '..', 'fonts');

const FONT_FILES: Record<Face, { dir: () => string; regular: string; bold: string }> = {
  base: { dir: () => join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf'), regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' },
  cjk: { dir: () => embedPdfFonts('@embedpdf/fonts-sc'), regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  hangul: { dir: () => embedPdfFonts('@embedpdf/fonts-kr'), regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' },
  arabic: { dir: () => embedPdfFonts('@embedpdf/fonts-arabic'), regular: 'NotoNaskhArabic-Regular.ttf', bold: 'NotoNaskhArabic-Bold.ttf' },
  hebrew: { dir: () => embedPdfFonts('@embedpdf/fonts-hebrew'), regular: 'NotoSansHebrew-Regular.ttf', bold: 'NotoSansHebrew-Bold.ttf' },
};

const FALLBACKS: readonly Face[] = ['base', 'cjk', 'hangul', 'arabic', 'hebrew'];

/**
 * Size of a face relative to the text's size: Noto Naskh Arabic draws its letters small
 * for their em (a short x-height), so Arabic is set 15 % larger to read as the same size
 * as the Latin beside it.
 */
const FACE_SCALE: Record<Face, number> = { base: 1, cjk: 1, hangul: 1, arabic: 1.15, hebrew: 1 };

/** What this module asks of a fontkit font (pdfkit takes the font object itself). */
interface FontkitFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: string): unknown;
  /** fontkit's cache of glyph objects, each keeping the characters it was first looked up for. */
  _glyphs?: Record<number, unknown>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- augmenting @types/pdfkit's own namespace
  namespace PDFKit.Mixins {
    interface PDFFont {
      /** pdfkit 0.20 takes a fontkit font object as well as a file (PDFFontFactory.open). */
      registerFont(name: string, src: FontkitFont): this;
    }
  }
}

const fonts = new Map<string, FontkitFont>();

/** How long parsed fonts are kept after the last document that used them. */
const KEEP_FONTS_MS = 60_000;
let release: NodeJS.Timeout | null = null;

/** Keeps the parsed fonts for another KEEP_FONTS_MS, then lets them go. */
function keepFonts(): void {
  if (release) clearTimeout(release);
  release = setTimeout(() => {
    fonts.clear();
    release = null;
  }, KEEP_FONTS_MS);
  release.unref();
}

/** The parsed font of a face and weight: read from its file once per process. */
function parsedFont(face: Face, weight: Weight): FontkitFont {
  const key = `${face}-${weight}`;
  let font = fonts.get(key);
  if (!font) {
    const f = FONT_FILES[face];
    // fontkit (pdfkit's font engine) is loaded with the first PDF, like pdfkit.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fontkit = require('fontkit') as { create(buffer: Buffer): FontkitFont };
    font = fontkit.create(readFileSync(join(f.dir(), f[weight])));
    fonts.set(key, font);
  }
  return font;
}

/**
 * The parsed font, ready for a new document. fontkit keeps each glyph with the
 * characters it was first looked up for, and pdfkit writes those into the text layer
 * (ToUnicode); emptying the cache when a document starts using the font keeps that
 * document's bytes independent of the documents before it (same statement, same bytes).
 */
function fontFor(face: Face, weight: Weight): FontkitFont {
  const font = parsedFont(face, weight);
  if (font._glyphs) font._glyphs = {};
  return font;
}

function covers(face: Face, weight: Weight, ch: string): boolean {
  return parsedFont(face, weight).hasGlyphForCodePoint(ch.codePointAt(0) ?? 0);
}

function faceFor(group: ScriptGroup): Face {
  return group === 'cjk' || group === 'hangul' || group === 'arabic' || group === 'hebrew' ? group : 'base';
}

const pickers: Record<Weight, FacePicker<Face>> = {
  regular: { faceFor, covers: (face, ch) => covers(face, 'regular', ch), fallbacks: FALLBACKS },
  bold: { faceFor, covers: (face, ch) => covers(face, 'bold', ch), fallbacks: FALLBACKS },
};

/** Printable ASCII: DejaVu Sans has all of it, left to right. */
const PLAIN = /^[\x20-\x7e]*$/;

const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const NEUTRAL_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * Whether fontkit lays `text` out right to left: it takes the direction of the first
 * character whose script is not Common or Inherited.
 */
export function shaperReadsRtl(text: string): boolean {
  for (const ch of text) if (!NEUTRAL_SCRIPT.test(ch)) return RTL_SCRIPT.test(ch);
  return false;
}

/** A run as handed to pdfkit: the characters in the order fontkit must get them, and whether to shape it whole. */
interface SetRun {
  face: Face;
  text: string;
  /** Shape the run as one piece (pdfkit otherwise lays out word by word, which breaks right-to-left order). */
  whole: boolean;
}

/** One line of text in any script on one pdfkit document, in the regular or bold weight. */
export class Typesetter {
  private readonly registered = new Set<string>();
  private weight: Weight = 'regular';
  private size = 10;

  constructor(private readonly doc: Doc) {
    keepFonts();
  }

  /** The weight and size of what follows. */
  style(weight: Weight, size: number): this {
    this.weight = weight;
    this.size = size;
    return this;
  }

  get fontSize(): number {
    return this.size;
  }

  /** The runs of `text`, in visual order, ready for pdfkit. */
  private runs(text: string): SetRun[] {
    if (PLAIN.test(text)) return text ? [{ face: 'base', text, whole: false }] : [];
    return visualRuns(text, pickers[this.weight]).map((r: TextRun<Face>): SetRun => {
      const shaperRtl = shaperReadsRtl(r.text);
      return { face: r.face, text: r.rtl === shaperRtl ? r.text : reverseForDisplay(r.text), whole: shaperRtl };
    });
  }

  private use(face: Face): void {
    const name = `${face}-${this.weight}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, fontFor(face, this.weight));
      this.registered.add(name);
    }
    this.doc.font(name).fontSize(this.size * FACE_SCALE[face]);
  }

  private runWidth(run: SetRun): number {
    this.use(run.face);
    return this.doc.widthOfString(run.text, run.whole ? { features: [] } : {});
  }

  /** The width of `text` in points, at the current weight and size. */
  width(text: string): number {
    let w = 0;
    for (const run of this.runs(text)) w += this.runWidth(run);
    return w;
  }

  /** Draws `text` from `x` (its left end) on the baseline `baseline`; returns its width. */
  draw(text: string, x: number, baseline: number): number {
    let at = x;
    for (const run of this.runs(text)) {
      const w = this.runWidth(run);
      this.doc.text(run.text, at, baseline, { lineBreak: false, baseline: 'alphabetic', ...(run.whole ? { features: [] } : {}) });
      at += w;
    }
    return at - x;
  }
}
