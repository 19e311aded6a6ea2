/**
 * A game as a log of cube actions and its end (R1, R2; the HTTP contract, "Games and cube
 * actions").
 *
 * A game is played between the box side (party 0) and one or more member cubes
 * (party 1 of each cube). At a match or money table there is exactly one cube,
 * `member: null`, between side 0 and side 1; a chouette (R5.3–R5.6) keeps one cube
 * per team member and reuses the same cube machine (./cube) for each.
 *
 * Everything here is pure: `applyAction` returns a new state or throws a
 * RuleViolation, never touching its input; `replay` rebuilds a game from its log
 * (undo = replay of all but the last action).
 */
import { Actor, answerOffer, CubeContext, CubeState, DoublingPermission, finishCube, offerDouble, startCube } from './cube';
import { refuse } from './errors';
import { assertOfferedByLoser, assertOfferedByShape, assertResignRefusedBy, refuseDrawOffer } from './resignation';
import { CubeRules } from './rules';
import { sideOf, validateSides } from './sides';
import { DeadCubeMode, otherSide, PlayerId, Side, SideIndex, TableKind } from './types';
import { assertResultInVariant, GameVariant, refuseNoCube, resultValue, VARIANT_RESULTS, variantHasCube, VariantResult } from './variants';

/** Match context a game needs for the dead-cube rule (R3.5). */
export interface MatchContext {
  /** Points each side still needs (target − score), indexed by side. */
  readonly pointsToGo: readonly [number, number];
  readonly deadCube: DeadCubeMode;
}

/** Everything a game needs to know about its table, fixed for the whole game. */
export interface GameSetup {
  readonly table: TableKind;
  readonly sides: readonly [Side, Side];
  readonly rules: CubeRules;
  /** 'crawford' in the Crawford game (R3.4), 'one-point-match' in a 1-point match (R3.3). */
  readonly doubling: DoublingPermission;
  /** Match games only (R3.5). */
  readonly match: MatchContext | null;
  /** R8: the game's own variant (absent: backgammon); it fixes its results and whether it has a cube. */
  readonly variant?: GameVariant;
}

export type AnswerType = 'take' | 'pass' | 'beaver' | 'raccoon';

export interface DoubleAction {
  readonly type: 'double';
  readonly by: PlayerId;
  /** Chouette only: the member cubes addressed. Left out elsewhere. */
  readonly cubes?: readonly PlayerId[] | null;
}

export interface AnswerAction {
  readonly type: AnswerType;
  readonly by: PlayerId;
  /** Chouette only: the member cube answered. Left out elsewhere. */
  readonly cube?: PlayerId | null;
}

export interface FinishAction {
  readonly type: 'finish';
  /** Any player of the winning side; left out for a Plakoto draw (R8.3). */
  readonly winner?: PlayerId;
  /** One of the game variant's results (R1.1, R8.1–R8.4); Tavla 31 may leave it out (R8.6). */
  readonly result?: VariantResult;
  /** R1.4 */
  readonly resigned?: boolean;
  /** R3.10: with `resigned`, the player of the losing side who offered the resignation. */
  readonly offeredBy?: PlayerId;
  /** R8.6: Tavla 31 only, the loser's checkers left on the board (1 to 15), the game's points. */
  readonly checkersLeft?: number;
}

/** R3.10: a resignation offered at a level and refused; it changes nothing but the record. */
export interface ResignRefusedAction {
  readonly type: 'resign-refused';
  /** The player who offered it. */
  readonly by: PlayerId;
  /** The level offered, one of the variant's results with a winner; Tavla 31 sends `checkersLeft` instead. */
  readonly result?: VariantResult;
  readonly checkersLeft?: number;
}

export type GameAction = DoubleAction | AnswerAction | FinishAction | ResignRefusedAction;

/** The game's `result` field: how a finished game was ended by a `finish` (null after a pass). */
export interface GameResult {
  /** Absent only for a Plakoto draw (R8.3). */
  readonly winner?: PlayerId;
  readonly result: VariantResult;
  readonly resigned: boolean;
  /** R3.10: who offered the resignation, when the scorer said. */
  readonly offeredBy?: PlayerId;
  /** R8.6: Tavla 31, the points the game scored. */
  readonly checkersLeft?: number;
}

/** Points one party owes another for a game (turned into money by ./payouts). */
export interface PointTransfer {
  readonly from: Side;
  readonly to: Side;
  readonly points: number;
  /** The member cube this is for (chouette); null at a two-sided table. */
  readonly cube: PlayerId | null;
}

