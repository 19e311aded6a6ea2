/**
 * The two sides of a match (R3.7: one player or a pair each) or of a money game
 * (R4.1: two players).
 */
import { refuse } from './errors';
import { PlayerId, Side, SideIndex, TableKind } from './types';

/**
 * Validates the sides of a table: two sides; a side of 1 or 2 distinct players in a
 * match (R3.7), exactly one player each in a money game (R4.1); nobody on both sides.
 * Returns a frozen copy.
 */
export function validateSides(sides: unknown, table: TableKind): readonly [Side, Side] {
  const rule = table === 'match' ? 'R3.7' : 'R4.1';
  const shape = table === 'match' ? 'A match is between two sides of one player or a pair each (R3.7)' : 'A money game is between two players (R4.1)';
  if (!Array.isArray(sides) || sides.length !== 2) {
    refuse('INVALID_SIDES', rule, shape);
  }
  const maxPerSide = table === 'match' ? 2 : 1;
  const seen = new Set<PlayerId>();
  const result: Side[] = [];
  for (const side of sides as unknown[]) {
    if (!Array.isArray(side) || side.length < 1 || side.length > maxPerSide) {
      refuse('INVALID_SIDES', rule, shape);
    }
    for (const player of side as unknown[]) {
      if (typeof player !== 'string' || player.length === 0) {
        refuse('INVALID_SIDES', rule, `${shape}: every player is named by his id`);
      }
      if (seen.has(player)) {
        refuse('DUPLICATE_PLAYER', rule, `Player ${player} is named twice: a player sits on one side only, once (${rule})`, {
          playerId: player,
        });
      }
      seen.add(player);
    }
    result.push(Object.freeze([...(side as PlayerId[])]));
  }
  return Object.freeze([result[0], result[1]] as const);
}

/** The side `player` plays on, or null if he is not at this table. */
export function sideOf(sides: readonly [Side, Side], player: unknown): SideIndex | null {
  if (typeof player !== 'string') return null;
  if (sides[0].includes(player)) return 0;
  if (sides[1].includes(player)) return 1;
  return null;
}
