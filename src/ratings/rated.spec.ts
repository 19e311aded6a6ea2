import { isRated } from './rated';

describe('R7.2, R8.9: which matches are rated', () => {
  const setup = (variant?: string) => ({ sides: [['a'], ['b']] as const, target: 5, ...(variant === undefined ? {} : { variant }) });

  it('rates a backgammon match, and one from before variants (no variant in its setup)', () => {
    expect(isRated(setup())).toBe(true);
    expect(isRated(setup('backgammon'))).toBe(true);
  });

  it.each(['long-nardy', 'portes', 'plakoto', 'fevga', 'tavli', 'tavla-31', 'something-new'])('does not rate a %s match', (variant) => {
    expect(isRated(setup(variant))).toBe(false);
  });
});
