import { isBackgammonSetup } from '../domain/game-variants';

/** R7.2, R8.9: whether a match is rated: a backgammon match (a setup naming no variant is one). */
export function isRated(setup: { readonly variant?: string }): boolean {
  return isBackgammonSetup(setup);
}
