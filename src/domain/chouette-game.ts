/**
 * A chouette game over an action log (R5.2–R5.6, R5.10; the HTTP contract, "Games and cube
 * actions").
 *
 * Parties. The box side (party 0 of every cube) is the box and, if there is one,
 * his partner: either may act for the box (like either player of a pair in a
 * match); on the cubes the box side is always reported as the box (`owner`,
 * `pending.by`), the action log keeps who actually acted. Each team member
 * (party 1) has his own cube, `member` = his id, in team order (captain first),
 * and acts only for himself, except where the acting captain acts for the team in
 * `single` mode.
 *
 * Every cube runs the two-party machine of ./cube (R2.2–R2.7), so the cube limit,
 * beavers, raccoons, ownership and "an answer comes from the doubled party" are
 * judged per cube (R5.10).
 *
 * Cube models (R5.3):
 * - `per-member`: a member doubles the box on his own cube (`cubes` omitted or
 *   `[his id]`). The box doubles any subset of the cubes it may double in one offer
 *   (`cubes` omitted = every cube it may double now, R2.2; named cubes must all be
 *   doublable, else the whole offer is refused). Each addressed member answers for
 *   himself; the box answers each member's double (or beaver) separately, naming
 *   the cube, which may be omitted while only one offer to the box is pending.
 * - `single`: one team cube, kept as the in-play member cubes moving in lockstep.
 *   Only the acting captain doubles, for every member still in; the box answers
 *   once for all of them (take: every cube doubles, owned by the box; pass: every
 *   member still in wins the pre-double value and the game ends; beaver: the acting
 *   captain answers for the team, take/pass/raccoon, and a raccoon is answered once
 *   by the box). The box's double addresses every member still in (`cubes` omitted
 *   or naming exactly them); each member answers it for himself, take or pass; a
 *   member cannot beaver alone (NO_BEAVER_ALONE).
 *
 * Turn order across cubes (interpretation of R2.6): doubles come from one side at
 * a time. While a double of the box is waiting for any answer no member may double,
 * and while a member's double is waiting the box may not double. Several members
 * may double the box before it answers.
 *
 * Passes (R5.4): the passed cube is finished; a member who passes is out of the
 * game. The acting captain is the first member (team order) whose cube is still in
 * play. When no cube is in play the game is over (endedBy 'passes').
 *
 * Rotation (R5.7): `captainOutcome` is the box's result against the captain of
 * record's cube (team[0]), fixed as soon as that cube is decided: by a pass either
 * way, or by the `finish`. See ./chouette-seats for what it does to the seats.
 *
 * Pure: `applyChouetteAction` returns a new state or throws a RuleViolation, never
 * touching its inputs.
 */
import { Actor, answerOffer, CubeContext, cubePoints, CubeState, finishCube, offerDouble, startCube } from './cube';
import { refuse, RuleViolation } from './errors';
import { AnswerAction, AnswerType, DoubleAction, FinishAction, GameAction, GameResult, ResignRefusedAction } from './game';
import { assertOfferedByLoser, assertOfferedByShape, assertResignRefusedBy, refuseDrawOffer } from './resignation';
import { ChouetteRules } from './chouette-rules';
import { CaptainOutcome, ChouetteSeats } from './chouette-seats';
import { PlayerId, ResultKind } from './types';
import { assertResultInVariant, isVariantResult, VariantResult } from './variants';

/** What a chouette game needs to know about its table, fixed for the whole game. */
export interface ChouetteGameSetup {
  readonly rules: ChouetteRules;
  readonly box: PlayerId;
  readonly partner: PlayerId | null;
  /** The team in line order at the start of the game; team[0] is the captain of record. */
  readonly team: readonly PlayerId[];
}

/** One member cube's result: who won it, how many points, and how it ended. */
export interface ChouetteCubeResult {
  readonly member: PlayerId;
  readonly winner: 'box' | 'member';
  readonly points: number;
  readonly endedBy: 'pass' | 'finish';
}

