/**
 * The variants' names as the storage and the API spell them (R8), for the readers of
 * finished games: ratings, statistics, standings and exports.
 *
 * Pure. A table's `setup.variant` (match and money tables) and a game's
 * `setup.variant` (the game's own variant; in `tavli` one of portes, plakoto, fevga)
 * are absent in rows written before variants existed: they are backgammon.
 */

import { GAME_VARIANTS, GameVariant, isGameVariant, isVariant, Variant, VARIANT_RESULTS, VARIANTS, VariantResult } from './variants';

/** Every variant a match or money table may carry (R8): the names of variants.ts. */
export const VARIANT_NAMES = VARIANTS;
export type VariantName = Variant;

/** A game's own variant: never `tavli`, whose games are each Portes, Plakoto or Fevga (R8.5). */
export const GAME_VARIANT_NAMES = GAME_VARIANTS;
export type GameVariantName = GameVariant;

/** Every result a finished game may carry (R1.1, R8.1–R8.6). */
export const RESULT_NAMES = VARIANT_RESULTS;
export type ResultName = VariantResult;

export const BACKGAMMON = 'backgammon';

/** The variant a setup JSON names (a table's or a game's): backgammon when it names none or one this build does not know. */
export function variantOfSetup(setup: unknown): VariantName {
  if (typeof setup !== 'object' || setup === null || !('variant' in setup)) return BACKGAMMON;
  const v = (setup as { variant?: unknown }).variant;
  return isVariant(v) ? v : BACKGAMMON;
}

/** A game's own variant from its stored name (null or absent: backgammon). */
export function gameVariantOf(name: string | null | undefined): GameVariantName {
  return isGameVariant(name) ? name : BACKGAMMON;
}

/**
 * Whether a setup JSON (a table's or a game's) is backgammon's: it names no variant
 * (a row from before variants) or names `backgammon`. Any other name, known or not,
 * is not: what only backgammon has (ratings, the .mat export, R8.9) stays off.
 */
export function isBackgammonSetup(setup: unknown): boolean {
  if (typeof setup !== 'object' || setup === null) return true;
  const v = (setup as { variant?: unknown }).variant;
  return v === undefined || v === null || v === BACKGAMMON;
}
