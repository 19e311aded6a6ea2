/**
 * The games of the nardy family a match or money table may play (R8): which results
 * each variant has and what they score (R8.1–R8.6), whether it has a cube (R8.1), the
 * Tavli cycle (R8.5), targets (R8.7) and the refusals of what a variant lacks (R8.10).
 * Pure: no framework, no I/O.
 */
import { refuse } from './errors';
import type { CubeRules } from './rules';
import type { TableKind } from './types';

/** A table's variant (R8); `tavli` cycles its games through Portes, Plakoto and Fevga (R8.5). */
export const VARIANTS = ['backgammon', 'long-nardy', 'portes', 'plakoto', 'fevga', 'tavli', 'tavla-31'] as const;

export type Variant = (typeof VARIANTS)[number];

/** A game's own variant: a Tavli table's games are each Portes, Plakoto or Fevga. */
export type GameVariant = Exclude<Variant, 'tavli'>;

export const GAME_VARIANTS: readonly GameVariant[] = VARIANTS.filter((v): v is GameVariant => v !== 'tavli');

/** Every way a game of some variant can end (R1.1, R8.1–R8.6). */
export const VARIANT_RESULTS = ['single', 'gammon', 'backgammon', 'oin', 'mars', 'mother', 'draw'] as const;

export type VariantResult = (typeof VARIANT_RESULTS)[number];

/** The results each game variant has (R1.1, R8.1–R8.4, R8.6: Tavla 31 ends `single` with checkersLeft). */
export const RESULTS_OF: Readonly<Record<GameVariant, readonly VariantResult[]>> = {
  backgammon: ['single', 'gammon', 'backgammon'],
  'long-nardy': ['oin', 'mars'],
  portes: ['single', 'gammon'],
  plakoto: ['single', 'gammon', 'mother', 'draw'],
  fevga: ['single', 'gammon'],
  'tavla-31': ['single'],
};

/** The rule that describes each variant. */
export const VARIANT_RULE: Readonly<Record<Variant, string>> = {
  backgammon: 'R1.1',
  'long-nardy': 'R8.1',
  portes: 'R8.2',
  plakoto: 'R8.3',
  fevga: 'R8.4',
  tavli: 'R8.5',
  'tavla-31': 'R8.6',
};

/** The names the refusals use. */
export const VARIANT_NAME: Readonly<Record<Variant, string>> = {
  backgammon: 'Backgammon',
  'long-nardy': 'Long nardy',
  portes: 'Portes',
  plakoto: 'Plakoto',
  fevga: 'Fevga',
  tavli: 'Tavli',
  'tavla-31': 'Tavla 31',
};

/** R8.6: a Tavla 31 game is worth the loser's checkers left on the board, 1 to 15. */
export const MIN_CHECKERS_LEFT = 1;
export const MAX_CHECKERS_LEFT = 15;

/** R8.5: the Tavli cycle. */
const TAVLI_CYCLE: readonly GameVariant[] = ['portes', 'plakoto', 'fevga'];

export function isVariant(v: unknown): v is Variant {
  return typeof v === 'string' && (VARIANTS as readonly string[]).includes(v);
}

export function isVariantResult(v: unknown): v is VariantResult {
  return typeof v === 'string' && (VARIANT_RESULTS as readonly string[]).includes(v);
}

export function isGameVariant(v: unknown): v is GameVariant {
  return typeof v === 'string' && (GAME_VARIANTS as readonly string[]).includes(v);
}

/** A table's variant as sent: absent = backgammon (R8); anything else not a variant is refused. */
export function parseVariant(v: unknown): Variant {
  if (v === undefined || v === null) return 'backgammon';
  if (!isVariant(v)) {
    refuse('INVALID_SETTING', 'R8', `"variant" is one of ${VARIANTS.join(', ')} (R8); got ${JSON.stringify(v) ?? 'nothing'}`, { setting: 'variant' });
  }
  return v;
}

/**
 * R8.5: the variant of a table's next game, k = its finished games so far (draws
 * included, voided and abandoned ones not): a Tavli table plays Portes, Plakoto,
 * Fevga by k mod 3; every other table plays its own variant.
 */
export function gameVariantAt(variant: Variant, finishedBefore: number): GameVariant {
  if (variant !== 'tavli') return variant;
  if (!Number.isSafeInteger(finishedBefore) || finishedBefore < 0) {
    throw new Error(`The count of finished games is a whole number from 0; got ${String(finishedBefore)}`);
  }
  return TAVLI_CYCLE[finishedBefore % 3];
}

