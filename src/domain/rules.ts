/**
 * Table settings: defaults and validation (R1.2, R1.5, R2.2, R2.4, R2.5, R2.7,
 * R2.8, R3.4, R3.5, R4.3).
 *
 * `resolveMoneyRules` / `resolveMatchRules` take what a client sent (possibly
 * partial, possibly nothing), fill in the defaults and refuse anything the rules do
 * not allow. The result is a complete, frozen settings object the engine trusts.
 */
import { refuse } from './errors';
import { DeadCubeMode, TableKind } from './types';

/** The cube settings every two-sided game knows. */
export interface CubeRules {
  /** R2.2: highest cube value, a power of two ≥ 2; null = no limit (up to MAX_CUBE_VALUE). */
  readonly cubeLimit: number | null;
  /** R2.4 (money only). */
  readonly beavers: boolean;
  /** R2.5 (money only, needs beavers). */
  readonly raccoons: boolean;
  /** R2.7 (money only): at most this many automatic doubles per game. */
  readonly automaticDoubles: number;
  /** R1.5 (money only). */
  readonly jacoby: boolean;
  /** R1.2: what a backgammon multiplies the cube by. */
  readonly backgammonMultiplier: 2 | 3;
  /** R8.1: a long nardy table plays with the cube (kept at long nardy tables only). */
  readonly cube?: boolean;
  /** R8.3: what a Plakoto mother win is worth, 1 to 3 (kept at Plakoto and Tavli tables only). */
  readonly motherPoints?: number;
}

/** R4.3: a money game's settings; R4.4 `stopAtLead` (kept only where the table was created with it). */
export interface MoneyRules extends CubeRules {
  readonly stopAtLead?: number | null;
}

/** A match's settings: the cube settings (money-only ones off, R2.8) plus R3.4/R3.5. */
export interface MatchRules extends CubeRules {
  readonly crawford: boolean;
  readonly deadCube: DeadCubeMode;
  /** R3.1: kept (true) only on a match created with `evenTarget: true`. */
  readonly evenTarget?: boolean;
}

/** What a client may send: any subset of the settings. */
export type MoneyRulesInput = Partial<MoneyRules>;
export type MatchRulesInput = Partial<MatchRules>;

/** R2.2 default cube limit. */
const DEFAULT_CUBE_LIMIT = 64;

/**
 * The highest cube value the service can record at all, even with `cubeLimit: null`:
 * 2^50, so that a backgammon (× 3) still fits a safe integer (R6.2).
 */
export const MAX_CUBE_VALUE = 2 ** 50;

/** R2.7: the most automatic doubles a table may allow per game (2^6 = 64, the default limit). */
const MAX_AUTOMATIC_DOUBLES = 6;

/** R4.3 defaults. */
export const MONEY_DEFAULTS: MoneyRules = Object.freeze({
  jacoby: true,
  beavers: false,
  raccoons: false,
  automaticDoubles: 0,
  cubeLimit: DEFAULT_CUBE_LIMIT,
  backgammonMultiplier: 3,
});

/** Match defaults: Crawford on (R3.4), dead cube refused (R3.5), no money-only setting (R2.8). */
export const MATCH_DEFAULTS: MatchRules = Object.freeze({
  crawford: true,
  deadCube: 'refuse',
  jacoby: false,
  beavers: false,
  raccoons: false,
  automaticDoubles: 0,
  cubeLimit: DEFAULT_CUBE_LIMIT,
  backgammonMultiplier: 3,
});

/** The rule that governs each setting, cited when its value is refused. */
const SETTING_RULE: Readonly<Record<Exclude<keyof MatchRules, 'cube'>, string>> = {
  cubeLimit: 'R2.2',
  beavers: 'R2.4',
  raccoons: 'R2.5',
  automaticDoubles: 'R2.7',
  jacoby: 'R1.5',
  backgammonMultiplier: 'R1.2',
  crawford: 'R3.4',
  deadCube: 'R3.5',
  evenTarget: 'R3.1',
  motherPoints: 'R8.3',
};

const MONEY_ONLY: readonly (keyof CubeRules)[] = ['beavers', 'raccoons', 'automaticDoubles', 'jacoby'];

/**
 * R2.4/R2.5: how many instant redoubles may follow a double in one exchange:
 * 0 without beavers, 1 (the beaver) with beavers only, 2 (beaver and raccoon) with raccoons.
 */
export function maxInstantRedoubles(rules: Pick<CubeRules, 'beavers' | 'raccoons'>): number {
  if (!rules.beavers) return 0;
  return rules.raccoons ? 2 : 1;
}

/** The highest value the cube may reach in a game under these rules (R2.2). */
export function effectiveCubeLimit(rules: Pick<CubeRules, 'cubeLimit'>): number {
  return rules.cubeLimit === null ? MAX_CUBE_VALUE : Math.min(rules.cubeLimit, MAX_CUBE_VALUE);
}

