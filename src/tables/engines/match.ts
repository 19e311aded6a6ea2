/**
 * Matches (R3): the stored setup and state of a match table, its score from the finished
 * games and penalties, the setup of its next game and the stake its end posts. No I/O.
 */
import type { GameSetup, GameState } from '../../domain/game';
import { createMatch, ForfeitReason, latestMatchResult, MatchEvent, MatchResultRef, MatchScore, MatchSetup, nextMatchGameSetup, scoreMatch } from '../../domain/match';
import { matchStakePayouts } from '../../domain/payouts';
import type { SideIndex } from '../../domain/types';
import type { Variant } from '../../domain/variants';
import { distinctPlayers, Engine, Posting, twoSidedGame } from './engine';

/** Who voided a penalty or a forfeit, when and why (R6.3, R3.6, R3.9). */
export interface StoredVoid {
  at: string;
  reason: string;
  /** The API key that voided it. */
  by: string;
}

/** A penalty as kept in a match's state (R3.6). */
export interface StoredPenalty {
  seq: number;
  side: SideIndex;
  points: number;
  reason: string;
  /** The number of the last game started before it (0: before the first game). */
  afterGameNo: number;
  at: string;
  /** Set once voided (R3.6): it then counts for nothing. */
  voided?: StoredVoid;
}

/** A forfeit as kept in a match's state (R3.9); a voided one stays, marked, for the record. */
export interface StoredForfeit {
  seq: number;
  /** The side that forfeited. */
  side: SideIndex;
  reason: ForfeitReason;
  note: string | null;
  /** The number of the last game started before it (0: before the first game). */
  afterGameNo: number;
  /** The game in progress it closed as abandoned, if any. */
  abandonedGameNo: number | null;
  at: string;
  voided?: StoredVoid;
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
  /** When the match is due to start (RFC 3339, kept in UTC); absent when not given. */
  scheduledAt?: string;
  /** R9.5: the tournament pairing the match plays, when a tournament created it. */
  tournament?: MatchTournamentRef;
}

/** Where a tournament's match sits in its draw (R9.5): the flight, its bracket, the round and the pairing. */
export interface MatchTournamentRef {
  id: string;
  flight: string;
  bracket: 'main' | 'consolation';
  round: number;
  pairing: number;
}

/**
 * A match's `state` column: its penalties (R3.6) and forfeits (R3.9), voided ones kept and
 * marked, and, once it has finished, the rating changes it made (R7.1).
 */
export interface MatchTableState {
  penalties?: StoredPenalty[];
  forfeits?: StoredForfeit[];
  ratings?: StoredRatingChange[];
}

/** The penalties that stand (not voided), in the order they were given (R3.6). */
export function standingPenalties(state: MatchTableState): StoredPenalty[] {
  return (state.penalties ?? []).filter((p) => !p.voided);
}

/** The forfeit that stands (R3.9): the last one, unless it was voided. */
export function standingForfeit(state: MatchTableState): StoredForfeit | null {
  const all = state.forfeits ?? [];
  const last = all.length ? all[all.length - 1] : null;
  return last && !last.voided ? last : null;
}

/** The match's history in play order: finished games and the penalties that stand, then a standing forfeit, which ends it (R3.4, R3.6, R3.9). */
export function matchHistory(games: FinishedGameRow[], state: MatchTableState): MatchEvent[] {
  const keyed: Array<{ key: [number, number, number]; event: MatchEvent }> = [
    ...games.map((g) => ({ key: [g.gameNo, 0, 0] as [number, number, number], event: { kind: 'game' as const, winnerSide: g.winnerSide, points: g.points, gameNo: g.gameNo } })),
    ...standingPenalties(state).map((p) => ({ key: [p.afterGameNo, 1, p.seq] as [number, number, number], event: { kind: 'penalty' as const, side: p.side, points: p.points } })),
  ];
  keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  const history = keyed.map((k) => k.event);
  const forfeit = standingForfeit(state);
  return forfeit ? [...history, { kind: 'forfeit', side: forfeit.side, reason: forfeit.reason }] : history;
}

/** R6.3, R3.6, R3.9: the match's most recent result, given its latest finished game. */
export function latestResultOf(state: MatchTableState, latestFinishedGameNo: number | null): MatchResultRef | null {
  return latestMatchResult(latestFinishedGameNo, standingPenalties(state), standingForfeit(state));
}

export function matchSetupOf(setup: MatchTableSetup): MatchSetup {
  return { sides: setup.sides, target: setup.target, rules: setup.rules, hasCube: setup.hasCube, variant: setup.variant ?? 'backgammon' };
}

/** The match's score from its finished games and its state's penalties and forfeit (R3.2–R3.6, R3.9). */
export function scoreOf(setup: MatchTableSetup, games: FinishedGameRow[], state: MatchTableState): MatchScore {
  return scoreMatch(matchSetupOf(setup), matchHistory(games, state));
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

/** The penalties kept in a match's state (R3.6), in the order they were given, voided ones too. */
export function penaltiesOf(t: { state: MatchTableState }): StoredPenalty[] {
  return t.state.penalties ?? [];
}

/** The rating changes a finished match applied (R7.1), to be taken back by a void. */
export function ratingsOf(t: { state: MatchTableState }): StoredRatingChange[] {
  return t.state.ratings ?? [];
}
