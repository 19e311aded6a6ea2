import { bidiClass, bidiLevels, chooseFaces, FacePicker, reverseForDisplay, scriptGroup, visualRuns } from './text-runs';

type Face = 'base' | 'cjk' | 'hangul' | 'arabic' | 'hebrew';

/** Fonts like the statement's: the base face has Latin and punctuation, the others their script and a space; CJK also digits and its punctuation. */
const picker: FacePicker<Face> = {
  faceFor: (g) => (g === 'cjk' || g === 'hangul' || g === 'arabic' || g === 'hebrew' ? g : 'base'),
  covers: (face, ch) => {
    const g = scriptGroup(ch);
    switch (face) {
      case 'base':
        return (g === 'other' || g === 'common' || g === 'inherited') && !/[\u3000-\u303f\u30fb\u30fc\uff00-\uffef]/u.test(ch);
      case 'cjk':
        return g === 'cjk' || /[\s\d\u3000-\u303f\u30fb\u30fc\uff00-\uffef]/u.test(ch);
      case 'hangul':
        return g === 'hangul' || /[\s\d]/u.test(ch);
      case 'arabic':
        return g === 'arabic' || ch === ' ';
      case 'hebrew':
        return g === 'hebrew' || ch === ' ';
    }
  },
  fallbacks: ['base', 'cjk', 'hangul', 'arabic', 'hebrew'],
};

const runs = (text: string, direction?: 'ltr' | 'rtl') => visualRuns(text, picker, direction).map((r) => `${r.face}${r.rtl ? '←' : '→'}${r.text}`);

describe('script groups and bidirectional types', () => {
  it.each([
    ['王', 'cjk'],
    ['さ', 'cjk'],
    ['カ', 'cjk'],
    ['김', 'hangul'],
    ['م', 'arabic'],
    ['ד', 'hebrew'],
    ['a', 'other'],
    ['Ж', 'other'],
    [' ', 'common'],
    ['7', 'common'],
    ['ー', 'common'],
    ['\u0301', 'inherited'],
  ])('%s is %s', (ch, group) => expect(scriptGroup(ch)).toBe(group));

  it.each([
    ['a', 'L'],
    ['王', 'L'],
    ['ד', 'R'],
    ['م', 'AL'],
    ['1', 'EN'],
    ['٣', 'AN'],
    ['۳', 'EN'],
    ['-', 'ES'],
    ['+', 'ES'],
    ['%', 'ET'],
    ['$', 'ET'],
    [',', 'CS'],
    ['.', 'CS'],
    [' ', 'WS'],
    ['(', 'ON'],
    ['!', 'ON'],
    ['\u0301', 'NSM'],
    ['\u05b8', 'NSM'],
    ['\u200f', 'R'],
  ])('%s is %s', (ch, type) => expect(bidiClass(ch)).toBe(type));
});

describe('bidiLevels (UAX #9, one line)', () => {
  const levels = (text: string, direction?: 'ltr' | 'rtl') => bidiLevels(Array.from(text), direction);

  it('takes the line direction from the first strong letter', () => {
    expect(levels('abc').paragraph).toBe(0);
    expect(levels('123 דוד').paragraph).toBe(1);
    expect(levels('محمد abc').paragraph).toBe(1);
    expect(levels('123').paragraph).toBe(0);
    expect(levels('דוד', 'ltr').paragraph).toBe(0);
  });

  it('levels a Hebrew name in a left-to-right line', () => {
    expect(levels('Noah דוד').levels).toEqual([0, 0, 0, 0, 0, 1, 1, 1]);
  });

  it('keeps a number whole in a right-to-left line (W4, W5)', () => {
    // דוד 1,234% : the separator and the percent sign join the number.
    expect(levels('דוד 1,234%').levels).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
  });

  it('turns digits after Arabic letters into Arabic numbers (W2)', () => {
    expect(levels('محمد 12').levels).toEqual([1, 1, 1, 1, 1, 2, 2]);
  });

  it('gives combining marks the level of their letter (W1)', () => {
    expect(levels('שָׁלוֹם').levels.every((l) => l === 1)).toBe(true);
  });

  it('sends trailing white space back to the line level (L1)', () => {
    expect(levels('abc דוד ').levels).toEqual([0, 0, 0, 0, 1, 1, 1, 0]);
  });
});

describe('visualRuns: fonts and order on the page', () => {
  it('draws plain Latin in one run', () => {
    expect(runs('Bob Stone')).toEqual(['base→Bob Stone']);
  });

  it('sends Chinese, Japanese and Korean names to their faces', () => {
    expect(runs('王小明')).toEqual(['cjk→王小明']);
    expect(runs('さくら')).toEqual(['cjk→さくら']);
    expect(runs('東京バックギャモン・クラブ')).toEqual(['cjk→東京バックギャモン・クラブ']);
    expect(runs('김민준')).toEqual(['hangul→김민준']);
    expect(runs('김 王')).toEqual(['hangul→김 ', 'cjk→王']);
  });

  it('keeps an Arabic name with its space in one right-to-left run, for the shaper to join', () => {
    expect(runs('محمد علي')).toEqual(['arabic←محمد علي']);
  });

  it('puts a Hebrew word after Latin text on its right', () => {
    expect(runs('Noah דוד')).toEqual(['base→Noah ', 'hebrew←דוד']);
  });

  it('puts Latin text after a Hebrew word on its left in a right-to-left line', () => {
    expect(runs('דוד Cohen')).toEqual(['base→Cohen', 'hebrew←דוד ']);
  });

  it('keeps a number between Arabic words where it is read', () => {
    // Read right to left: محمد, 12, علي.
    expect(runs('محمد 12 علي')).toEqual(['arabic←علي', 'base← ', 'base→12', 'arabic←محمد ']);
  });

  it('leaves brackets around a right-to-left word in a left-to-right line where they are', () => {
    expect(runs('Ali (محمد)')).toEqual(['base→Ali (', 'arabic←محمد', 'base→)']);
  });

  it('can force the line direction', () => {
    expect(runs('Noah דוד', 'rtl')).toEqual(['hebrew←דוד', 'base← ', 'base→Noah']);
  });

  it('is empty for an empty line', () => {
    expect(runs('')).toEqual([]);
  });

  it('keeps a combining mark with its letter', () => {
    expect(chooseFaces(Array.from('Jose\u0301'), picker)).toEqual(['base', 'base', 'base', 'base', 'base']);
    expect(chooseFaces(Array.from('ד\u05b8'), picker)).toEqual(['hebrew', 'hebrew']);
  });

  it('falls back to a face that has the character, else the first', () => {
    // A CJK ideographic full stop after Latin text: the base face lacks it.
    expect(chooseFaces(Array.from('a。'), picker)).toEqual(['base', 'cjk']);
    // A character nobody has (Thai) goes to the first fallback.
    expect(chooseFaces(Array.from('ก'), { ...picker, covers: (f, ch) => f !== 'base' && picker.covers(f, ch) && scriptGroup(ch) !== 'other' })).toEqual(['base']);
  });
});

describe('reverseForDisplay', () => {
  it('reverses grapheme clusters and mirrors brackets', () => {
    expect(reverseForDisplay('a(b)')).toBe('(b)a');
    expect(reverseForDisplay('xe\u0301')).toBe('e\u0301x');
    expect(reverseForDisplay(' - ')).toBe(' - ');
    expect(reverseForDisplay('«x»')).toBe('«x»');
  });
});
