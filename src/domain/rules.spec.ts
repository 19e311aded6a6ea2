import { effectiveCubeLimit, isPowerOfTwo, MATCH_DEFAULTS, MAX_CUBE_VALUE, maxInstantRedoubles, MONEY_DEFAULTS, resolveMatchRules, resolveMoneyRules } from './rules';
import { expectRefusal } from './test-helpers';

describe('R4.3 money settings and defaults', () => {
  it('R4.3 defaults: jacoby on, beavers/raccoons off, 0 automatic doubles, cube limit 64, backgammon × 3', () => {
    expect(resolveMoneyRules()).toEqual({
      jacoby: true,
      beavers: false,
      raccoons: false,
      automaticDoubles: 0,
      cubeLimit: 64,
      backgammonMultiplier: 3,
    });
    expect(resolveMoneyRules(null)).toEqual(MONEY_DEFAULTS);
  });

  it('R4.3 fills only what is missing', () => {
    expect(resolveMoneyRules({ beavers: true, cubeLimit: null })).toEqual({ ...MONEY_DEFAULTS, beavers: true, cubeLimit: null });
  });

  it('R4.3 refuses settings a money game does not have', () => {
    expectRefusal(() => resolveMoneyRules({ crawford: true } as never), 'UNKNOWN_SETTING', 'R4.3');
    expectRefusal(() => resolveMoneyRules({ partnerFrom: 6 } as never), 'UNKNOWN_SETTING', 'R4.3');
  });

  it('R1.5/R2.4 boolean settings must be booleans', () => {
    expectRefusal(() => resolveMoneyRules({ jacoby: 'yes' } as never), 'INVALID_SETTING', 'R1.5');
    expectRefusal(() => resolveMoneyRules({ beavers: 1 } as never), 'INVALID_SETTING', 'R2.4');
  });
});

describe('R2.2 cubeLimit', () => {
  it.each([2, 4, 64, 1024, 2 ** 50, null])('R2.2 accepts %p', (cubeLimit) => {
    expect(resolveMoneyRules({ cubeLimit }).cubeLimit).toBe(cubeLimit);
  });
  it.each([1, 0, 3, 48, -64, 2 ** 51, 64.5, '64'])('R2.2 refuses %p', (cubeLimit) => {
    expectRefusal(() => resolveMoneyRules({ cubeLimit } as never), 'INVALID_CUBE_LIMIT', 'R2.2');
  });
  it('R2.2 the effective limit of "no limit" is 2^50', () => {
    expect(effectiveCubeLimit({ cubeLimit: null })).toBe(MAX_CUBE_VALUE);
    expect(effectiveCubeLimit({ cubeLimit: 8 })).toBe(8);
  });
  it('isPowerOfTwo', () => {
    expect([1, 2, 4, 2 ** 40, 2 ** 52].every(isPowerOfTwo)).toBe(true);
    expect([0, 3, 6, -2, 0.5, 2 ** 40 + 2, NaN].some(isPowerOfTwo)).toBe(false);
  });
});

describe('R1.2 backgammonMultiplier', () => {
  it('R1.2 accepts 2 and 3 only', () => {
    expect(resolveMoneyRules({ backgammonMultiplier: 2 }).backgammonMultiplier).toBe(2);
    expectRefusal(() => resolveMoneyRules({ backgammonMultiplier: 4 } as never), 'INVALID_BACKGAMMON_MULTIPLIER', 'R1.2');
    expectRefusal(() => resolveMatchRules({ backgammonMultiplier: 1 } as never), 'INVALID_BACKGAMMON_MULTIPLIER', 'R1.2');
  });
});

describe('R2.7 automaticDoubles', () => {
  it.each([0, 1, 2, 6])('R2.7 accepts %i', (automaticDoubles) => {
    expect(resolveMoneyRules({ automaticDoubles }).automaticDoubles).toBe(automaticDoubles);
  });
  it.each([-1, 7, 1.5, '1'])('R2.7 refuses %p', (automaticDoubles) => {
    expectRefusal(() => resolveMoneyRules({ automaticDoubles } as never), 'INVALID_AUTOMATIC_DOUBLES', 'R2.7');
  });
  it('R2.7 refuses automatic doubles that would start the cube above its limit (2 doubles = 4 > limit 2)', () => {
    expectRefusal(() => resolveMoneyRules({ automaticDoubles: 2, cubeLimit: 2 }), 'INVALID_AUTOMATIC_DOUBLES', 'R2.7');
    expect(resolveMoneyRules({ automaticDoubles: 1, cubeLimit: 2 }).automaticDoubles).toBe(1);
  });
});

describe('R2.5 raccoons need beavers; maxInstantRedoubles', () => {
  it('R2.5 refuses raccoons without beavers', () => {
    expectRefusal(() => resolveMoneyRules({ raccoons: true }), 'RACCOONS_NEED_BEAVERS', 'R2.5');
    expect(resolveMoneyRules({ raccoons: true, beavers: true })).toMatchObject({ raccoons: true, beavers: true });
  });
  it('R2.4/R2.5 instant redoubles: 0 without beavers, 1 with beavers only, 2 with raccoons', () => {
    expect(maxInstantRedoubles({ beavers: false, raccoons: false })).toBe(0);
    expect(maxInstantRedoubles({ beavers: true, raccoons: false })).toBe(1);
    expect(maxInstantRedoubles({ beavers: true, raccoons: true })).toBe(2);
  });
});

describe('match settings (R2.8, R3.4, R3.5)', () => {
  it('R3.4/R3.5 defaults: { crawford: true, deadCube: "refuse" }, no money-only setting, limit 64, backgammon × 3', () => {
    expect(resolveMatchRules()).toEqual({
      crawford: true,
      deadCube: 'refuse',
      jacoby: false,
      beavers: false,
      raccoons: false,
      automaticDoubles: 0,
      cubeLimit: 64,
      backgammonMultiplier: 3,
    });
    expect(resolveMatchRules({})).toEqual(MATCH_DEFAULTS);
  });
  it('R3.4/R3.5 accepts crawford off and deadCube allow', () => {
    expect(resolveMatchRules({ crawford: false, deadCube: 'allow' })).toMatchObject({ crawford: false, deadCube: 'allow' });
  });
  it('R3.4/R3.5 refuses bad values', () => {
    expectRefusal(() => resolveMatchRules({ crawford: 'on' } as never), 'INVALID_SETTING', 'R3.4');
    expectRefusal(() => resolveMatchRules({ deadCube: 'maybe' } as never), 'INVALID_SETTING', 'R3.5');
  });
  it('R2.8 refuses money-only settings switched on, and unknown settings', () => {
    expectRefusal(() => resolveMatchRules({ jacoby: true }), 'MONEY_ONLY_SETTING', 'R2.8');
    expectRefusal(() => resolveMatchRules({ automaticDoubles: 2 }), 'MONEY_ONLY_SETTING', 'R2.8');
    expectRefusal(() => resolveMatchRules({ cubes: 'single' } as never), 'UNKNOWN_SETTING', 'R2.8');
  });
  it('resolved rules are frozen', () => {
    expect(Object.isFrozen(resolveMatchRules())).toBe(true);
    expect(Object.isFrozen(resolveMoneyRules({ beavers: true }))).toBe(true);
  });
});
