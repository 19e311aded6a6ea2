import fc from 'fast-check';
import { RuleViolation } from './errors';
import { applyAction, GameAction, GameSetup, newGame, replay } from './game';
import { createMatch, nextMatchGameSetup, scoreMatch } from './match';
import { assertMoneyTableOpen, createMoneyTable, leadReached, moneyGameSetup, pointsTotals } from './money-game';
import { expectRefusal } from './test-helpers';
import {
  GAME_VARIANTS,
  gameVariantAt,
  GameVariant,
  RESULTS_OF,
  resultValue,
  VARIANT_RESULTS,
  VARIANT_SETTINGS,
  Variant,
  VariantResult,
  VARIANTS,
  variantHasCube,
  variantHasSetting,
  type VariantSetting,
} from './variants';

const A = 'alice';
const B = 'bob';

function money(variant: Variant, rules: Record<string, unknown> = {}, finished = 0): GameSetup {
  return moneyGameSetup(createMoneyTable({ players: [A, B], stakeMinor: 100, rules, variant }), finished);
}

function matchGame(variant: Variant, target: number, rules: Record<string, unknown> = {}): GameSetup {
  const m = createMatch({ sides: [[A], [B]], target, rules, variant });
  return nextMatchGameSetup(m, scoreMatch(m, []));
}

const fin = (result: VariantResult | undefined, extra: Record<string, unknown> = {}): GameAction => ({ type: 'finish', winner: A, ...(result ? { result } : {}), ...extra });