export interface GameState {
  readonly status: 'in-progress' | 'finished';
  /** R3.4: this is the Crawford game. */
  readonly crawford: boolean;
  /** R2.7: how many automatic doubles the scorer reported at the start. */
  readonly automaticDoubles: number;
  readonly cubes: readonly CubeState[];
  /** The actions applied so far, as given (normalised). */
  readonly actions: readonly GameAction[];
  /** Set when the game ended by a `finish` (R1.1, R1.4); null after a pass (R1.3). */
  readonly result: GameResult | null;
  readonly endedBy: 'finish' | 'pass' | null;
  readonly winnerSide: SideIndex | null;
  /** What the game was worth to its winner (R1.1–R1.3, R1.5); null while in progress. */
  readonly points: number | null;
  /** Who owes whom how many points; empty while in progress. */
  readonly settlement: readonly PointTransfer[];
}

const ANSWERS: readonly string[] = ['take', 'pass', 'beaver', 'raccoon'];
const RESULTS: readonly string[] = VARIANT_RESULTS;

/** R8: the game's own variant. */
function variantOf(setup: GameSetup): GameVariant {
  return setup.variant ?? 'backgammon';
}

/** R8.1–R8.6: whether this game has a doubling cube (backgammon; long nardy with `cube: true`). */
export function gameHasCube(setup: GameSetup): boolean {
  return variantHasCube(variantOf(setup), setup.rules.cube === true);
}

/** R2.1/R2.7: a new game; `automaticDoubles` is what the scorer reports for the opening roll. */
export function newGame(setup: GameSetup, automaticDoubles = 0): GameState {
  validateSides(setup.sides, setup.table);
  if (automaticDoubles !== 0 && !gameHasCube(setup)) {
    refuseNoCube(variantOf(setup), 'an automatic double');
  }
  const cube = startCube(null, automaticDoubles, cubeContext(setup));
  return {
    status: 'in-progress',
    crawford: setup.doubling === 'crawford',
    automaticDoubles,
    cubes: [cube],
    actions: [],
    result: null,
    endedBy: null,
    winnerSide: null,
    points: null,
    settlement: [],
  };
}

/** Applies one action. Pure: returns the next state or throws a RuleViolation. */
export function applyAction(setup: GameSetup, state: GameState, action: GameAction): GameState {
  if (variantOf(setup) === 'tavla-31' && typeof action === 'object' && action !== null && (action.type === 'finish' || action.type === 'resign-refused') && action.result !== undefined) {
    // R8.6, R8.10: a Tavla 31 game has no result to name; it ends by the checkers left alone.
    refuse('RESULT_NOT_IN_VARIANT', 'R8.10', `A Tavla 31 game has no "result": it ends with the loser's checkers left, "checkersLeft" 1 to 15 alone (R8.6, R8.10)`, {
      variant: 'tavla-31',
      result: action.result,
    });
  }
  const normalised = normaliseAction(action);
  if (state.status === 'finished') {
    refuseFinished(state, normalised);
  }
  const ctx = cubeContext(setup);
  const cube = state.cubes[0];
  const recorded = [...state.actions, normalised];
  if (normalised.type !== 'finish' && normalised.type !== 'resign-refused' && !gameHasCube(setup)) {
    // R8.10: no double, and so nothing to answer, in a game without a cube.
    refuseNoCube(variantOf(setup), normalised.type === 'double' ? 'a double' : `a ${normalised.type}`);
  }

  switch (normalised.type) {
    case 'resign-refused': {
      // R3.10: recorded, nothing else changes; the offer is at a level the variant has (R8.10).
      actorOf(setup, normalised.by);
      if (normalised.result === 'draw') refuseDrawOffer();
      if (normalised.result === undefined) refuseMissingResult(variantOf(setup));
      resultValue(variantOf(setup), normalised.result, setup.rules.backgammonMultiplier, normalised.checkersLeft, setup.rules.motherPoints);
      return { ...state, actions: recorded };
    }
    case 'double': {
      const next = offerDouble(cube, ctx, actorOf(setup, normalised.by));
      return { ...state, cubes: [next], actions: recorded };
    }
    case 'take':
    case 'pass':
    case 'beaver':
    case 'raccoon': {
      const next = answerOffer(cube, ctx, actorOf(setup, normalised.by), normalised.type);
      if (next.status !== 'passed' || !next.passed) {
        return { ...state, cubes: [next], actions: recorded };
      }
      // R1.3: a pass ends the game at once; the offering side wins the shown value.
      const winnerSide = next.passed.winnerParty;
      return {
        ...state,
        status: 'finished',
        cubes: [next],
        actions: recorded,
        endedBy: 'pass',
        winnerSide,
        points: next.passed.points,
        settlement: [settle(setup, winnerSide, next.passed.points)],
      };
    }
    case 'finish': {
      if (cube.pending) {
        refuse(
          'OFFER_PENDING',
          'R2.6',
          `A ${cube.pending.kind} to ${cube.pending.value} by ${cube.pending.by} is waiting for an answer: the game cannot end until it is taken or passed (R2.6)`,
          { pending: cube.pending },
        );
      }
      const { result, checkersLeft } = normalised;
      if (result === undefined) {
        refuseMissingResult(variantOf(setup));
      }
      // R1.1, R8.1–R8.6: the result's value in the game's variant (R8.10 refuses one it does not have).
      const value = resultValue(variantOf(setup), result, setup.rules.backgammonMultiplier, checkersLeft, setup.rules.motherPoints);
      const resigned = normalised.resigned ?? false;
      if (result === 'draw') {
        return finishDraw(state, cube, recorded, normalised);
      }
      const winnerSide = sideOf(setup.sides, normalised.winner);
      if (winnerSide === null) {
        refuseStranger(setup, normalised.winner);
      }
      // R3.10: offered by a player of the side that loses.
      const { offeredBy } = normalised;
      assertOfferedByLoser(offeredBy, setup.sides[otherSide(winnerSide)]);
      // R1.5 (and R8.1 for long nardy): a cube nobody owns counts every result single under Jacoby.
      const jacobySingle = setup.rules.jacoby && cube.ownerParty === null;
      const points = cube.value * (jacobySingle ? 1 : value);
      return {
        ...state,
        status: 'finished',
        cubes: [finishCube(cube)],
        actions: recorded,
        result: { winner: normalised.winner, result, resigned, ...(offeredBy === undefined ? {} : { offeredBy }), ...(checkersLeft === undefined ? {} : { checkersLeft }) },
        endedBy: 'finish',
        winnerSide,
        points,
        settlement: [settle(setup, winnerSide, points)],
      };
    }
  }
}

