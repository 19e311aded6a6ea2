/**
 * Matches (R3): the stored setup and state of a match table, its score from the finished
 * games and penalties, the setup of its next game and the stake its end posts. No I/O.
 */
import type { GameSetup, GameState } from './game';
import { assertGameIsLatestResult } from './table-commands';
import { createMatch, ForfeitReason, latestMatchResult, matchEndIsRated, MatchEvent, MatchResultRef, MatchScore, MatchSetup, nextMatchGameSetup, scoreMatch } from './match';
import { matchStakePayouts } from './payouts';
import type { SideIndex } from './types';
import type { Variant } from './variants';
import {
  distinctPlayers,
  Engine,
  FinishedGameRow,
  FinishInput,
  GameFinished,
  GameVoided,
  MatchEnding,
  MatchReopening,
  Posting,
  Read,
  reversingEntries,
  TableFacts,
  TableStatus,
  tavliNeedsCount,
  twoSidedGame,
  VoidInput,
} from './table-engine';

export type { FinishedGameRow } from './table-engine';

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

type MatchFacts = TableFacts<MatchTableSetup, MatchTableState>;

/** R3.4, R3.5, R3.2, R8.5: the next game of the match, from its score. */
export function nextMatchTableGame(table: MatchFacts, read: Read): GameSetup {
  return nextMatchGame(table.setup, scoreOf(table.setup, read.history, table.state), read.finishedCount);
}

/**
 * R3.2, R3.9: the end a score makes (null while the match goes on): its winner, its stake
 * (R3.8) and whether it rates its players (R7.1; a forfeit only once a game was finished,
 * `finishedGames` counting draws).
 */
export function endMatch(setup: MatchTableSetup, stakeMinor: number | null, score: MatchScore, finishedGames: number): MatchEnding | null {
  if (score.status !== 'finished' || score.winnerSide === null || score.endedBy === null) return null;
  return { score, winnerSide: score.winnerSide, rated: matchEndIsRated(score.endedBy, finishedGames), postings: matchStakePostings(setup, score.winnerSide, stakeMinor) };
}

/** Whether the end of a match at this score depends on its count of finished games (R3.9: a forfeit's rating); read only then. */
export function endNeedsFinishedCount(score: MatchScore): boolean {
  return score.status === 'finished' && score.endedBy !== null && !matchEndIsRated(score.endedBy, 0);
}

/** R7.1: the match's state once its end rated its players (`applied`: none when it rated nobody), kept for a void to take back. */
export function ratedState(state: MatchTableState, applied: StoredRatingChange[]): MatchTableState {
  return { ...state, ratings: applied };
}

/**
 * R3.2: a finished game's place in its match (R8.3: a draw scores nothing, so it is left
 * out of the history); a score reaching the target ends the match, which pays its stake
 * (R3.8) and rates its players (R7.1).
 */
export function finishMatchGame(input: FinishInput<MatchTableSetup, MatchTableState, GameSetup, GameState>): GameFinished<MatchTableState> {
  const { table, game, state } = input;
  const thisGame: FinishedGameRow[] = state.winnerSide === null ? [] : [{ gameNo: game.gameNo, winnerSide: state.winnerSide, points: state.points as number }];
  const history = [...input.read.history.filter((g) => g.gameNo !== game.gameNo), ...thisGame];
  // A game finished, this one: an end by points or penalties is rated either way.
  const ended = endMatch(table.setup, input.stakeMinor, scoreOf(table.setup, history, table.state), 1);
  return {
    points: state.points,
    winnerSide: state.winnerSide,
    status: ended ? 'finished' : table.status,
    state: table.state,
    postings: ended ? ended.postings : [],
    matchEnded: ended,
  };
}

/**
 * R6.3: the game must be the match's most recent result (R3.6, R3.9); its entries are
 * reversed, and a match it had ended is open again: its rating change taken back (R7.1).
 */
export function voidMatchGame(input: VoidInput<MatchTableSetup, MatchTableState, GameSetup>): GameVoided<MatchTableState> {
  const { table, game } = input;
  assertGameIsLatestResult(game.gameNo, latestResultOf(table.state, input.latestFinishedGameNo));
  const before = input.read.history;
  const after = scoreOf(
    table.setup,
    before.filter((g) => g.gameNo !== game.gameNo),
    table.state,
  );
  const reopened = reopenMatch(table, scoreOf(table.setup, before, table.state), after);
  return { ...reopened, reversing: reversingEntries(input.posted) };
}

