import type { TableKind as AnyTableKind } from './table-kinds';

/**
 * Shared vocabulary of the cube/game/match domain (docs/rules.md R1–R4).
 * Pure types: no framework, no I/O.
 */

/** A player's id (a UUID in the service; any non-empty string here). */
export type PlayerId = string;

/** Index of a side at a two-sided table (R3.7, R4.1). In a chouette 0 is the box. */
export type SideIndex = 0 | 1;

/** A side is one player or a pair (R3.7); the first-named player comes first. */
export type Side = readonly PlayerId[];

/** R1.1: how a game ended. */
export type ResultKind = 'single' | 'gammon' | 'backgammon';

/** Which kind of two-sided table a game belongs to: some settings are money-only (R2.8). */
export type TableKind = Exclude<AnyTableKind, 'chouette'>;

/** R3.5 setting. */
export type DeadCubeMode = 'refuse' | 'allow';

export function otherSide(side: SideIndex): SideIndex {
  return side === 0 ? 1 : 0;
}