export interface ChouetteGameState {
  readonly status: 'in-progress' | 'finished';
  /** R2.7/R5.10: automatic doubles reported at the start; every cube started at 2^n. */
  readonly automaticDoubles: number;
  /** One cube per member, in team order. */
  readonly cubes: readonly CubeState[];
  /** The actions applied so far, normalised (the cubes each one addressed resolved). */
  readonly actions: readonly GameAction[];
  /** Set when the game ended by a `finish`. */
  readonly result: GameResult | null;
  readonly endedBy: 'finish' | 'passes' | null;
  /** Which side the `finish` named as winner; null otherwise. */
  readonly winnerSide: 'box' | 'team' | null;
  /** R5.4: the member who plays on for the team (first still in, team order); null once none is. */
  readonly actingCaptain: PlayerId | null;
  /** R5.7: the box's result against the captain of record's cube, once decided. */
  readonly captainOutcome: CaptainOutcome | null;
  /** Per member cube, team order; empty while the game is in progress. */
  readonly settlement: readonly ChouetteCubeResult[];
}

const ANSWERS: readonly string[] = ['take', 'pass', 'beaver', 'raccoon'];
const RESULTS: readonly string[] = ['single', 'gammon', 'backgammon'];

type Role = { readonly side: 'box' } | { readonly side: 'member'; readonly member: PlayerId };

/** The setup of a game played with these seats (already through seatsAtGameStart). */
export function chouetteGameSetup(seats: ChouetteSeats, rules: ChouetteRules): ChouetteGameSetup {
  return { rules, box: seats.box, partner: seats.partner, team: [...seats.line] };
}

/** R2.1/R2.7/R5.10: a new game; every member cube starts centred at 2^automaticDoubles. */
export function newChouetteGame(setup: ChouetteGameSetup, automaticDoubles = 0): ChouetteGameState {
  checkSetup(setup);
  const ctx = contextOf(setup);
  const cubes = setup.team.map((member) => startCube(member, automaticDoubles, ctx));
  return {
    status: 'in-progress',
    automaticDoubles,
    cubes,
    actions: [],
    result: null,
    endedBy: null,
    winnerSide: null,
    actingCaptain: setup.team[0],
    captainOutcome: null,
    settlement: [],
  };
}

/** Applies one action. Pure: the next state, or a RuleViolation with nothing changed. */
export function applyChouetteAction(setup: ChouetteGameSetup, state: ChouetteGameState, action: GameAction): ChouetteGameState {
  const a = normalise(action);
  if (state.status === 'finished') {
    refuse(
      'GAME_FINISHED',
      a.type === 'double' ? 'R2.2' : state.endedBy === 'passes' ? 'R5.4' : 'R1.1',
      state.endedBy === 'passes' ? 'This chouette game is over: no cube is left in play (R5.4)' : `This chouette game is over: it ended with a ${state.result?.result ?? 'result'} (R1.1)`,
    );
  }
  switch (a.type) {
    case 'double':
      return advance(setup, state, a.recorded, doubleCubes(setup, state, a.by, a.cubes));
    case 'finish':
      return finishGame(setup, state, a.recorded, a.winner, a.result, a.resigned, a.offeredBy);
    case 'resign-refused':
      // R3.10: recorded, nothing else changes; offered by anyone seated in the game.
      roleOf(setup, a.by);
      return { ...state, actions: [...state.actions, a.recorded] };
    default: {
      const { cubes, cube } = answerCubes(setup, state, a.type, a.by, a.cube);
      return advance(setup, state, { ...a.recorded, cube }, { cubes });
    }
  }
}

/** Rebuilds a game from its log, refusing at the first bad action. */
export function replayChouetteGame(setup: ChouetteGameSetup, actions: readonly GameAction[], automaticDoubles = 0): ChouetteGameState {
  return actions.reduce((s, act) => applyChouetteAction(setup, s, act), newChouetteGame(setup, automaticDoubles));
}

