import { CHOUETTE_DEFAULTS, resolveChouetteRules } from './chouette-rules';
import { expectRefusal } from './test-helpers';

describe('R5.12 chouette settings', () => {
  it('R5.12 defaults: per-member cubes, Jacoby on, beavers/raccoons off, no automatic doubles, limit 64, backgammon × 3, no partner, share 50', () => {
    expect(resolveChouetteRules()).toEqual({
      cubes: 'per-member',
      jacoby: true,
      beavers: false,
      raccoons: false,
      automaticDoubles: 0,
      cubeLimit: 64,
      backgammonMultiplier: 3,
      partnerFrom: null,
      partnerShare: 50,
    });
    expect(resolveChouetteRules(null)).toEqual(CHOUETTE_DEFAULTS);
    expect(resolveChouetteRules({})).toEqual(CHOUETTE_DEFAULTS);
  });

  it('R5.12 accepts every setting switched', () => {
    const r = resolveChouetteRules({
      cubes: 'single',
      jacoby: false,
      beavers: true,
      raccoons: true,
      automaticDoubles: 2,
      cubeLimit: null,
      backgammonMultiplier: 2,
      partnerFrom: 6,
      partnerShare: 30,
    });
    expect(r).toMatchObject({ cubes: 'single', beavers: true, raccoons: true, partnerFrom: 6, partnerShare: 30, cubeLimit: null });
  });

  it('R5.12 resolved rules are frozen and the input is not touched', () => {
    const input = { partnerFrom: 7 };
    const r = resolveChouetteRules(input);
    expect(Object.isFrozen(r)).toBe(true);
    expect(input).toEqual({ partnerFrom: 7 });
  });

  it('R5.12 refuses an unknown setting (e.g. a match setting)', () => {
    expectRefusal(() => resolveChouetteRules({ crawford: true } as never), 'UNKNOWN_SETTING', 'R5.12');
    expectRefusal(() => resolveChouetteRules([] as never), 'INVALID_SETTING', 'R5.12');
  });

  it('R5.3 refuses an unknown cube model', () => {
    expectRefusal(() => resolveChouetteRules({ cubes: 'team' as never }), 'INVALID_CUBE_MODE', 'R5.3');
  });

  it('R5.9 partnerFrom is null or 3–12 seated players', () => {
    for (const bad of [2, 13, 6.5, '6', 0]) {
      expectRefusal(() => resolveChouetteRules({ partnerFrom: bad as never }), 'INVALID_PARTNER_FROM', 'R5.9');
    }
    expect(resolveChouetteRules({ partnerFrom: 3 }).partnerFrom).toBe(3);
    expect(resolveChouetteRules({ partnerFrom: 12 }).partnerFrom).toBe(12);
  });

  it('R5.9 partnerShare is a whole percentage 0–100', () => {
    for (const bad of [-1, 101, 2.5, '50', null]) {
      expectRefusal(() => resolveChouetteRules({ partnerShare: bad as never }), 'INVALID_PARTNER_SHARE', 'R5.9');
    }
    expect(resolveChouetteRules({ partnerShare: 0 }).partnerShare).toBe(0);
    expect(resolveChouetteRules({ partnerShare: 100 }).partnerShare).toBe(100);
  });

  it('R2.2/R2.5/R2.7/R1.2 the cube settings are validated as for money play', () => {
    expectRefusal(() => resolveChouetteRules({ cubeLimit: 3 }), 'INVALID_CUBE_LIMIT', 'R2.2');
    expectRefusal(() => resolveChouetteRules({ raccoons: true }), 'RACCOONS_NEED_BEAVERS', 'R2.5');
    expectRefusal(() => resolveChouetteRules({ automaticDoubles: 7 }), 'INVALID_AUTOMATIC_DOUBLES', 'R2.7');
    expectRefusal(() => resolveChouetteRules({ backgammonMultiplier: 4 as never }), 'INVALID_BACKGAMMON_MULTIPLIER', 'R1.2');
  });
});
