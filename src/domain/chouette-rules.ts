/**
 * Chouette settings (R5.12): the money cube settings (R1.2, R1.5, R2.2, R2.4,
 * R2.5, R2.7, validated exactly as for a money game, R4.3) plus the chouette's own:
 * the cube model (R5.3) and the box partner (R5.9).
 *
 * Pure: no framework, no I/O.
 */
import { refuse } from './errors';
import { CubeRules, MONEY_DEFAULTS, resolveMoneyRules } from './rules';

/** R5.3: every member has his own cube, or the classic single team cube. */
export type ChouetteCubeMode = 'per-member' | 'single';

export interface ChouetteRules extends CubeRules {
  /** R5.3 */
  readonly cubes: ChouetteCubeMode;
  /** R5.9: seated players from which the box takes a partner; null = never (default). */
  readonly partnerFrom: number | null;
  /** R5.9: the partner's percentage of the box's money for each game, integer 0–100 (default 50). */
  readonly partnerShare: number;
}

export type ChouetteRulesInput = Partial<ChouetteRules>;

/** R5.1: a chouette seats three to twelve players. */
export const CHOUETTE_MIN_PLAYERS = 3;
export const CHOUETTE_MAX_PLAYERS = 12;

/** R5.12 defaults. */
export const CHOUETTE_DEFAULTS: ChouetteRules = Object.freeze({
  ...MONEY_DEFAULTS,
  cubes: 'per-member' as const,
  partnerFrom: null,
  partnerShare: 50,
});

const CHOUETTE_ONLY = ['cubes', 'partnerFrom', 'partnerShare'] as const;

/**
 * R5.12: fills the defaults and validates. The cube settings are checked by the
 * money-game validation (their codes and rule ids: INVALID_CUBE_LIMIT R2.2,
 * RACCOONS_NEED_BEAVERS R2.5, ...); unknown settings are refused here with R5.12.
 * The result is frozen.
 */
export function resolveChouetteRules(input?: ChouetteRulesInput | null): ChouetteRules {
  const given: unknown = input ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    refuse('INVALID_SETTING', 'R5.12', 'The chouette rules must be an object of settings (R5.12)');
  }
  const record = given as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(key in CHOUETTE_DEFAULTS)) {
      refuse('UNKNOWN_SETTING', 'R5.12', `"${key}" is not a setting of a chouette (R5.12)`, { setting: key });
    }
  }
  const cubeInput: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!(CHOUETTE_ONLY as readonly string[]).includes(key)) cubeInput[key] = value;
  }
  const cubeRules = resolveMoneyRules(cubeInput);

  const cubes = record.cubes === undefined ? CHOUETTE_DEFAULTS.cubes : record.cubes;
  if (cubes !== 'per-member' && cubes !== 'single') {
    refuse('INVALID_CUBE_MODE', 'R5.3', `"cubes" is "per-member" (default) or "single" (R5.3); got ${JSON.stringify(cubes)}`, {
      setting: 'cubes',
    });
  }
  const partnerFrom = record.partnerFrom === undefined ? CHOUETTE_DEFAULTS.partnerFrom : record.partnerFrom;
  if (partnerFrom !== null && (typeof partnerFrom !== 'number' || !Number.isInteger(partnerFrom) || partnerFrom < CHOUETTE_MIN_PLAYERS || partnerFrom > CHOUETTE_MAX_PLAYERS)) {
    refuse(
      'INVALID_PARTNER_FROM',
      'R5.9',
      `"partnerFrom" is null (no box partner) or a number of seated players from ${CHOUETTE_MIN_PLAYERS} to ${CHOUETTE_MAX_PLAYERS} (R5.9); got ${JSON.stringify(partnerFrom)}`,
      { setting: 'partnerFrom' },
    );
  }
  const partnerShare = record.partnerShare === undefined ? CHOUETTE_DEFAULTS.partnerShare : record.partnerShare;
  if (typeof partnerShare !== 'number' || !Number.isInteger(partnerShare) || partnerShare < 0 || partnerShare > 100) {
    refuse('INVALID_PARTNER_SHARE', 'R5.9', `"partnerShare" is a whole percentage from 0 to 100 (R5.9, default 50); got ${JSON.stringify(partnerShare)}`, { setting: 'partnerShare' });
  }
  return Object.freeze({ ...cubeRules, cubes, partnerFrom, partnerShare });
}