/** R8.1–R8.6: whether a game of this variant has a doubling cube (long nardy only with `cube: true`). */
export function variantHasCube(variant: Variant, cubeOn: boolean): boolean {
  if (variant === 'backgammon') return true;
  return variant === 'long-nardy' && cubeOn;
}

/** Whether `result` is a result of this game variant (R8.1–R8.6). */
export function variantHasResult(variant: GameVariant, result: VariantResult): boolean {
  return RESULTS_OF[variant].includes(result);
}

/**
 * R1.1, R1.2, R8.1–R8.6: what a result of the variant is worth before the cube:
 * single 1, gammon 2, backgammon the multiplier (R1.2); oin 1, mars 2 (R8.1); mother 2,
 * draw 0 (R8.3); Tavla 31 the loser's checkers left (R8.6). A result the variant does
 * not have is refused (R8.10).
 */
export function resultValue(variant: GameVariant, result: VariantResult, backgammonMultiplier: 2 | 3 = 3, checkersLeft?: number, motherPoints: number = DEFAULT_MOTHER_POINTS): number {
  assertResultInVariant(variant, result, checkersLeft);
  if (variant === 'tavla-31') return checkersLeft as number;
  switch (result) {
    case 'single':
    case 'oin':
      return 1;
    case 'gammon':
    case 'mars':
      return 2;
    case 'mother':
      // R8.3: the table's `motherPoints`.
      return motherPoints;
    case 'backgammon':
      return backgammonMultiplier;
    case 'draw':
      return 0;
  }
}

/**
 * R8.10: refuses a result the variant does not have, and `checkersLeft` anywhere but in
 * Tavla 31, where it is required and 1 to 15 (R8.6).
 */
export function assertResultInVariant(variant: GameVariant, result: VariantResult, checkersLeft?: number | null): void {
  const name = VARIANT_NAME[variant];
  if (variant === 'tavla-31') {
    if (checkersLeft === undefined || checkersLeft === null) {
      refuse('RESULT_NOT_IN_VARIANT', 'R8.10', `A ${name} game ends with the loser's checkers left on the board, "checkersLeft" 1 to 15 (R8.6, R8.10)`, {
        variant,
      });
    }
    if (!Number.isInteger(checkersLeft) || checkersLeft < MIN_CHECKERS_LEFT || checkersLeft > MAX_CHECKERS_LEFT) {
      refuse('INVALID_RESULT', 'R8.6', `"checkersLeft" is a whole number from ${MIN_CHECKERS_LEFT} to ${MAX_CHECKERS_LEFT} (R8.6); got ${String(checkersLeft)}`, { variant });
    }
  } else if (checkersLeft !== undefined && checkersLeft !== null) {
    refuse('RESULT_NOT_IN_VARIANT', 'R8.10', `"checkersLeft" scores a Tavla 31 game only (R8.6): a ${name} game ends ${listResults(variant)} (R8.10)`, { variant });
  }
  if (!variantHasResult(variant, result)) {
    refuse('RESULT_NOT_IN_VARIANT', 'R8.10', `A ${name} game has no "${result}": it ends ${listResults(variant)} (${VARIANT_RULE[variant]}, R8.10)`, { variant, result });
  }
}

/** R8.10: a double (or an answer to one) in a game that has no cube. */
export function refuseNoCube(variant: GameVariant, what = 'a double'): never {
  const why = variant === 'long-nardy' ? 'this long nardy table plays without the cube (set "cube": true when the table is created)' : `${VARIANT_NAME[variant]} has no doubling cube`;
  refuse('NO_CUBE_IN_VARIANT', 'R8.10', `No cube in this game: ${why}, so ${what} is refused (${VARIANT_RULE[variant]}, R8.10)`, { variant });
}

const MIN_TARGET = 1;
const MAX_VARIANT_TARGET = 63;
const MAX_TAVLA_31_TARGET = 255;
/** R8.6: a Tavla 31 match is played to 31 unless the table says otherwise. */
export const TAVLA_31_DEFAULT_TARGET = 31;

/**
 * R8.7: a variant match's target, any whole number from 1 to 63 (Tavla 31: 1 to 255,
 * default 31). A backgammon match's odd target (R3.1) is checked by the match.
 */