/** The undo action: takes back the last action of an unfinished game (replay of the rest). */
export function undoChouetteAction(setup: ChouetteGameSetup, state: ChouetteGameState): ChouetteGameState {
  if (state.status === 'finished') {
    refuse('GAME_FINISHED', 'R6.3', 'This game is finished: it cannot be undone, only voided while it is the latest finished game (R6.3)');
  }
  if (state.actions.length === 0) {
    refuse('NOTHING_TO_UNDO', null, 'No action has been recorded in this game yet: there is nothing to undo');
  }
  return replayChouetteGame(setup, state.actions.slice(0, -1), state.automaticDoubles);
}

/** The cube of `member`, or undefined. */
export function memberCube(state: Pick<ChouetteGameState, 'cubes'>, member: PlayerId): CubeState | undefined {
  return state.cubes.find((c) => c.member === member);
}

// ---------------------------------------------------------------------------
// Doubles
// ---------------------------------------------------------------------------

function doubleCubes(setup: ChouetteGameSetup, state: ChouetteGameState, by: PlayerId, named: readonly PlayerId[] | null) {
  const role = roleOf(setup, by);
  const ctx = contextOf(setup);
  const single = setup.rules.cubes === 'single';
  if (named !== null && named.length === 0) {
    refuse('NO_CUBES_NAMED', 'R5.3', 'A double names at least one member cube, or leaves "cubes" out (R5.3)');
  }

  if (role.side === 'member') {
    const m = role.member;
    if (named !== null && (named.length !== 1 || named[0] !== m)) {
      refuse('NOT_OWN_CUBE', 'R5.3', `${m} may double the box only on his own cube (R5.3)`, { by: m, cubes: named });
    }
    assertMemberIn(state, m);
    assertNoOpposingOffer(state, role);
    const actor: Actor = { party: 1, player: m };
    if (!single) {
      return { cubes: replaceCubes(state.cubes, [m], (c) => offerDouble(c, ctx, actor)), addressed: [m] };
    }
    if (state.actingCaptain !== m) {
      refuse('NOT_ACTING_CAPTAIN', 'R5.3', `With a single team cube only the acting captain (${String(state.actingCaptain)}) doubles the box, for all members still in (R5.3)`, {
        by: m,
        actingCaptain: state.actingCaptain,
      });
    }
    const inPlay = inPlayMembers(state);
    return { cubes: replaceCubes(state.cubes, inPlay, (c) => offerDouble(c, ctx, actor)), addressed: null };
  }

  assertNoOpposingOffer(state, role);
  const boxActor: Actor = { party: 0, player: setup.box };
  const inPlay = inPlayMembers(state);
  if (named !== null) {
    const seen = new Set<PlayerId>();
    for (const m of named) {
      if (!setup.team.includes(m)) {
        refuse('UNKNOWN_CUBE', 'R5.3', `${m} has no cube in this game: cubes are named by team member (R5.3)`, { cube: m });
      }
      if (seen.has(m)) {
        refuse('DUPLICATE_CUBE', 'R5.3', `The cube of ${m} is named twice in one offer (R5.3)`, { cube: m });
      }
      seen.add(m);
    }
  }
  if (single) {
    if (named !== null && (named.length !== inPlay.length || !named.every((m) => inPlay.includes(m)))) {
      refuse('SINGLE_TEAM_CUBE', 'R5.3', `With a single team cube the box doubles every member still in the game (${inPlay.join(', ')}) at once (R5.3)`, { cubes: named, inPlay });
    }
    return { cubes: replaceCubes(state.cubes, inPlay, (c) => offerDouble(c, ctx, boxActor)), addressed: inPlay };
  }
  if (named !== null) {
    for (const m of named) assertMemberIn(state, m);
    return { cubes: replaceCubes(state.cubes, named, (c) => offerDouble(c, ctx, boxActor)), addressed: [...named] };
  }
  // R2.2: every cube the box may double now.
  const addressed: PlayerId[] = [];
  const reasons: Record<string, string> = {};
  for (const m of inPlay) {
    try {
      offerDouble(memberCube(state, m)!, ctx, boxActor);
      addressed.push(m);
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      reasons[m] = e.code;
    }
  }
  if (addressed.length === 0) {
    refuse('NO_CUBE_TO_DOUBLE', 'R2.2', 'The box may not double any cube now (R2.2): each is owned by its member, has an offer pending or is at the cube limit', {
      reasons,
    });
  }
  return { cubes: replaceCubes(state.cubes, addressed, (c) => offerDouble(c, ctx, boxActor)), addressed };
}