/**
 * R6.3, R7.1: a match's status and state once a void has changed its score from `before`
 * to `after`: a finished match that is no longer reopens, its rating changes to take back.
 */
export function reopenMatch(table: MatchFacts, before: MatchScore, after: MatchScore): { status: TableStatus; state: MatchTableState; matchReopened: MatchReopening | null } {
  if (table.status !== 'finished' || after.status === 'finished') return { status: after.status, state: table.state, matchReopened: null };
  return { status: after.status, state: ratedState(table.state, []), matchReopened: { score: after, winnerSide: before.winnerSide, unrate: ratingsOf(table) } };
}

export const matchEngine: Engine<MatchTableSetup, GameSetup, GameState, MatchTableState> = {
  ...twoSidedGame,
  players: (table) => matchPlayers(table),
  needs: {
    next: (table) => ({ history: true, finishedCount: tavliNeedsCount(table.variant) }),
    finish: () => ({ history: true, finishedCount: false }),
    void: () => ({ history: true, finishedCount: false }),
  },
  nextGame: nextMatchTableGame,
  finishGame: finishMatchGame,
  voidGame: voidMatchGame,
};

/** R3.6: the match's state with a penalty added, given after game `afterGameNo`. */
export function addPenalty(state: MatchTableState, penalty: { side: SideIndex; points: number; reason: string }, afterGameNo: number, at: Date): MatchTableState {
  const penalties = state.penalties ?? [];
  const p: StoredPenalty = { seq: penalties.length + 1, side: penalty.side, points: penalty.points, reason: penalty.reason, afterGameNo, at: at.toISOString() };
  return { ...state, penalties: [...penalties, p] };
}

/** R3.9: the match's state with a forfeit added (`abandonedGameNo`: the game in progress it closed). */
export function addForfeit(
  state: MatchTableState,
  forfeit: { side: SideIndex; reason: ForfeitReason; note: string | null },
  afterGameNo: number,
  abandonedGameNo: number | null,
  at: Date,
): MatchTableState {
  const forfeits = state.forfeits ?? [];
  const f: StoredForfeit = { seq: forfeits.length + 1, side: forfeit.side, reason: forfeit.reason, note: forfeit.note, afterGameNo, abandonedGameNo, at: at.toISOString() };
  return { ...state, forfeits: [...forfeits, f] };
}

/** R3.6, R3.9: the match's state with its latest penalty or its forfeit marked voided (it then counts for nothing). */
export function voidPenaltyOrForfeit(state: MatchTableState, latest: Exclude<MatchResultRef, { kind: 'game' }>, voided: StoredVoid): MatchTableState {
  if (latest.kind === 'penalty') return { ...state, penalties: (state.penalties ?? []).map((p) => (p.seq === latest.seq ? { ...p, voided } : p)) };
  return { ...state, forfeits: (state.forfeits ?? []).map((f) => (f.seq === latest.seq ? { ...f, voided } : f)) };
}

/**
 * R3.8, R6.3: the reversal of what a match's stake entries (its entries of no game) still
 * move between parties, less the reversals already posted against them.
 */
export function stakeReversal(entries: ReadonlyArray<{ from: string; to: string; amountMinor: number }>): Posting[] {
  const net = new Map<string, bigint>();
  for (const e of entries) {
    const amount = BigInt(e.amountMinor);
    const [from, to, signed] = e.from < e.to ? [e.from, e.to, amount] : [e.to, e.from, -amount];
    const key = `${from}\u0000${to}`;
    net.set(key, (net.get(key) ?? 0n) + signed);
  }
  const out: Posting[] = [];
  for (const [key, n] of [...net.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [a, b] = key.split('\u0000');
    if (n > 0n) out.push({ from: b, to: a, amountMinor: Number(n), kind: 'void' });
    if (n < 0n) out.push({ from: a, to: b, amountMinor: Number(-n), kind: 'void' });
  }
  return out;
}

/** The penalties kept in a match's state (R3.6), in the order they were given, voided ones too. */
export function penaltiesOf(t: { state: MatchTableState }): StoredPenalty[] {
  return t.state.penalties ?? [];
}

/** The rating changes a finished match applied (R7.1), to be taken back by a void. */
export function ratingsOf(t: { state: MatchTableState }): StoredRatingChange[] {
  return t.state.ratings ?? [];
}