describe('R8.1 long nardy', () => {
  it('R8.1 an oin is 1 point, a mars 2, without a cube', () => {
    expect(replay(money('long-nardy'), [fin('oin')]).points).toBe(1);
    expect(replay(money('long-nardy'), [fin('mars')]).points).toBe(2);
    expect(replay(money('long-nardy'), [fin('mars', { resigned: true })]).result).toEqual({ winner: A, result: 'mars', resigned: true });
  });

  it('R8.1 with the cube: points = cube × result (a mars on a cube of 2 is 4)', () => {
    const g = replay(matchGame('long-nardy', 5, { cube: true }), [{ type: 'double', by: B }, { type: 'take', by: A }, fin('mars')]);
    expect(g.points).toBe(4);
  });

  it('R8.1 Jacoby counts a mars as an oin while the cube is centred, not once it is owned', () => {
    expect(replay(money('long-nardy', { cube: true }), [fin('mars')]).points).toBe(1);
    expect(replay(money('long-nardy', { cube: true, jacoby: false }), [fin('mars')]).points).toBe(2);
    expect(replay(money('long-nardy', { cube: true }), [{ type: 'double', by: B }, { type: 'take', by: A }, fin('mars')]).points).toBe(4);
  });

  it('R8.1 Crawford applies in a long nardy match with the cube, not without it', () => {
    const withCube = createMatch({ sides: [[A], [B]], target: 3, variant: 'long-nardy', rules: { cube: true } });
    const s = scoreMatch(withCube, [{ kind: 'game', winnerSide: 0, points: 2 }]);
    expect(s.nextGame?.crawford).toBe(true);
    const withoutCube = createMatch({ sides: [[A], [B]], target: 3, variant: 'long-nardy' });
    const t = scoreMatch(withoutCube, [{ kind: 'game', winnerSide: 0, points: 2 }]);
    expect(t.nextGame?.crawford).toBe(false);
    expect(t.crawfordGameIndex).toBeNull();
  });

  it('R8.10 a gammon in long nardy is refused naming the variant', () => {
    const e = expectRefusal(() => replay(money('long-nardy'), [fin('gammon')]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
    expect(e.message).toMatch(/Long nardy/);
  });

  it('R8.10 a double without the cube is refused naming the variant', () => {
    const e = expectRefusal(() => applyAction(money('long-nardy'), newGame(money('long-nardy')), { type: 'double', by: A }), 'NO_CUBE_IN_VARIANT', 'R8.10');
    expect(e.message).toMatch(/long nardy/);
  });
});

describe('R8.2–R8.4 Portes, Plakoto, Fevga', () => {
  it.each(['portes', 'plakoto', 'fevga'] as const)('R8.2–R8.4 %s: single 1, gammon 2, no backgammon, no cube', (v) => {
    expect(replay(money(v), [fin('single')]).points).toBe(1);
    expect(replay(money(v), [fin('gammon')]).points).toBe(2);
    expectRefusal(() => replay(money(v), [fin('backgammon')]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => replay(money(v), [{ type: 'double', by: A }]), 'NO_CUBE_IN_VARIANT', 'R8.10');
  });

  it('R8.3 a Plakoto mother is 2 points', () => {
    expect(replay(money('plakoto'), [fin('mother')])).toMatchObject({ points: 2, winnerSide: 0 });
    expectRefusal(() => replay(money('portes'), [fin('mother')]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
  });

  it('R8.3 a Plakoto draw has no winner, scores 0 and settles nothing', () => {
    const g = replay(money('plakoto'), [{ type: 'finish', result: 'draw' }]);
    expect(g).toMatchObject({ status: 'finished', winnerSide: null, points: 0, settlement: [] });
    expect(g.result).toEqual({ result: 'draw', resigned: false });
    expectRefusal(() => replay(money('plakoto'), [fin('draw')]), 'INVALID_RESULT', 'R8.3');
    expectRefusal(() => replay(money('plakoto'), [{ type: 'finish', result: 'draw', resigned: true }]), 'INVALID_RESULT', 'R8.7');
    expectRefusal(() => replay(money('fevga'), [{ type: 'finish', result: 'draw' }]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
  });
});

describe('R8.5 Tavli cycle', () => {
  it('R8.5 k mod 3: Portes, Plakoto, Fevga, Portes …', () => {
    expect([0, 1, 2, 3, 4, 5].map((k) => gameVariantAt('tavli', k))).toEqual(['portes', 'plakoto', 'fevga', 'portes', 'plakoto', 'fevga']);
    expect(gameVariantAt('portes', 4)).toBe('portes');
    expect(money('tavli', {}, 4).variant).toBe('plakoto');
  });
});

describe('R8.6 Tavla 31', () => {
  it('R8.6 the winner scores checkersLeft', () => {
    const g = replay(money('tavla-31'), [{ type: 'finish', winner: B, checkersLeft: 7 }]);
    expect(g).toMatchObject({ points: 7, winnerSide: 1 });
    expect(g.result).toEqual({ winner: B, result: 'single', resigned: false, checkersLeft: 7 });
  });

  it('R8.6 checkersLeft is 1 to 15 and needed; R8.10 not elsewhere', () => {
    expectRefusal(() => replay(money('tavla-31'), [fin(undefined, { checkersLeft: 16 })]), 'INVALID_RESULT', 'R8.6');
    expectRefusal(() => replay(money('tavla-31'), [fin(undefined, { checkersLeft: 0 })]), 'INVALID_RESULT', 'R8.6');
    // R8.10: Tavla 31 has no result at all, so naming one is refused even with the checkers left.
    expectRefusal(() => replay(money('tavla-31'), [fin('single', { checkersLeft: 3 })]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
    expect(replay(money('tavla-31'), [fin(undefined, { checkersLeft: 3 })]).points).toBe(3);
    expectRefusal(() => replay(money('tavla-31'), [fin('single')]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => replay(money('tavla-31'), [fin(undefined)]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => replay(money('portes'), [fin(undefined)]), 'INVALID_RESULT', 'R1.1');
    expectRefusal(() => replay(money('tavla-31'), [fin('gammon', { checkersLeft: 3 })]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => replay(money('backgammon'), [fin('single', { checkersLeft: 3 })]), 'RESULT_NOT_IN_VARIANT', 'R8.10');
  });
});

describe('R8.7 targets', () => {
  it('R8.7 a variant match takes any target 1–63; Tavla 31 1–255, default 31', () => {
    expect(createMatch({ sides: [[A], [B]], target: 4, variant: 'portes' }).target).toBe(4);
    expect(createMatch({ sides: [[A], [B]], target: undefined, variant: 'tavla-31' }).target).toBe(31);
    expect(createMatch({ sides: [[A], [B]], target: 255, variant: 'tavla-31' }).target).toBe(255);
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 64, variant: 'fevga' }), 'TARGET_OUT_OF_RANGE', 'R8.7');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 256, variant: 'tavla-31' }), 'TARGET_OUT_OF_RANGE', 'R8.7');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: undefined, variant: 'tavli' }), 'INVALID_TARGET', 'R8.7');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 4, variant: 'backgammon' }), 'TARGET_EVEN', 'R3.1');
  });
});