export function isPowerOfTwo(n: number): boolean {
  if (!Number.isSafeInteger(n) || n < 1) return false;
  let rest = n;
  while (rest % 2 === 0) rest /= 2;
  return rest === 1;
}

/** R4.3: fills the money defaults and validates. */
export function resolveMoneyRules(input?: MoneyRulesInput | null): MoneyRules {
  return resolve('money', input ?? {}, MONEY_DEFAULTS);
}

/**
 * Match settings: fills `{ crawford: true, deadCube: 'refuse' }` and the cube
 * defaults; money-only settings may be sent switched off but not on (R2.8).
 */
export function resolveMatchRules(input?: MatchRulesInput | null): MatchRules {
  return resolve('match', input ?? {}, MATCH_DEFAULTS);
}

function resolve<T extends CubeRules>(kind: TableKind, input: object, defaults: T): T {
  if (typeof input !== 'object' || Array.isArray(input)) {
    refuse('INVALID_SETTING', kind === 'money' ? 'R4.3' : 'R2.8', 'The rules must be an object of settings');
  }
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(key in defaults)) {
      refuse('UNKNOWN_SETTING', kind === 'money' ? 'R4.3' : 'R2.8', `"${key}" is not a setting of a ${kind === 'money' ? 'money game (R4.3)' : 'match (R2.8, R3.4, R3.5)'}`, {
        setting: key,
      });
    }
  }
  const merged: Record<string, unknown> = { ...(defaults as object) };
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined) merged[key] = value;
  }

  for (const key of ['jacoby', 'beavers', 'raccoons', 'crawford'] as const) {
    if (key in merged && typeof merged[key] !== 'boolean') {
      refuse('INVALID_SETTING', SETTING_RULE[key], `"${key}" must be true or false (${SETTING_RULE[key]})`, {
        setting: key,
      });
    }
  }
  if ('deadCube' in merged && merged.deadCube !== 'refuse' && merged.deadCube !== 'allow') {
    refuse('INVALID_SETTING', 'R3.5', 'The dead-cube setting must be "refuse" or "allow" (R3.5)', {
      setting: 'deadCube',
    });
  }

  const limit = merged.cubeLimit;
  if (limit !== null && (typeof limit !== 'number' || !isPowerOfTwo(limit) || limit < 2 || limit > MAX_CUBE_VALUE)) {
    refuse(
      'INVALID_CUBE_LIMIT',
      'R2.2',
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the client's value, whatever its type
      `The cube limit must be a power of two from 2 to 2^50, or null for no limit (R2.2); got ${String(limit)}`,
      { setting: 'cubeLimit' },
    );
  }
  const multiplier = merged.backgammonMultiplier;
  if (multiplier !== 2 && multiplier !== 3) {
    refuse('INVALID_BACKGAMMON_MULTIPLIER', 'R1.2', `A backgammon counts 3 (default) or 2 times the cube (R1.2); got ${String(multiplier)}`, { setting: 'backgammonMultiplier' });
  }
  const autos = merged.automaticDoubles;
  if (typeof autos !== 'number' || !Number.isInteger(autos) || autos < 0 || autos > MAX_AUTOMATIC_DOUBLES) {
    refuse('INVALID_AUTOMATIC_DOUBLES', 'R2.7', `Automatic doubles must be a whole number from 0 (off) to ${MAX_AUTOMATIC_DOUBLES} (R2.7); got ${String(autos)}`, {
      setting: 'automaticDoubles',
    });
  }

  if (kind === 'match') {
    for (const key of MONEY_ONLY) {
      const on = key === 'automaticDoubles' ? merged[key] !== 0 : merged[key] === true;
      if (on) {
        refuse('MONEY_ONLY_SETTING', 'R2.8', `"${key}" is a money-play setting: beavers, raccoons, automatic doubles and Jacoby are refused in match play (R2.8)`, { setting: key });
      }
    }
  }
  if (merged.raccoons === true && merged.beavers !== true) {
    refuse('RACCOONS_NEED_BEAVERS', 'R2.5', 'Raccoons need beavers: switch beavers on to allow raccoons (R2.5)', {
      setting: 'raccoons',
    });
  }
  const startValue = 2 ** autos;
  if (startValue > effectiveCubeLimit({ cubeLimit: limit })) {
    refuse('INVALID_AUTOMATIC_DOUBLES', 'R2.7', `${String(autos)} automatic doubles would start the cube at ${startValue}, above the cube limit of ${String(limit)} (R2.7, R2.2)`, {
      setting: 'automaticDoubles',
    });
  }
  // The defaults' type, with every given setting checked above.
  return Object.freeze({ ...defaults, ...merged });
}