/** R2.6 across cubes: one side's doubles are answered before the other side doubles. */
function assertNoOpposingOffer(state: ChouetteGameState, role: Role): void {
  const myParty = role.side === 'box' ? 0 : 1;
  const waiting = state.cubes.find((c) => c.pending !== null && c.pending.receiver === myParty);
  if (waiting) {
    const who = myParty === 0 ? `${String(waiting.member)}'s double of the box` : `The box's double of ${String(waiting.member)}`;
    refuse('OFFER_PENDING', 'R2.6', `${who} is waiting for an answer (${waiting.pending!.kind} to ${waiting.pending!.value}): no double the other way until it is answered (R2.6)`, {
      cube: waiting.member,
      pending: waiting.pending,
    });
  }
}

// ---------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------

function answerCubes(setup: ChouetteGameSetup, state: ChouetteGameState, answer: AnswerType, by: PlayerId, named: PlayerId | null): { cubes: CubeState[]; cube: PlayerId | null } {
  const role = roleOf(setup, by);
  const ctx = contextOf(setup);
  const single = setup.rules.cubes === 'single';

  if (role.side === 'box') {
    const actor: Actor = { party: 0, player: setup.box };
    if (named !== null) {
      if (!setup.team.includes(named)) {
        refuse('UNKNOWN_CUBE', 'R5.3', `${named} has no cube in this game: cubes are named by team member (R5.3)`, { cube: named });
      }
      assertMemberIn(state, named);
    }
    const toBox = state.cubes.filter((c) => c.pending !== null && c.pending.byParty === 1).map((c) => c.member!);
    if (single) {
      if (named !== null && !toBox.includes(named)) {
        // Let the cube machine say why (no offer, or the box's own offer).
        answerOffer(memberCube(state, named)!, ctx, actor, answer);
      }
      if (toBox.length === 0) {
        refuse('NO_OFFER_PENDING', 'R2.3', `There is no double to ${answer}: the team has not offered one (R2.3)`);
      }
      return { cubes: replaceCubes(state.cubes, toBox, (c) => answerOffer(c, ctx, actor, answer)), cube: named };
    }
    let target = named;
    if (target === null) {
      if (toBox.length === 0) {
        refuse('NO_OFFER_PENDING', 'R2.3', `There is no double to ${answer}: no member has offered the box one (R2.3)`);
      }
      if (toBox.length > 1) {
        refuse('CUBE_NOT_NAMED', 'R5.3', `Offers to the box are pending on the cubes of ${toBox.join(', ')}: name the cube this ${answer} answers (R5.3)`, { pending: toBox });
      }
      target = toBox[0];
    }
    return { cubes: replaceCubes(state.cubes, [target], (c) => answerOffer(c, ctx, actor, answer)), cube: target };
  }

  const m = role.member;
  if (named !== null && named !== m) {
    refuse('NOT_OWN_CUBE', 'R5.3', `${m} answers only for his own cube, not ${named}'s: every member answers for himself (R5.3)`, {
      by: m,
      cube: named,
    });
  }
  assertMemberIn(state, m);
  const actor: Actor = { party: 1, player: m };
  const own = memberCube(state, m)!;
  const offer = own.pending;
  if (single && offer !== null && offer.byParty === 0) {
    if (offer.kind === 'double' && answer === 'beaver') {
      refuse('NO_BEAVER_ALONE', 'R5.3', `With a single team cube a member cannot beaver the box's double alone: ${m} takes or passes (R5.3)`);
    }
    if (offer.kind !== 'double') {
      // The box beavered (or raccooned) the team's double: the acting captain answers for the team.
      if (state.actingCaptain !== m) {
        refuse('NOT_ACTING_CAPTAIN', 'R5.3', `The box's ${offer.kind} of the team cube is answered by the acting captain (${String(state.actingCaptain)}) for the team (R5.3)`, {
          by: m,
          actingCaptain: state.actingCaptain,
        });
      }
      const team = state.cubes.filter((c) => c.pending !== null && c.pending.byParty === 0).map((c) => c.member!);
      return { cubes: replaceCubes(state.cubes, team, (c) => answerOffer(c, ctx, actor, answer)), cube: m };
    }
  }
  return { cubes: replaceCubes(state.cubes, [m], (c) => answerOffer(c, ctx, actor, answer)), cube: m };
}

