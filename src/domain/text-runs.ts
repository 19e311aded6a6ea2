/**
 * A line of text in any script, cut into runs that one font draws in one direction,
 * in the order they stand on the page: what a printer needs to set a name such as
 * `王小明`, `김민준`, `محمد علي` or `Noah דוד` on one line.
 *
 * 1. Each character gets a font face by its script (Han and kana, Hangul, Arabic,
 *    Hebrew, everything else); spaces, digits and punctuation (script Common) stay
 *    with the face of the character before them when it has them, so `محمد علي` is one
 *    run that the shaper joins, and combining marks always stay with their letter.
 * 2. Each character gets a bidirectional level by a subset of the Unicode
 *    Bidirectional Algorithm (UAX #9) for one line without explicit embeddings: the
 *    line's direction from its first strong letter (P2, P3), the weak types (W1–W7),
 *    the neutrals (N1, N2), the levels (I1, I2) and trailing white space (L1).
 *    Explicit embedding and isolate controls are treated as neutrals; bracket pairs
 *    (N0) are not matched.
 * 3. Runs of one face and one level are put in visual order (L2); a run at an odd
 *    level reads right to left, so its characters are drawn reversed (the printer's
 *    shaper reverses Arabic and Hebrew itself).
 *
 * Each run keeps its characters in logical order: the text a reader copies out of
 * the PDF is what was written.
 *
 * Pure: no framework, no I/O; Unicode data from the runtime's regular expressions.
 */

/** What decides the font: a script family, or Common/Inherited (taken from a neighbour). */
export type ScriptGroup = 'cjk' | 'hangul' | 'arabic' | 'hebrew' | 'other' | 'common' | 'inherited';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const ARABIC = /\p{Script=Arabic}/u;
const HEBREW = /\p{Script=Hebrew}/u;
const COMMON = /\p{Script=Common}/u;
const INHERITED = /\p{Script=Inherited}/u;

/** The script group of one character (one code point). */
export function scriptGroup(ch: string): ScriptGroup {
  if (CJK.test(ch)) return 'cjk';
  if (HANGUL.test(ch)) return 'hangul';
  if (ARABIC.test(ch)) return 'arabic';
  if (HEBREW.test(ch)) return 'hebrew';
  if (INHERITED.test(ch)) return 'inherited';
  if (COMMON.test(ch)) return 'common';
  return 'other';
}

/** UAX #9 bidirectional character types used here (no explicit embeddings). */
export type BidiClass = 'L' | 'R' | 'AL' | 'EN' | 'ES' | 'ET' | 'AN' | 'CS' | 'NSM' | 'WS' | 'ON';

const NSM = /[\p{Mn}\p{Me}]/u;
const ARABIC_LETTERS = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}]/u;
const RTL_LETTERS = /[\p{Script=Hebrew}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Nko}\p{Script=Adlam}\u{10800}-\u{10FFF}]/u;
const DIGIT = /\p{Nd}/u;
const ES = /[+\-\u2212\u207a\u207b\u208a\u208b\ufb29\ufe62\ufe63\uff0b\uff0d]/u;
const ET = /[#$%\p{Sc}\u00b0\u00b1\u066a\u2030-\u2034\u2212\uff03\uff04\uff05]/u;
const CS = /[,./:\u00a0\u060c\u202f\u2044\ufe50\ufe52\ufe55\uff0c\uff0e\uff0f\uff1a]/u;
const WS = /\s/u;
const STRONG_LEFT = /[\p{L}\p{Mc}\p{Nl}\p{Nd}\p{Co}]/u;

/** The bidirectional type of one character (one code point). */
export function bidiClass(ch: string): BidiClass {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp === 0x200e) return 'L'; // LEFT-TO-RIGHT MARK
  if (cp === 0x200f) return 'R'; // RIGHT-TO-LEFT MARK
  if (cp === 0x061c) return 'AL'; // ARABIC LETTER MARK
  if (NSM.test(ch)) return 'NSM';
  if ((cp >= 0x0660 && cp <= 0x0669) || cp === 0x066b || cp === 0x066c || (cp >= 0x10e60 && cp <= 0x10e7e)) return 'AN';
  if (cp >= 0x06f0 && cp <= 0x06f9) return 'EN';
  if (ES.test(ch)) return 'ES';
  if (ET.test(ch)) return 'ET';
  if (CS.test(ch)) return 'CS';
  if (ARABIC_LETTERS.test(ch) || (cp >= 0x1ee00 && cp <= 0x1eeff)) return 'AL';
  if (RTL_LETTERS.test(ch) || (cp >= 0x1e800 && cp <= 0x1efff)) return 'R';
  if (DIGIT.test(ch)) return COMMON.test(ch) ? 'EN' : 'L';
  if (WS.test(ch)) return 'WS';
  if (STRONG_LEFT.test(ch)) return 'L';
  return 'ON';
}