describe('R8.10 settings the variant lacks', () => {
  it('R8.10 refused switched on, naming the variant', () => {
    const e = expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 1, variant: 'fevga', rules: { jacoby: true } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expect(e.message).toMatch(/Fevga/);
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'portes', rules: { cube: true } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'backgammon', rules: { cube: true } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'tavli', rules: { crawford: true } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 1, variant: 'long-nardy', rules: { beavers: true } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 1, variant: 'tavla-31', rules: { automaticDoubles: 1 } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
  });

  it('R8.10 accepted switched off, and ignored', () => {
    const t = createMoneyTable({ players: [A, B], stakeMinor: 1, variant: 'fevga', rules: { jacoby: false, beavers: false, automaticDoubles: 0, cube: false } });
    expect(t.rules).toMatchObject({ jacoby: false, beavers: false, raccoons: false, automaticDoubles: 0 });
    const m = createMatch({ sides: [[A], [B]], target: 5, variant: 'plakoto', rules: { crawford: false, cube: null } as never });
    expect(m.rules.crawford).toBe(false);
    expect(m.hasCube).toBe(false);
  });

  it('R2.8 still holds in a long nardy match with the cube; R4.3 money settings are allowed', () => {
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'long-nardy', rules: { cube: true, beavers: true } }), 'MONEY_ONLY_SETTING', 'R2.8');
    expect(createMoneyTable({ players: [A, B], stakeMinor: 1, variant: 'long-nardy', rules: { cube: true, beavers: true } }).rules).toMatchObject({
      cube: true,
      beavers: true,
      jacoby: true,
    });
  });
});

describe('R4.4 stop at a lead', () => {
  it('R4.4 a lead of at least stopAtLead finishes the table', () => {
    expect(
      pointsTotals([
        { winnerSide: 0, points: 3 },
        { winnerSide: null, points: 0 },
        { winnerSide: 1, points: 1 },
      ]),
    ).toEqual([3, 1]);
    expect(leadReached(2, [3, 1])).toBe(true);
    expect(leadReached(3, [3, 1])).toBe(false);
    expect(leadReached(null, [30, 0])).toBe(false);
    expectRefusal(() => assertMoneyTableOpen('finished', 5), 'TABLE_FINISHED', 'R4.4');
  });

  it('R4.4 stopAtLead is a whole number from 1, or null', () => {
    expect(createMoneyTable({ players: [A, B], stakeMinor: 1, rules: { stopAtLead: 5 } }).rules.stopAtLead).toBe(5);
    expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 1, rules: { stopAtLead: 0 } }), 'INVALID_SETTING', 'R4.4');
  });
});

describe('R8 properties', () => {
  const variant = fc.constantFrom<GameVariant>(...GAME_VARIANTS);
  const result = fc.constantFrom<VariantResult>(...VARIANT_RESULTS);

  it('R8.10 no variant can score a result it does not have', () => {
    fc.assert(
      fc.property(variant, result, fc.integer({ min: 1, max: 15 }), (v, r, n) => {
        const setup = money(v, v === 'backgammon' ? { jacoby: false } : {});
        const action: GameAction = r === 'draw' ? { type: 'finish', result: r } : { type: 'finish', winner: A, result: r, ...(v === 'tavla-31' ? { checkersLeft: n } : {}) };
        let scored: number | null = null;
        try {
          scored = replay(setup, [action]).points;
        } catch (e) {
          if (!(e instanceof RuleViolation)) throw e;
          expect(e.code).toBe('RESULT_NOT_IN_VARIANT');
        }
        // R8.10: a Tavla 31 finish names no result (its checkers left alone score it).
        if (RESULTS_OF[v].includes(r) && v !== 'tavla-31') {
          expect(scored).toBe(resultValue(v, r, 3));
        } else {
          expect(scored).toBeNull();
        }
      }),
    );
  });

  it('R8.1–R8.6 only backgammon and long nardy with the cube take a double', () => {
    fc.assert(
      fc.property(variant, fc.boolean(), (v, cube) => {
        const rules = v === 'long-nardy' ? { cube } : {};
        const setup = money(v, rules);
        const doubling = () => applyAction(setup, newGame(setup), { type: 'double', by: A });
        if (variantHasCube(v, cube)) {
          expect(doubling().cubes[0].pending?.value).toBe(2);
        } else {
          expectRefusal(doubling, 'NO_CUBE_IN_VARIANT', 'R8.10');
        }
      }),
    );
  });
});