// ---------------------------------------------------------------------------
// After a double or an answer; the finish
// ---------------------------------------------------------------------------

function advance(setup: ChouetteGameSetup, state: ChouetteGameState, recorded: GameAction, change: { cubes: CubeState[]; addressed?: readonly PlayerId[] | null }): ChouetteGameState {
  const { cubes } = change;
  let action = recorded;
  if (action.type === 'double' && change.addressed !== undefined) {
    action = change.addressed === null ? { type: 'double', by: action.by } : { type: 'double', by: action.by, cubes: change.addressed };
  }
  const actions = [...state.actions, action];
  const captainCube = cubes[0];
  const captainOutcome: CaptainOutcome | null = state.captainOutcome ?? (captainCube.passed ? (captainCube.passed.winnerParty === 0 ? 'box' : 'captain') : null);
  const inPlay = cubes.filter((c) => c.status === 'in-play');
  const base = { ...state, cubes, actions, captainOutcome, actingCaptain: inPlay.length > 0 ? inPlay[0].member : null };
  if (inPlay.length > 0) return base;
  // R5.4: no cube left in play: the game is over.
  return { ...base, status: 'finished', endedBy: 'passes', settlement: settle(cubes, null, setup) };
}

function finishGame(
  setup: ChouetteGameSetup,
  state: ChouetteGameState,
  recorded: GameAction,
  winner: PlayerId,
  result: ResultKind,
  resigned: boolean,
  offeredBy: PlayerId | undefined,
): ChouetteGameState {
  const pending = state.cubes.find((c) => c.pending !== null);
  if (pending) {
    refuse(
      'OFFER_PENDING',
      'R2.6',
      `A ${pending.pending!.kind} to ${pending.pending!.value} on ${String(pending.member)}'s cube is waiting for an answer: the game cannot end until it is taken or passed (R2.6)`,
      { cube: pending.member, pending: pending.pending },
    );
  }
  const role = roleOf(setup, winner, 'winner');
  const side = role.side === 'box' ? 'box' : 'team';
  // R3.10: offered by a player of the side that loses (the team when the box side wins, else the box or his partner).
  assertOfferedByLoser(offeredBy, side === 'box' ? setup.team : [setup.box, ...(setup.partner === null ? [] : [setup.partner])]);
  const cubes = state.cubes.map(finishCube);
  const captainOutcome: CaptainOutcome = state.captainOutcome ?? (side === 'box' ? 'box' : 'captain');
  const finishResult = { winner, result, resigned, ...(offeredBy === undefined ? {} : { offeredBy }) };
  return {
    ...state,
    status: 'finished',
    cubes,
    actions: [...state.actions, recorded],
    result: finishResult,
    endedBy: 'finish',
    winnerSide: side,
    actingCaptain: null,
    captainOutcome,
    settlement: settle(cubes, { side, result }, setup),
  };
}