/** A finish that names no result: Tavla 31 needs its checkers left (R8.6, R8.10), every other variant a result (R1.1). */
function refuseMissingResult(variant: GameVariant): never {
  if (variant === 'tavla-31') assertResultInVariant(variant, 'single', undefined);
  refuse('INVALID_RESULT', 'R1.1', 'A game ends "single", "gammon" or "backgammon" (R1.1), or with a result of its variant (R8.1–R8.6); got nothing');
}

/**
 * R8.3: a Plakoto draw (both mothers pinned) is a finished game with no winner that
 * scores 0 and settles nothing. It has no winner and cannot be resigned (R8.7).
 */
function finishDraw(state: GameState, cube: CubeState, recorded: GameAction[], action: FinishAction): GameState {
  if (action.winner !== undefined && action.winner !== null) {
    refuse('INVALID_RESULT', 'R8.3', 'A draw has no winner (R8.3): leave "winner" out', { winner: action.winner });
  }
  if (action.resigned === true) {
    refuse('INVALID_RESULT', 'R8.7', 'A draw cannot be resigned: a resignation is at one of the results with a winner (R8.7)');
  }
  return {
    ...state,
    status: 'finished',
    cubes: [finishCube(cube)],
    actions: recorded,
    result: { result: 'draw', resigned: false },
    endedBy: 'finish',
    winnerSide: null,
    points: 0,
    settlement: [],
  };
}

/** Rebuilds a game from its log (refusing, like applyAction, at the first bad action). */
export function replay(setup: GameSetup, actions: readonly GameAction[], automaticDoubles = 0): GameState {
  return actions.reduce((state, action) => applyAction(setup, state, action), newGame(setup, automaticDoubles));
}

/**
 * The undo action: takes back the last action of an unfinished game by replaying the
 * rest. A finished game is not undone; only voided (R6.3).
 */
export function undoLastAction(setup: GameSetup, state: GameState): GameState {
  if (state.status === 'finished') {
    refuse('GAME_FINISHED', 'R6.3', 'This game is finished: it cannot be undone, only voided while it is the latest finished game (R6.3)');
  }
  if (state.actions.length === 0) {
    refuse('NOTHING_TO_UNDO', null, 'No action has been recorded in this game yet: there is nothing to undo');
  }
  return replay(setup, state.actions.slice(0, -1), state.automaticDoubles);
}

/** The cube context of a two-sided game: side i is party i. */
function cubeContext(setup: GameSetup): CubeContext {
  return {
    table: setup.table,
    rules: setup.rules,
    doubling: setup.doubling,
    deadCube: setup.match ? { mode: setup.match.deadCube, pointsToGo: setup.match.pointsToGo } : null,
  };
}