describe('R8.10 the settings a variant has, at every route that takes them', () => {
  const ON: Record<VariantSetting, unknown[]> = {
    jacoby: [true],
    beavers: [true],
    raccoons: [true],
    automaticDoubles: [1],
    crawford: [true],
    deadCube: ['allow', 'refuse'],
    cubeLimit: [8],
    backgammonMultiplier: [2],
    evenTarget: [true],
    motherPoints: [3],
  };
  const OFF = [false, 0, null];
  /** The settings each kind of table takes at all (the others are unknown to it: R4.3, R2.8). */
  const OF_KIND: Record<'match' | 'money', readonly VariantSetting[]> = {
    match: VARIANT_SETTINGS,
    money: ['jacoby', 'beavers', 'raccoons', 'automaticDoubles', 'cubeLimit', 'backgammonMultiplier', 'motherPoints'],
  };
  const create = (kind: 'match' | 'money', variant: Variant, rules: Record<string, unknown>) =>
    kind === 'match' ? createMatch({ sides: [[A], [B]], target: 5, variant, rules }) : createMoneyTable({ players: [A, B], stakeMinor: 100, variant, rules });
  const refusal = (f: () => unknown): RuleViolation | null => {
    try {
      f();
      return null;
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      return e;
    }
  };

  it('R8.10 every variant × kind × setting × value: a lacked setting is refused switched on, naming the variant, and accepted switched off', () => {
    let checked = 0;
    for (const variant of VARIANTS) {
      for (const cube of variant === 'long-nardy' ? [false, true] : [false]) {
        for (const kind of ['match', 'money'] as const) {
          for (const setting of OF_KIND[kind]) {
            const lacked = !variantHasSetting(variant, setting, cube);
            for (const value of [...ON[setting], ...OFF]) {
              const rules = { ...(cube ? { cube: true } : {}), [setting]: value };
              const e = refusal(() => create(kind, variant, rules));
              const on = !OFF.includes(value as never);
              if (lacked && on) {
                expect({ variant, kind, setting, value, code: e?.code, rule: e?.rule }).toEqual({ variant, kind, setting, value, code: 'SETTING_NOT_IN_VARIANT', rule: 'R8.10' });
                expect(e?.details).toMatchObject({ setting, variant });
              } else {
                // Not refused for the variant: what the table has is judged by its own rules (R2.8, R3.1, R4.3), a lacked one sent off is ignored.
                expect({ variant, kind, setting, value, code: e?.code === 'SETTING_NOT_IN_VARIANT' ? e.code : null }).toEqual({ variant, kind, setting, value, code: null });
                if (lacked) expect(e).toBeNull();
              }
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('R8.10 the requests seen accepted before are refused', () => {
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'long-nardy', rules: { cube: true, backgammonMultiplier: 2 } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 100, variant: 'long-nardy', rules: { cube: true, backgammonMultiplier: 2 } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'portes', rules: { deadCube: 'allow' } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    for (const v of ['portes', 'plakoto', 'fevga', 'tavli', 'tavla-31', 'long-nardy'] as const) {
      expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 100, variant: v, rules: { cubeLimit: 16 } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
      expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: v, rules: { deadCube: 'refuse' } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
    }
  });
});

describe('R3.1 evenTarget', () => {
  it('R3.1 admits an even target in a backgammon match, with its Crawford game at target − 1', () => {
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 4 }), 'TARGET_EVEN', 'R3.1');
    const m = createMatch({ sides: [[A], [B]], target: 4, rules: { evenTarget: true } });
    expect(m).toMatchObject({ target: 4, rules: { evenTarget: true, crawford: true } });
    // 3-0 after a gammon and a single: the next game is the Crawford game (R3.4).
    const score = scoreMatch(m, [
      { kind: 'game', winnerSide: 0, points: 2 },
      { kind: 'game', winnerSide: 0, points: 1 },
    ]);
    expect(score).toMatchObject({ score: [3, 0], status: 'in-progress', crawfordGameIndex: 2 });
    expect(createMatch({ sides: [[A], [B]], target: 5, rules: { evenTarget: false } }).rules).not.toHaveProperty('evenTarget');
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 64, rules: { evenTarget: true } }), 'TARGET_OUT_OF_RANGE', 'R3.1');
  });
});

describe('R8.3 motherPoints', () => {
  it('R8.3 a mother win is worth the table’s motherPoints (1 to 3, 2 unless set), at Plakoto and Tavli tables', () => {
    const plakoto = (rules: Record<string, unknown>) => moneyGameSetup(createMoneyTable({ players: [A, B], stakeMinor: 100, variant: 'plakoto', rules }));
    expect(replay(plakoto({}), [fin('mother')]).points).toBe(2);
    expect(replay(plakoto({ motherPoints: 3 }), [fin('mother')]).points).toBe(3);
    expect(replay(plakoto({ motherPoints: 1 }), [fin('mother')]).points).toBe(1);
    // A gammon is still 2 whatever the mother is worth.
    expect(replay(plakoto({ motherPoints: 3 }), [fin('gammon')]).points).toBe(2);
    expect(createMatch({ sides: [[A], [B]], target: 7, variant: 'tavli', rules: { motherPoints: 3 } }).rules).toMatchObject({ motherPoints: 3 });
    for (const bad of [0, 4, 2.5, '3']) {
      expectRefusal(() => createMoneyTable({ players: [A, B], stakeMinor: 100, variant: 'plakoto', rules: { motherPoints: bad as number } }), 'INVALID_SETTING', 'R8.3');
    }
    expectRefusal(() => createMatch({ sides: [[A], [B]], target: 5, variant: 'portes', rules: { motherPoints: 3 } }), 'SETTING_NOT_IN_VARIANT', 'R8.10');
  });
});