export function validateVariantTarget(variant: Exclude<Variant, 'backgammon'>, target: unknown): number {
  if (variant === 'tavla-31' && target === undefined) return TAVLA_31_DEFAULT_TARGET;
  const max = variant === 'tavla-31' ? MAX_TAVLA_31_TARGET : MAX_VARIANT_TARGET;
  if (typeof target !== 'number' || !Number.isInteger(target)) {
    refuse('INVALID_TARGET', 'R8.7', `A ${VARIANT_NAME[variant]} match's target is a whole number from ${MIN_TARGET} to ${max} (R8.7)`, { target });
  }
  if (target < MIN_TARGET || target > max) {
    refuse('TARGET_OUT_OF_RANGE', 'R8.7', `A ${target}-point ${VARIANT_NAME[variant]} match is out of range: the target is from ${MIN_TARGET} to ${max} (R8.7)`, { target });
  }
  return target;
}

/** R8.10: the settings that belong to the doubling cube, lacked by a table without one. */
export const CUBE_SETTINGS = ['jacoby', 'beavers', 'raccoons', 'automaticDoubles', 'crawford', 'deadCube', 'cubeLimit'] as const;

/** Every setting a variant may lack (R8.10), the cube's and the backgammon-only ones. */
export const VARIANT_SETTINGS = [...CUBE_SETTINGS, 'backgammonMultiplier', 'evenTarget', 'motherPoints'] as const;

/** R8.3: a mother win is worth 2 unless the table says 1 or 3. */
export const DEFAULT_MOTHER_POINTS = 2;
export type VariantSetting = (typeof VARIANT_SETTINGS)[number];

/**
 * R8.10: the one table of which settings a variant's table has, derived from the
 * domain: the cube's settings where it has a cube (backgammon; long nardy with `cube`),
 * `backgammonMultiplier` where there is a backgammon to multiply (backgammon only: no
 * other variant has that result, R8.1–R8.6), and `evenTarget` in a backgammon match (a
 * variant match takes any target already, R8.7).
 */
export function variantHasSetting(variant: Variant, setting: VariantSetting, cubeOn: boolean): boolean {
  if ((CUBE_SETTINGS as readonly string[]).includes(setting)) return variantHasCube(variant, cubeOn);
  // R8.3, R8.5: the mother is Plakoto's, so a Tavli table's too.
  if (setting === 'motherPoints') return variant === 'plakoto' || variant === 'tavli';
  // backgammonMultiplier, evenTarget
  return variant === 'backgammon';
}

/** R8.10, as in R2.8: a lacked setting sent switched off (false, 0 or null) is accepted and ignored. */
export function isSwitchedOff(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === 0;
}

/** Why a lacked setting is not in the variant, for the refusal. */
function lackReason(variant: Variant, setting: VariantSetting): string {
  if (setting === 'backgammonMultiplier') return `${VARIANT_NAME[variant]} has no backgammon to multiply`;
  if (setting === 'motherPoints') return `${VARIANT_NAME[variant]} has no mother win (Plakoto and Tavli have, R8.3)`;
  if (setting === 'evenTarget') return `a ${VARIANT_NAME[variant]} match takes any target from 1 already (R8.7)`;
  return `"${setting}" needs the doubling cube, and ${variant === 'long-nardy' ? 'this long nardy table plays without it (set "cube": true)' : `${VARIANT_NAME[variant]} has none`}`;
}

/** R8.1, R8.10: what a table sends as its variant settings besides the backgammon ones. */
export interface VariantSettings {
  readonly variant: Variant;
  /** R8.1: long nardy with the doubling cube. */
  readonly cube: boolean;
  /** R3.1: a backgammon match that admits an even target. */
  readonly evenTarget: boolean;
  /** R8.3: what a mother win is worth at a Plakoto or Tavli table; null elsewhere. */
  readonly motherPoints: number | null;
}

/**
 * R8.1, R8.10: splits a table's rules into its variant settings (`cube`) and the rest,
 * refusing a setting the variant lacks when it is switched on: `cube: true` outside
 * long nardy, and in a game without a cube Jacoby, beavers, raccoons, automatic
 * doubles and the Crawford rule. Sent switched off (`false`, `0`, `null`) they are
 * accepted and ignored.
 */