function settle(setup: GameSetup, winnerSide: SideIndex, points: number): PointTransfer {
  return { from: setup.sides[otherSide(winnerSide)], to: setup.sides[winnerSide], points, cube: null };
}

function actorOf(setup: GameSetup, player: PlayerId): Actor {
  const party = sideOf(setup.sides, player);
  if (party === null) {
    refuseStranger(setup, player);
  }
  return { party, player };
}

function refuseStranger(setup: GameSetup, player: unknown): never {
  const rule = setup.table === 'match' ? 'R3.7' : 'R4.1';
  refuse(
    'NOT_IN_GAME',
    rule,
    `${typeof player === 'string' && player ? `Player ${player}` : 'That player'} does not play in this game: only the players of its two sides act in it (${rule})`,
    { playerId: player },
  );
}

function refuseFinished(state: GameState, action: GameAction): never {
  const rule = action.type === 'double' ? 'R2.2' : state.endedBy === 'pass' ? 'R1.3' : 'R1.1';
  const how = state.endedBy === 'pass' ? 'it ended when the double was passed (R1.3)' : `it ended with a ${state.result?.result ?? 'result'} (R1.1)`;
  refuse(
    'GAME_FINISHED',
    rule,
    action.type === 'double' ? `A double needs a game in progress (R2.2): this game is over, ${how}` : `This game is over: ${how}; no further action is recorded`,
  );
}

/** Checks the action's shape and drops the chouette-only fields a two-sided game leaves out. */
function normaliseAction(action: GameAction): GameAction {
  if (typeof action !== 'object' || action === null) {
    refuse('INVALID_ACTION', null, 'An action is an object with a type');
  }
  const type = (action as { type?: unknown }).type;
  if (type === 'double') {
    const cubes = (action as DoubleAction).cubes;
    if (cubes !== undefined && cubes !== null && (!Array.isArray(cubes) || cubes.length > 0)) {
      refuseMemberCube();
    }
    return { type, by: (action as DoubleAction).by };
  }
  if (typeof type === 'string' && ANSWERS.includes(type)) {
    const cube = (action as AnswerAction).cube;
    if (cube !== undefined && cube !== null) {
      refuseMemberCube();
    }
    return { type: type as AnswerType, by: (action as AnswerAction).by };
  }
  if (type === 'finish' || type === 'resign-refused') {
    const finish = action as FinishAction | ResignRefusedAction;
    const { checkersLeft } = finish;
    if (checkersLeft !== undefined && (typeof checkersLeft !== 'number' || !Number.isInteger(checkersLeft))) {
      refuse('INVALID_RESULT', 'R8.6', `"checkersLeft" is a whole number from 1 to 15 (R8.6); got ${JSON.stringify(checkersLeft) ?? 'nothing'}`);
    }
    // R8.6: a Tavla 31 finish may name only the checkers left; it is a single.
    const result = finish.result === undefined && checkersLeft !== undefined ? 'single' : finish.result;
    // No result at all: the game's variant says what was missing (see applyAction).
    if (result !== undefined && (typeof result !== 'string' || !RESULTS.includes(result))) {
      refuse(
        'INVALID_RESULT',
        'R1.1',
        `A game ends "single", "gammon" or "backgammon" (R1.1), or with a result of its variant (R8.1–R8.6); got ${JSON.stringify(finish.result) ?? 'nothing'}`,
      );
    }
    const left = checkersLeft === undefined ? {} : { checkersLeft };
    if (finish.type === 'resign-refused') {
      assertResignRefusedBy(finish.by);
      return { type: 'resign-refused', by: finish.by, result, ...left };
    }
    if (finish.resigned !== undefined && typeof finish.resigned !== 'boolean') {
      refuse('INVALID_RESULT', 'R1.4', '"resigned" is true or false (R1.4)');
    }
    assertOfferedByShape(finish.offeredBy, finish.resigned);
    const offered = finish.offeredBy === undefined ? {} : { offeredBy: finish.offeredBy };
    return { type: 'finish', winner: finish.winner, result, resigned: finish.resigned ?? false, ...offered, ...left };
  }
  refuse('INVALID_ACTION', null, `Unknown action ${JSON.stringify(type) ?? ''}: an action is double, take, pass, beaver, raccoon, finish or resign-refused`);
}

function refuseMemberCube(): never {
  refuse('NO_MEMBER_CUBES', 'R5.3', 'Member cubes exist only in a chouette (R5.3): leave "cube"/"cubes" out in a match or money game');
}