/**
 * R1.3/R5.4 passed cubes: the doubler wins the shown value. R5.5/R5.6 cubes
 * finished by the `finish`: value × multiplier, Jacoby judged on that cube alone.
 */
function settle(cubes: readonly CubeState[], finish: { side: 'box' | 'team'; result: ResultKind } | null, setup: ChouetteGameSetup): ChouetteCubeResult[] {
  return cubes.map((c): ChouetteCubeResult => {
    if (c.passed) {
      return { member: c.member!, winner: c.passed.winnerParty === 0 ? 'box' : 'member', points: c.passed.points, endedBy: 'pass' };
    }
    if (!finish) throw new Error('chouette settle: a cube neither passed nor finished');
    return {
      member: c.member!,
      winner: finish.side === 'box' ? 'box' : 'member',
      points: cubePoints(c, finish.result, setup.rules),
      endedBy: 'finish',
    };
  });
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

function contextOf(setup: ChouetteGameSetup): CubeContext {
  return { table: 'money', rules: setup.rules, doubling: 'allowed', deadCube: null };
}

function checkSetup(setup: ChouetteGameSetup): void {
  const all = [setup.box, ...(setup.partner === null ? [] : [setup.partner]), ...setup.team];
  if (setup.team.length === 0) {
    refuse('TOO_FEW_PLAYERS', 'R5.8', 'A chouette game needs the box and at least one team member (R5.8)');
  }
  if (new Set(all).size !== all.length || all.some((p) => typeof p !== 'string' || p.length === 0)) {
    refuse('INVALID_SEATS', 'R5.1', 'Every player of a chouette game holds exactly one seat (R5.1)');
  }
}

function roleOf(setup: ChouetteGameSetup, player: unknown, what = 'by'): Role {
  if (typeof player === 'string' && (player === setup.box || (setup.partner !== null && player === setup.partner))) {
    return { side: 'box' };
  }
  if (typeof player === 'string' && setup.team.includes(player)) return { side: 'member', member: player };
  refuse(
    'NOT_IN_GAME',
    'R5.2',
    `${typeof player === 'string' && player ? `Player ${player}` : 'That player'} does not play in this chouette game: only the box, his partner and the team act in it (R5.2)`,
    { [what]: player },
  );
}

function inPlayMembers(state: ChouetteGameState): PlayerId[] {
  return state.cubes.filter((c) => c.status === 'in-play').map((c) => c.member!);
}

/** R5.4: a member whose cube was passed is out of this game. */
function assertMemberIn(state: ChouetteGameState, member: PlayerId): void {
  const cube = memberCube(state, member)!;
  if (cube.status !== 'in-play') {
    refuse(
      'MEMBER_OUT',
      'R5.4',
      cube.passed && cube.passed.winnerParty === 0
        ? `${member} passed and is out of this game (R5.4): his cube is finished`
        : `The box passed ${member}'s double: that cube is finished (R5.4)`,
      { member },
    );
  }
}

function replaceCubes(cubes: readonly CubeState[], members: readonly PlayerId[], f: (c: CubeState) => CubeState): CubeState[] {
  return cubes.map((c) => (c.member !== null && members.includes(c.member) ? f(c) : c));
}

type Normalised =
  | { type: 'double'; by: PlayerId; cubes: readonly PlayerId[] | null; recorded: DoubleAction }
  | { type: AnswerType; by: PlayerId; cube: PlayerId | null; recorded: AnswerAction }
  | { type: 'finish'; winner: PlayerId; result: ResultKind; resigned: boolean; offeredBy: PlayerId | undefined; recorded: FinishAction }
  | { type: 'resign-refused'; by: PlayerId; recorded: ResignRefusedAction };

function normalise(action: GameAction): Normalised {
  if (typeof action !== 'object' || action === null) {
    refuse('INVALID_ACTION', null, 'An action is an object with a type');
  }
  const raw: Readonly<Record<string, unknown>> = { ...action };
  const type = raw.type;
  if (type === 'finish') {
    // R8.10: a chouette is backgammon only; another variant's result or checkersLeft is refused naming it.
    const otherVariantResult = typeof raw.result === 'string' && isVariantResult(raw.result) && !RESULTS.includes(raw.result);
    if (otherVariantResult || (raw.checkersLeft !== undefined && raw.checkersLeft !== null)) {
      assertResultInVariant('backgammon', raw.result as VariantResult, raw.checkersLeft as number);
    }
    if (typeof raw.result !== 'string' || !RESULTS.includes(raw.result)) {
      refuse('INVALID_RESULT', 'R1.1', `A game ends "single", "gammon" or "backgammon" (R1.1); got ${JSON.stringify(raw.result) ?? 'nothing'}`);
    }
    if (raw.resigned !== undefined && typeof raw.resigned !== 'boolean') {
      refuse('INVALID_RESULT', 'R1.4', '"resigned" is true or false (R1.4)');
    }
    assertOfferedByShape(raw.offeredBy, raw.resigned);
    const winner = raw.winner as PlayerId;
    const result = raw.result as ResultKind;
    const resigned = raw.resigned ?? false;
    const offeredBy = raw.offeredBy as PlayerId | undefined;
    const recorded: FinishAction = { type, winner, result, resigned, ...(offeredBy === undefined ? {} : { offeredBy }) };
    return { type, winner, result, resigned, offeredBy, recorded };
  }
  if (type === 'resign-refused') {
    assertResignRefusedBy(raw.by);
    if (raw.result === 'draw') refuseDrawOffer();
    // R8.10: a chouette is backgammon only.
    if ((typeof raw.result === 'string' && isVariantResult(raw.result) && !RESULTS.includes(raw.result)) || (raw.checkersLeft !== undefined && raw.checkersLeft !== null)) {
      assertResultInVariant('backgammon', raw.result as VariantResult, raw.checkersLeft as number);
    }
    if (typeof raw.result !== 'string' || !RESULTS.includes(raw.result)) {
      refuse('INVALID_RESULT', 'R1.1', `A resignation is offered at "single", "gammon" or "backgammon" (R1.1, R3.10); got ${JSON.stringify(raw.result) ?? 'nothing'}`);
    }
    const result = raw.result as ResultKind;
    return { type, by: raw.by, recorded: { type, by: raw.by, result } };
  }
  if (typeof raw.by !== 'string' || raw.by.length === 0) {
    refuse('INVALID_ACTION', null, 'A double or an answer names the player who acts ("by")');
  }
  const by = raw.by;
  if (type === 'double') {
    const cubes = raw.cubes;
    if (cubes !== undefined && cubes !== null && (!Array.isArray(cubes) || cubes.some((c) => typeof c !== 'string'))) {
      refuse('INVALID_ACTION', 'R5.3', '"cubes" is a list of team member ids (R5.3)');
    }
    const list = cubes === undefined || cubes === null ? null : [...(cubes as PlayerId[])];
    return { type, by, cubes: list, recorded: list === null ? { type, by } : { type, by, cubes: list } };
  }
  if (typeof type === 'string' && ANSWERS.includes(type)) {
    const cube = raw.cube;
    if (cube !== undefined && cube !== null && typeof cube !== 'string') {
      refuse('INVALID_ACTION', 'R5.3', '"cube" is the id of the team member whose cube is answered (R5.3)');
    }
    const named = cube ?? null;
    return { type: type as AnswerType, by, cube: named, recorded: { type: type as AnswerType, by, cube: named } };
  }
  refuse('INVALID_ACTION', null, `Unknown action ${JSON.stringify(type) ?? ''}: an action is double, take, pass, beaver, raccoon, finish or resign-refused`);
}
