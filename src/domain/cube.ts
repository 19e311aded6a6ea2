/**
 * The doubling cube between two parties (R1.3, R1.5, R2.1–R2.7, R3.3–R3.5).
 *
 * One cube, two parties: party 0 (side 0 of a match or money game; the box in a
 * chouette) and party 1 (side 1; a team member in a chouette). Every function is
 * pure: it returns a new cube or throws a RuleViolation and changes nothing.
 *
 * An exchange is a double followed by at most `maxInstantRedoubles` instant
 * redoubles that alternate sides (R2.5): the receiver of the double may beaver
 * (R2.4), the original doubler may then raccoon (R2.5). What the cube shows while
 * an offer is pending (as the HTTP contract shows it): `value` and `owner` are as if every earlier offer in
 * the exchange had been taken, and `pending.value` is what a take makes it. So:
 *
 *   A doubles at v:      value v,  owner as before, pending { A, 2v, double }   B answers
 *   B beavers:           value 2v, owner B,         pending { B, 4v, beaver }   A answers
 *   A raccoons:          value 4v, owner B,         pending { A, 8v, raccoon }  B answers
 *
 * A take ends the exchange at `pending.value` with the cube owned by the receiver
 * of the double (the beaverer keeps it, R2.4; "the cube still ends with the
 * original receiver", R2.5). A pass ends the cube: the party that made the pending
 * offer wins the shown `value` (v after a double, 2v after a beaver, 4v after a
 * raccoon: R1.3, R2.4, R2.5).
 */
import { refuse } from './errors';
import { CubeRules, effectiveCubeLimit, maxInstantRedoubles } from './rules';
import { DeadCubeMode, otherSide, PlayerId, ResultKind, SideIndex, TableKind } from './types';

/** 0: side 0 / the box; 1: side 1 / a team member. */
export type PartyIndex = SideIndex;

/** Who acts: the party, and which of its players (for reporting). */
export interface Actor {
  readonly party: PartyIndex;
  readonly player: PlayerId;
}

export type OfferKind = 'double' | 'beaver' | 'raccoon';
export type CubeStatus = 'in-play' | 'passed' | 'finished';
export type CubeAnswer = 'take' | 'pass' | 'beaver' | 'raccoon';

/**
 * Whether this game may see a double at all: 'crawford' (R3.4) and
 * 'one-point-match' (R3.3) forbid it, each with its own refusal.
 */
export type DoublingPermission = 'allowed' | 'crawford' | 'one-point-match';

export interface CubeOffer {
  /** The player who made the offer. */
  readonly by: PlayerId;
  readonly byParty: PartyIndex;
  /** What a take makes the cube. */
  readonly value: number;
  readonly kind: OfferKind;
  /** The party the exchange's double was offered to; it owns the cube after a take. */
  readonly receiver: PartyIndex;
  /** Instant redoubles so far in this exchange (0 for the double, 1 beaver, 2 raccoon). */
  readonly redoubles: number;
}

export interface CubePass {
  /** The player who passed. */
  readonly by: PlayerId;
  readonly winnerParty: PartyIndex;
  /** What the winner of the pass is owed (R1.3): the shown value when it was passed. */
  readonly points: number;
}

export interface CubeState {
  /** The team member this cube belongs to in a chouette; null at a two-sided table. */
  readonly member: PlayerId | null;
  readonly value: number;
  /** The player who took (or beavered) the cube; null while centred. */
  readonly owner: PlayerId | null;
  readonly ownerParty: PartyIndex | null;
  readonly status: CubeStatus;
  readonly pending: CubeOffer | null;
  /** Set once the cube was passed. */
  readonly passed: CubePass | null;
}

/** What the cube needs to know about its game. */
export interface CubeContext {
  readonly table: TableKind;
  readonly rules: CubeRules;
  readonly doubling: DoublingPermission;
  /** Match play only (R3.5): each party's points to go, indexed by party. */
  readonly deadCube: { readonly mode: DeadCubeMode; readonly pointsToGo: readonly [number, number] } | null;
}

const REDOUBLE_KINDS: readonly OfferKind[] = ['double', 'beaver', 'raccoon'];

/**
 * R2.1/R2.7: a new cube, centred, at 2^automaticDoubles. More automatic doubles than
 * the rules allow are refused (in a match none are allowed, R2.8).
 */