/** Embedding levels of a line, one per character (code point), and the line's own level. */
export interface BidiLevels {
  paragraph: 0 | 1;
  levels: number[];
}

/**
 * UAX #9 levels of one line (see the top of this file for the subset). `direction`
 * forces the line's direction; by default it is that of its first strong letter, left
 * to right when there is none.
 */
export function bidiLevels(chars: readonly string[], direction?: 'ltr' | 'rtl'): BidiLevels {
  const types: BidiClass[] = chars.map(bidiClass);
  const n = types.length;
  let paragraph: 0 | 1 = 0;
  if (direction) paragraph = direction === 'rtl' ? 1 : 0;
  else {
    const first = types.find((t) => t === 'L' || t === 'R' || t === 'AL');
    paragraph = first === 'R' || first === 'AL' ? 1 : 0;
  }
  const sos: BidiClass = paragraph ? 'R' : 'L';

  // W1: a combining mark takes the type of the character before it.
  for (let i = 0; i < n; i++) if (types[i] === 'NSM') types[i] = i === 0 ? sos : types[i - 1];
  // W2, W3: European digits after Arabic letters are Arabic numbers; AL becomes R.
  let strong: BidiClass = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === 'L' || t === 'R' || t === 'AL') strong = t;
    else if (t === 'EN' && strong === 'AL') types[i] = 'AN';
  }
  for (let i = 0; i < n; i++) if (types[i] === 'AL') types[i] = 'R';
  // W4: one separator between two numbers of a kind joins them.
  for (let i = 1; i < n - 1; i++) {
    const [before, t, after] = [types[i - 1], types[i], types[i + 1]];
    if (before === 'EN' && after === 'EN' && (t === 'ES' || t === 'CS')) types[i] = 'EN';
    else if (before === 'AN' && after === 'AN' && t === 'CS') types[i] = 'AN';
  }
  // W5: terminators next to European numbers belong to them.
  for (let i = 0; i < n; i++) {
    if (types[i] !== 'ET') continue;
    let j = i;
    while (j < n && types[j] === 'ET') j++;
    if ((i > 0 && types[i - 1] === 'EN') || (j < n && types[j] === 'EN')) for (let k = i; k < j; k++) types[k] = 'EN';
    i = j - 1;
  }
  // W6: the remaining separators and terminators are neutral.
  for (let i = 0; i < n; i++) if (types[i] === 'ES' || types[i] === 'ET' || types[i] === 'CS') types[i] = 'ON';
  // W7: European numbers in a left-to-right context are left to right.
  strong = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i];
    if (t === 'L' || t === 'R') strong = t;
    else if (t === 'EN' && strong === 'L') types[i] = 'L';
  }
  // N1, N2: neutrals between two of the same direction take it, others the line's.
  const direction_ = (t: BidiClass | undefined, edge: BidiClass): BidiClass => (t === undefined ? edge : t === 'EN' || t === 'AN' ? 'R' : t);
  for (let i = 0; i < n; i++) {
    if (types[i] !== 'ON' && types[i] !== 'WS') continue;
    let j = i;
    while (j < n && (types[j] === 'ON' || types[j] === 'WS')) j++;
    const before = direction_(i > 0 ? types[i - 1] : undefined, sos);
    const after = direction_(j < n ? types[j] : undefined, sos);
    const resolved: BidiClass = before === after ? before : sos;
    for (let k = i; k < j; k++) types[k] = resolved;
    i = j - 1;
  }
  // I1, I2.
  const levels = types.map((t) => {
    if (paragraph === 0) return t === 'R' ? 1 : t === 'AN' || t === 'EN' ? 2 : 0;
    return t === 'L' || t === 'EN' || t === 'AN' ? 2 : 1;
  });
  // L1: white space at the end of the line goes back to the line's level.
  for (let i = n - 1; i >= 0 && WS.test(chars[i]); i--) levels[i] = paragraph;
  return { paragraph, levels };
}

