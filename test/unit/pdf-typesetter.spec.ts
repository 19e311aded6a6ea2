import { shaperReadsRtl, Typesetter } from '../../src/settlement/pdf-typesetter';

type Call = { text: string; x: number; font: string; features: unknown };

/** A pdfkit document whose text calls are recorded (drawn too, into a document nobody reads). */
function recorder() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const doc = new PDFDocument({ size: 'A4' });
  const calls: Call[] = [];
  const text = doc.text.bind(doc) as (...args: unknown[]) => unknown;
  (doc as unknown as { text: (...args: unknown[]) => unknown }).text = (...args: unknown[]) => {
    const [t, x, , opts] = args as [string, number, number, { features?: unknown } | undefined];
    calls.push({ text: t, x, font: (doc as unknown as { _font: { name: string } })._font.name, features: opts?.features });
    return text(...args);
  };
  const ts = new Typesetter(doc).style('regular', 9);
  return { doc, ts, calls };
}

describe('Typesetter: one line in any script', () => {
  it('draws plain Latin as one DejaVu run', () => {
    const { ts, calls } = recorder();
    const w = ts.draw('Bob Stone', 10, 20);
    expect(calls).toEqual([{ text: 'Bob Stone', x: 10, font: 'DejaVuSans', features: undefined }]);
    expect(w).toBeCloseTo(ts.width('Bob Stone'));
  });

  it('hands an Arabic name to the shaper whole, in logical order', () => {
    const { ts, calls } = recorder();
    ts.draw('محمد علي', 0, 20);
    // One run: fontkit joins the letters (initial, medial, final forms) and reverses them.
    expect(calls).toEqual([{ text: 'محمد علي', x: 0, font: 'NotoNaskhArabic', features: [] }]);
    // Joined letters are narrower than the same letters standing alone.
    expect(ts.width('محمد')).toBeLessThan([...'محمد'].reduce((sum, ch) => sum + ts.width(ch), 0));
  });

  it('sends CJK and Hangul to their fonts', () => {
    const { ts, calls } = recorder();
    ts.draw('王小明', 0, 20);
    ts.draw('さくら', 0, 40);
    ts.draw('김민준', 0, 60);
    expect(calls.map((c) => [c.text, c.font])).toEqual([
      ['王小明', 'NotoSansHans-Regular'],
      ['さくら', 'NotoSansHans-Regular'],
      ['김민준', 'NotoSansKR-Regular'],
    ]);
  });

  it('puts a Hebrew word to the right of the Latin before it, and to the left of the Latin after it in a right-to-left line', () => {
    const { ts, calls } = recorder();
    ts.draw('Noah דוד', 0, 20);
    expect(calls.map((c) => c.text)).toEqual(['Noah ', 'דוד']);
    expect(calls[1].x).toBeCloseTo(ts.width('Noah '));
    calls.length = 0;
    ts.draw('דוד Cohen', 0, 40);
    expect(calls.map((c) => [c.text, c.font])).toEqual([
      ['Cohen', 'DejaVuSans'],
      ['דוד ', 'NotoSansHebrew'],
    ]);
    expect(calls[0].x).toBe(0);
    expect(calls[1].x).toBeGreaterThan(0);
  });

  it('reverses by itself what the shaper would not, and keeps what it reverses', () => {
    const { ts, calls } = recorder();
    // Arabic-Indic digits read left to right, but fontkit would lay them out right to left.
    ts.draw('٣٢١', 0, 20);
    expect(calls.map((c) => c.text)).toEqual(['١٢٣']);
  });

  it('uses the bold faces for bold text', () => {
    const { ts, calls } = recorder();
    ts.style('bold', 12).draw('Total 王 ד', 0, 20);
    expect(calls.map((c) => c.font)).toEqual(['DejaVuSans-Bold', 'NotoSansHans-Bold', 'NotoSansHebrew-Bold']);
  });
});

describe('shaperReadsRtl (what fontkit does)', () => {
  it.each([
    ['محمد', true],
    ['דוד', true],
    ['١٢٣', true],
    [' (דוד', true],
    ['abc', false],
    ['123', false],
    ['王', false],
    ['', false],
  ])('%s → %s', (text, rtl) => expect(shaperReadsRtl(text)).toBe(rtl));
});