export function startCube(member: PlayerId | null, automaticDoubles: number, ctx: CubeContext): CubeState {
  if (!Number.isInteger(automaticDoubles) || automaticDoubles < 0) {
    refuse('INVALID_AUTOMATIC_DOUBLES', 'R2.7', `The number of automatic doubles must be a whole number, 0 or more (R2.7); got ${String(automaticDoubles)}`);
  }
  if (automaticDoubles > ctx.rules.automaticDoubles) {
    if (ctx.table === 'match') {
      refuse('AUTOMATIC_DOUBLES_NOT_ALLOWED', 'R2.8', 'Automatic doubles are money play only: a match game always starts with the cube at 1 (R2.8)', { automaticDoubles });
    }
    refuse(
      'TOO_MANY_AUTOMATIC_DOUBLES',
      'R2.7',
      ctx.rules.automaticDoubles === 0
        ? 'Automatic doubles are off at this table (R2.7): the game starts with the cube at 1'
        : `At most ${ctx.rules.automaticDoubles} automatic double(s) per game at this table (R2.7); ${automaticDoubles} reported`,
      { automaticDoubles, allowed: ctx.rules.automaticDoubles },
    );
  }
  const value = 2 ** automaticDoubles;
  if (value > effectiveCubeLimit(ctx.rules)) {
    refuse('CUBE_LIMIT_EXCEEDED', 'R2.7', `${automaticDoubles} automatic doubles would put the cube at ${value}, above the cube limit (R2.7, R2.2)`, { automaticDoubles });
  }
  return { member, value, owner: null, ownerParty: null, status: 'in-play', pending: null, passed: null };
}

/** R2.2: `actor` offers a double on `cube`. */
export function offerDouble(cube: CubeState, ctx: CubeContext, actor: Actor): CubeState {
  assertInPlay(cube, actor);
  if (cube.pending) {
    refuse('OFFER_PENDING', 'R2.6', `${describeOffer(cube.pending)} is waiting for an answer: no second offer until it is taken or passed (R2.6)`, { pending: cube.pending });
  }
  if (ctx.doubling === 'crawford') {
    refuse('CRAWFORD_NO_DOUBLE', 'R3.4', 'This is the Crawford game (R3.4): the double is annulled and the game goes on without the cube');
  }
  if (ctx.doubling === 'one-point-match') {
    refuse('NO_CUBE_IN_ONE_POINT_MATCH', 'R3.3', 'A 1-point match has no cube at all (R3.3): the double is annulled and the game goes on without the cube');
  }
  if (cube.ownerParty !== null && cube.ownerParty !== actor.party) {
    refuse('NOT_CUBE_OWNER', 'R2.2', `${cube.owner ?? 'The other side'} owns the cube at ${cube.value}: only the cube's owner may double (R2.2)`, { owner: cube.owner, value: cube.value });
  }
  if (ctx.deadCube && ctx.deadCube.mode === 'refuse') {
    const toGo = ctx.deadCube.pointsToGo[actor.party];
    if (cube.value >= toGo) {
      refuse(
        'DEAD_CUBE',
        'R3.5',
        `Dead cube (R3.5): with the cube at ${cube.value}, ${actor.player}'s side already wins the match with a single game (${toGo} to go), so it may not double`,
        { value: cube.value, pointsToGo: toGo },
      );
    }
  }
  const doubled = cube.value * 2;
  assertWithinLimit(doubled, ctx, 'double');
  return {
    ...cube,
    pending: { by: actor.player, byParty: actor.party, value: doubled, kind: 'double', receiver: otherSide(actor.party), redoubles: 0 },
  };
}

/** R2.3–R2.6: the doubled party answers the pending offer. */
export function answerOffer(cube: CubeState, ctx: CubeContext, actor: Actor, answer: CubeAnswer): CubeState {
  assertInPlay(cube, actor);
  const offer = cube.pending;
  if (!offer) {
    refuse('NO_OFFER_PENDING', 'R2.3', `There is no double to ${answer}: nobody has offered one (R2.3)`);
  }
  if (actor.party === offer.byParty) {
    refuse('NOT_DOUBLED_PARTY', 'R2.6', `${describeOffer(offer)}: only the other side may answer it (R2.6)`, { pending: offer });
  }
  switch (answer) {
    case 'take':
      return { ...cube, ...takenOffer(cube, offer, actor), pending: null };
    case 'pass':
      return {
        ...cube,
        status: 'passed',
        pending: null,
        passed: { by: actor.player, winnerParty: offer.byParty, points: cube.value },
      };
    case 'beaver':
    case 'raccoon':
      return instantRedouble(cube, ctx, actor, offer, answer);
  }
}

/**
 * R2.4/R2.5: an instant redouble instead of an answer. The n-th instant redouble of
 * an exchange is REDOUBLE_KINDS[n] (1 = beaver by the receiver, 2 = raccoon by the
 * doubler); at most maxInstantRedoubles(rules) of them.
 */
