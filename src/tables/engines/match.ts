/**
 * Matches (R3): the stored setup and state of a match table, its score from the finished
 * games and penalties, the setup of its next game and the stake its end posts. No I/O.
 */
import type { GameSetup, GameState } from '../../domain/game';
import { createMatch, MatchEvent, MatchScore, MatchSetup, nextMatchGameSetup, scoreMatch } from '../../domain/match';
import { matchStakePayouts } from '../../domain/payouts';
import type { SideIndex } from '../../domain/types';
import type { Variant } from '../../domain/variants';
import { distinctPlayers, Engine, Posting, twoSidedGame } from './engine';

/** A penalty as kept in a match's state (R3.6). */
export interface StoredPenalty {
  seq: number;
  side: SideIndex;
  points: number;
  reason: string;
  /** The number of the last game started before it (0: before the first game). */
  afterGameNo: number;
  at: string;
}

/** A player's rating change as a finished match keeps it in its state, for a void to take back (R7.1). */
export interface StoredRatingChange {
  playerId: string;
  /** Signed change at full precision. */
  delta: number;
  /** Experience gained: the match length. */
  experience: number;
}

export interface FinishedGameRow {
  gameNo: number;
  winnerSide: SideIndex;
  points: number;
}

/** A match's `setup` column: sides, length and settings, fixed at creation (R3.1, R3.4, R3.5, R3.7). */
export interface MatchTableSetup {
  sides: [string[], string[]];
  target: number;
  rules: MatchSetup['rules'];
  hasCube: boolean;
  /** R8: the match's variant (absent in rows written before variants: backgammon). */
  variant?: Variant;
}

/** A match's `state` column: its penalties (R3.6) and, once it has finished, the rating changes it made (R7.1). */
export interface MatchTableState {
  penalties?: StoredPenalty[];
  ratings?: StoredRatingChange[];
}

/** The match's history in play order: finished games and penalties (R3.4, R3.6). */
export function matchHistory(games: FinishedGameRow[], penalties: StoredPenalty[]): MatchEvent[] {
  const keyed: Array<{ key: [number, number, number]; event: MatchEvent }> = [
    ...games.map((g) => ({ key: [g.gameNo, 0, 0] as [number, number, number], event: { kind: 'game' as const, winnerSide: g.winnerSide, points: g.points, gameNo: g.gameNo } })),
    ...penalties.map((p) => ({ key: [p.afterGameNo, 1, p.seq] as [number, number, number], event: { kind: 'penalty' as const, side: p.side, points: p.points } })),
  ];
  keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  return keyed.map((k) => k.event);
}

export function matchSetupOf(setup: MatchTableSetup): MatchSetup {
  return { sides: setup.sides, target: setup.target, rules: setup.rules, hasCube: setup.hasCube, variant: setup.variant ?? 'backgammon' };
}

export function scoreOf(setup: MatchTableSetup, games: FinishedGameRow[], penalties: StoredPenalty[]): MatchScore {
  return scoreMatch(matchSetupOf(setup), matchHistory(games, penalties));
}

/** R3.1–R3.8, R8: validates a new match; the domain refuses with the rule id. */
export function newMatchSetup(input: { sides: string[][]; target?: number; rules?: Record<string, unknown>; variant?: Variant }): MatchTableSetup {
  const m = createMatch({ sides: input.sides, target: input.target, rules: input.rules ?? null, variant: input.variant ?? 'backgammon' });
  return { sides: [[...m.sides[0]], [...m.sides[1]]], target: m.target, rules: m.rules, hasCube: m.hasCube, variant: m.variant ?? 'backgammon' };
}

/**
 * The setup of the next match game, from the score (Crawford R3.4, dead cube R3.5, no
 * game after the end R3.2) and, for a Tavli match, its count of finished games (R8.5).
 */
export function nextMatchGame(setup: MatchTableSetup, score: MatchScore, finishedGames = 0): GameSetup {
  return nextMatchGameSetup(matchSetupOf(setup), score, finishedGames);
}

/** R3.8: the match's stake, paid by the losing side to the winning side when it ends. */
export function matchStakePostings(setup: MatchTableSetup, winnerSide: SideIndex, stakeMinor: number | null): Posting[] {
  if (!stakeMinor) return [];
  return matchStakePayouts(setup.sides, winnerSide, stakeMinor).map((p) => ({ ...p, kind: 'match-stake' as const }));
}

/** Who plays a match's games: both sides. */
export function matchPlayers(setup: MatchTableSetup): string[] {
  return distinctPlayers(setup.sides.flat());
}

export const matchEngine: Engine<MatchTableSetup, GameSetup, GameState> = {
  ...twoSidedGame,
  players: (table) => matchPlayers(table),
};

/** The penalties kept in a match's state (R3.6), in the order they were given. */
export function penaltiesOf(t: { state: MatchTableState }): StoredPenalty[] {
  return t.state.penalties ?? [];
}

/** The rating changes a finished match applied (R7.1), to be taken back by a void. */
export function ratingsOf(t: { state: MatchTableState }): StoredRatingChange[] {
  return t.state.ratings ?? [];
}