/** One run: characters of one face at one level, in logical order. */
export interface TextRun<F> {
  text: string;
  face: F;
  /** Read right to left: drawn with its characters reversed (odd level). */
  rtl: boolean;
}

/** How a printer picks a font face for a character. */
export interface FacePicker<F> {
  /** The face meant for a script group (never asked for Common or Inherited). */
  faceFor(group: ScriptGroup): F;
  /** Whether a face has a glyph for the character. */
  covers(face: F, ch: string): boolean;
  /** Faces to try, in order, for a character its own face lacks; the first is the default. */
  fallbacks: readonly F[];
}

/**
 * A face for every character (code point) of `chars`: its script's face, or the first
 * fallback that covers it; Common characters (spaces, digits, punctuation) take the
 * face of the character before them, else the one after, when it covers them;
 * combining marks take the face of their letter.
 */
export function chooseFaces<F>(chars: readonly string[], picker: FacePicker<F>): F[] {
  const groups = chars.map(scriptGroup);
  const faces: Array<F | undefined> = chars.map((ch, i) => {
    const g = groups[i];
    if (g === 'common' || g === 'inherited') return undefined;
    const own = picker.faceFor(g);
    if (picker.covers(own, ch)) return own;
    return picker.fallbacks.find((f) => picker.covers(f, ch)) ?? own;
  });
  const base = picker.fallbacks[0];
  for (let i = 0; i < chars.length; i++) {
    if (faces[i] !== undefined) continue;
    const before = i > 0 ? faces[i - 1] : undefined;
    if (groups[i] === 'inherited' && before !== undefined) {
      faces[i] = before;
      continue;
    }
    if (before !== undefined && picker.covers(before, chars[i])) {
      faces[i] = before;
      continue;
    }
    let next: F | undefined;
    for (let j = i + 1; j < chars.length && next === undefined; j++) if (groups[j] !== 'common' && groups[j] !== 'inherited') next = faces[j];
    if (next !== undefined && picker.covers(next, chars[i])) faces[i] = next;
    else faces[i] = picker.fallbacks.find((f) => picker.covers(f, chars[i])) ?? base;
  }
  return faces as F[];
}

/**
 * The runs of a line in visual order (left to right on the page), each of one face
 * and one direction, its text in logical order. `direction` forces the line's
 * direction (default: that of its first strong letter).
 */
export function visualRuns<F>(text: string, picker: FacePicker<F>, direction?: 'ltr' | 'rtl'): Array<TextRun<F>> {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const faces = chooseFaces(chars, picker);
  const { levels } = bidiLevels(chars, direction);
  const runs: Array<{ text: string; face: F; level: number }> = [];
  for (let i = 0; i < chars.length; i++) {
    const last = runs[runs.length - 1];
    if (last && last.face === faces[i] && last.level === levels[i]) last.text += chars[i];
    else runs.push({ text: chars[i], face: faces[i], level: levels[i] });
  }
  // L2: from the highest level down to the lowest odd one, reverse every stretch of
  // runs at that level or higher.
  const highest = Math.max(...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => (r.level % 2 === 1 ? r.level : r.level + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; i++) {
      if (runs[i].level < level) continue;
      let j = i;
      while (j < runs.length && runs[j].level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.map((r) => ({ text: r.text, face: r.face, rtl: r.level % 2 === 1 }));
}

const MIRRORED: Readonly<Record<string, string>> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
};

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * A run's characters in the order they stand when read right to left: grapheme
 * clusters reversed (a letter keeps its marks), brackets mirrored (L4).
 */
export function reverseForDisplay(text: string): string {
  return Array.from(graphemes.segment(text), (g) => MIRRORED[g.segment] ?? g.segment)
    .reverse()
    .join('');
}