function instantRedouble(cube: CubeState, ctx: CubeContext, actor: Actor, offer: CubeOffer, kind: 'beaver' | 'raccoon'): CubeState {
  const rule = kind === 'beaver' ? 'R2.4' : 'R2.5';
  if (ctx.table === 'match') {
    refuse(kind === 'beaver' ? 'BEAVERS_NOT_ALLOWED' : 'RACCOONS_NOT_ALLOWED', 'R2.8', `No ${kind}s in match play (R2.8): answer the double with take or pass`);
  }
  const nth = offer.redoubles + 1;
  if (REDOUBLE_KINDS[nth] !== kind) {
    refuse(
      'WRONG_INSTANT_REDOUBLE',
      rule,
      `${kind === 'beaver' ? 'A beaver answers a double (R2.4)' : 'A raccoon answers a beaver (R2.5)'}: ` +
        `${describeOffer(offer)} is answered with ${listAnswers(possibleAnswers(offer, ctx.rules))}`,
      { pending: offer },
    );
  }
  if (nth > maxInstantRedoubles(ctx.rules)) {
    refuse(
      kind === 'beaver' ? 'BEAVERS_NOT_ALLOWED' : 'RACCOONS_NOT_ALLOWED',
      rule,
      kind === 'beaver' ? 'Beavers are off at this table (R2.4): answer the double with take or pass' : 'Raccoons are off at this table (R2.5): answer the beaver with take or pass',
    );
  }
  const redoubled = offer.value * 2;
  assertWithinLimit(redoubled, ctx, kind);
  return {
    ...cube,
    // Shown as if the offer being answered had been taken (as the HTTP contract shows it).
    ...takenOffer(cube, offer, actor),
    pending: { by: actor.player, byParty: actor.party, value: redoubled, kind, receiver: offer.receiver, redoubles: nth },
  };
}

/**
 * R2.3–R2.5: the answers open to the doubled party: take or pass, and the next
 * instant redouble of the exchange while the rules allow one (beaver, then raccoon).
 */
export function possibleAnswers(offer: CubeOffer, rules: Pick<CubeRules, 'beavers' | 'raccoons'>): CubeAnswer[] {
  const nth = offer.redoubles + 1;
  const next = REDOUBLE_KINDS[nth];
  return next && nth <= maxInstantRedoubles(rules) ? ['take', 'pass', next as CubeAnswer] : ['take', 'pass'];
}

/**
 * The cube once `offer` is taken: its value, owned by the receiver of the exchange's
 * double (R2.3; the beaverer keeps it, R2.4/R2.5). The owner is reported as the
 * receiver's player who took or beavered: when the doubler takes a beaver, the
 * beaverer stays the owner.
 */
function takenOffer(cube: CubeState, offer: CubeOffer, actor: Actor): Pick<CubeState, 'value' | 'owner' | 'ownerParty'> {
  return {
    value: offer.value,
    ownerParty: offer.receiver,
    owner: actor.party === offer.receiver ? actor.player : cube.owner,
  };
}

/** The game ended by a `finish`: a cube still in play is finished. */
export function finishCube(cube: CubeState): CubeState {
  return cube.status === 'in-play' ? { ...cube, status: 'finished' } : cube;
}

/** R1.1/R1.2: the result multiplier before Jacoby. */
function resultMultiplier(result: ResultKind, rules: Pick<CubeRules, 'backgammonMultiplier'>): number {
  switch (result) {
    case 'single':
      return 1;
    case 'gammon':
      return 2;
    case 'backgammon':
      return rules.backgammonMultiplier;
  }
}

/**
 * R1.1, R1.2, R1.5: what a game played out to `result` is worth on this cube:
 * value × multiplier, where under Jacoby a cube nobody owns counts every result single.
 */
export function cubePoints(cube: CubeState, result: ResultKind, rules: Pick<CubeRules, 'backgammonMultiplier' | 'jacoby'>): number {
  const jacobySingle = rules.jacoby && cube.ownerParty === null;
  return cube.value * (jacobySingle ? 1 : resultMultiplier(result, rules));
}

function assertInPlay(cube: CubeState, actor: Actor): void {
  if (cube.status !== 'in-play') {
    refuse(
      'CUBE_NOT_IN_PLAY',
      cube.status === 'passed' ? 'R1.3' : 'R1.1',
      cube.status === 'passed'
        ? `This cube was passed by ${cube.passed?.by ?? 'a player'} and is finished (R1.3); ${actor.player} cannot act on it`
        : 'This cube is finished: its game is over (R1.1)',
    );
  }
}

function assertWithinLimit(value: number, ctx: CubeContext, what: OfferKind): void {
  const limit = effectiveCubeLimit(ctx.rules);
  if (value > limit) {
    refuse(
      'CUBE_LIMIT_EXCEEDED',
      'R2.2',
      ctx.rules.cubeLimit === null
        ? `The cube cannot be recorded above ${limit} (R2.2, R6.2): this ${what} is refused`
        : `The cube limit is ${limit} (R2.2, beavers and raccoons included): this ${what} would make it ${value}`,
      { limit, value },
    );
  }
}

function listAnswers(answers: readonly string[]): string {
  return `${answers.slice(0, -1).join(', ')} or ${answers[answers.length - 1]}`;
}

function describeOffer(offer: CubeOffer): string {
  return `${offer.by}'s ${offer.kind} to ${offer.value}`;
}