export function splitVariantRules(variant: Variant, input: unknown, kind: TableKind = 'money'): { settings: VariantSettings; rest: unknown } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { settings: { variant, cube: false, evenTarget: false, motherPoints: hasMother(variant) ? DEFAULT_MOTHER_POINTS : null }, rest: input };
  }
  const { cube, ...given } = input as Record<string, unknown>;
  // R3.1: `evenTarget` is a match setting; at a money table it is an unknown one (refused by the rules).
  let evenTarget = false;
  const rest: Record<string, unknown> = { ...given };
  if (kind === 'match' && 'evenTarget' in rest) {
    const v = rest.evenTarget;
    if (variant === 'backgammon' && v !== undefined && v !== null && typeof v !== 'boolean') {
      refuse('INVALID_SETTING', 'R3.1', '"evenTarget" must be true or false (R3.1)', { setting: 'evenTarget' });
    }
    evenTarget = v === true;
    delete rest.evenTarget;
  }
  // R8.3: the mother's worth, 1 to 3, at a Plakoto or Tavli table (elsewhere a lacked setting, below).
  let motherPoints: number | null = null;
  if (hasMother(variant)) {
    const v = rest.motherPoints;
    if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 3)) {
      refuse('INVALID_SETTING', 'R8.3', `"motherPoints" is what a mother win is worth: 1, 2 or 3 (R8.3); got ${JSON.stringify(v)}`, { setting: 'motherPoints' });
    }
    motherPoints = typeof v === 'number' ? v : DEFAULT_MOTHER_POINTS;
    delete rest.motherPoints;
  }
  if (cube !== undefined && cube !== null && typeof cube !== 'boolean') {
    refuse('INVALID_SETTING', 'R8.1', '"cube" must be true or false (R8.1)', { setting: 'cube' });
  }
  const cubeOn = cube === true;
  if (cubeOn && variant !== 'long-nardy') {
    refuse('SETTING_NOT_IN_VARIANT', 'R8.10', `"cube" is a long nardy setting (R8.1): ${VARIANT_NAME[variant]} ${variant === 'backgammon' ? 'always has its cube' : 'has no cube'} (R8.10)`, {
      setting: 'cube',
      variant,
    });
  }
  const sent: Record<string, unknown> = { ...rest, ...(kind === 'match' ? { evenTarget: given.evenTarget } : {}), ...('motherPoints' in given ? { motherPoints: given.motherPoints } : {}) };
  for (const key of VARIANT_SETTINGS) {
    if (variantHasSetting(variant, key, cubeOn) || !(key in sent)) continue;
    if (!isSwitchedOff(sent[key])) {
      refuse('SETTING_NOT_IN_VARIANT', 'R8.10', `${lackReason(variant, key)}, so "${key}" is refused (${VARIANT_RULE[variant]}, R8.10)`, { setting: key, variant });
    }
    // Accepted and ignored: the variant's own rules stand (variantRules switches the cube's off).
    delete rest[key];
  }
  return { settings: { variant, cube: cubeOn, evenTarget, motherPoints }, rest };
}

function listResults(variant: GameVariant): string {
  if (variant === 'tavla-31') return 'with "checkersLeft" 1 to 15';
  const names = RESULTS_OF[variant].map((r) => `"${r}"`);
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/**
 * R8.1–R8.6: a table's resolved settings in its variant. Backgammon keeps them as they
 * are; long nardy records `cube`; without a cube every cube setting is off (Jacoby,
 * beavers, raccoons, automatic doubles and, in a match, Crawford: `crawfordGameNo`
 * stays null, R8.1).
 */
export function variantRules<T extends CubeRules & { readonly crawford?: boolean }>(rules: T, settings: VariantSettings): T {
  const resolved = cubelessRules(rules, settings);
  // R8.3: a Plakoto or Tavli table keeps what its mother win is worth.
  return settings.motherPoints === null ? resolved : Object.freeze({ ...resolved, motherPoints: settings.motherPoints });
}

/** R8.3, R8.5: the variants with a mother win. */
function hasMother(variant: Variant): boolean {
  return variant === 'plakoto' || variant === 'tavli';
}

function cubelessRules<T extends CubeRules & { readonly crawford?: boolean }>(rules: T, settings: VariantSettings): T {
  if (settings.variant === 'backgammon') return rules;
  const withCube = settings.variant === 'long-nardy' ? { ...rules, cube: settings.cube } : { ...rules };
  if (variantHasCube(settings.variant, settings.cube)) return Object.freeze(withCube);
  const off: Record<string, unknown> = { ...(withCube as Record<string, unknown>), jacoby: false, beavers: false, raccoons: false, automaticDoubles: 0 };
  if ('crawford' in rules) off.crawford = false;
  return Object.freeze(off) as T;
}
