/**
 * Property tests of the chouette domain: random evenings (seats 3–8, random rules,
 * joins and leaves between games, random mixes of valid and invalid actions).
 */
import fc from 'fast-check';
import { applyChouetteAction, chouetteGameSetup, ChouetteGameSetup, ChouetteGameState, newChouetteGame, replayChouetteGame } from './chouette-game';
import { chouetteGameNets, chouetteGamePayouts, resolveChouetteStakes } from './chouette-money';
import { ChouetteRules, resolveChouetteRules } from './chouette-rules';
import { canStartGame, ChouetteSeats, joinChouette, leaveChouette, rotateAfterGame, seatedPlayers, seatInOrder, seatsAtGameStart } from './chouette-seats';
import { RuleViolation } from './errors';
import { GameAction } from './game';

const POOL = Array.from({ length: 14 }, (_, i) => `p${i}`);
const RUNS = 200;

const rulesArb: fc.Arbitrary<ChouetteRules> = fc
  .record({
    cubes: fc.constantFrom('per-member' as const, 'single' as const),
    jacoby: fc.boolean(),
    beavers: fc.boolean(),
    raccoons: fc.boolean(),
    cubeLimit: fc.constantFrom(4, 8, 64, null),
    automaticDoubles: fc.integer({ min: 0, max: 2 }),
    backgammonMultiplier: fc.constantFrom(2 as const, 3 as const),
    partnerFrom: fc.constantFrom(null, 3, 4, 5, 6),
    partnerShare: fc.integer({ min: 0, max: 100 }),
  })
  .map((r) => resolveChouetteRules({ ...r, raccoons: r.beavers && r.raccoons }));

const actionSpec = fc.record({
  smart: fc.constantFrom(true, true, true, false),
  pick: fc.nat(20),
  omitCube: fc.boolean(),
  type: fc.constantFrom('double', 'double', 'double', 'take', 'take', 'take', 'pass', 'pass', 'beaver', 'beaver', 'raccoon', 'finish'),
  who: fc.nat(20),
  cubes: fc.option(fc.uniqueArray(fc.nat(12), { maxLength: 4 }), { nil: undefined }),
  cube: fc.option(fc.nat(12), { nil: undefined }),
  result: fc.constantFrom('single' as const, 'gammon' as const, 'backgammon' as const),
});

const betweenOp = fc.record({ kind: fc.constantFrom('join' as const, 'leave' as const), who: fc.nat(POOL.length - 1) });

const gamePlan = fc.record({
  between: fc.array(betweenOp, { maxLength: 3 }),
  autos: fc.integer({ min: 0, max: 2 }),
  actions: fc.array(actionSpec, { maxLength: 16 }),
  winner: fc.nat(20),
  result: fc.constantFrom('single' as const, 'gammon' as const, 'backgammon' as const),
  answer: fc.constantFrom('take' as const, 'pass' as const),
});

const evening = fc.record({
  rules: rulesArb,
  players: fc.shuffledSubarray(POOL, { minLength: 3, maxLength: 8 }),
  stake: fc.integer({ min: 0, max: 1000 }),
  perPlayer: fc.array(fc.record({ who: fc.nat(POOL.length - 1), stake: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 4 }),
  rake: fc.constantFrom(0, 0, 250, 500, 1000),
  games: fc.array(gamePlan, { minLength: 1, maxLength: 6 }),
});

function assertSeatsInvariant(seats: ChouetteSeats, expectedPlayers?: readonly string[]): void {
  const all = seatedPlayers(seats);
  expect(new Set(all).size).toBe(all.length);
  expect(all.length).toBeLessThanOrEqual(12);
  expect(all.length).toBeGreaterThanOrEqual(1);
  if (expectedPlayers) expect([...all].sort()).toEqual([...expectedPlayers].sort());
}

/** Freezes a value and everything in it, so that any mutation by the domain throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Tries `f` on a deeply frozen `before` (the domain may not mutate its input); a
 * RuleViolation must leave `before` deep-equal to its snapshot.
 */
function attempt<T>(before: unknown, f: () => T): T | null {
  const snapshot = structuredClone(before);
  deepFreeze(before);
  try {
    return f();
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e;
    expect(e.code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(before).toEqual(snapshot);
    return null;
  }
}

type ActionSpec = typeof actionSpec extends fc.Arbitrary<infer T> ? T : never;

/**
 * A random action. "Smart" ones pick an actor that may plausibly act (the party an
 * offer waits for, the box or a member still in), so that long valid exchanges
 * happen often; the others are anything, mostly refused.
 */
function buildAction(spec: ActionSpec, people: readonly string[], setup: ChouetteGameSetup, game: ChouetteGameState): GameAction {
  const team = setup.team;
  if (spec.smart && spec.type !== 'finish') {
    if (spec.type === 'double') {
      const inPlay = game.cubes.filter((c) => c.status === 'in-play').map((c) => c.member!);
      const doublers = [setup.box, ...inPlay];
      const by = doublers[spec.pick % doublers.length];
      if (by === setup.box && spec.cubes !== undefined && inPlay.length > 0) {
        const cubes = [...new Set(spec.cubes.map((i) => inPlay[i % inPlay.length]))];
        return { type: 'double', by, cubes };
      }
      return { type: 'double', by };
    }
    const waiting = game.cubes.filter((c) => c.pending !== null);
    if (waiting.length > 0) {
      const cube = waiting[spec.pick % waiting.length];
      const offer = cube.pending!;
      let by: string;
      if (offer.byParty === 1) by = spec.who % 2 === 0 || setup.partner === null ? setup.box : setup.partner;
      else if (setup.rules.cubes === 'single' && offer.kind !== 'double') by = game.actingCaptain!;
      else by = cube.member!;
      return spec.omitCube ? { type: spec.type as 'take', by } : { type: spec.type as 'take', by, cube: cube.member! };
    }
  }
  const by = people[spec.who % people.length];
  if (spec.type === 'finish') return { type: 'finish', winner: by, result: spec.result };
  if (spec.type === 'double') {
    const cubes = spec.cubes === undefined ? undefined : spec.cubes.map((i) => (i < team.length ? team[i] : `x${i}`));
    return cubes === undefined ? { type: 'double', by } : { type: 'double', by, cubes };
  }
  const cube = spec.cube === undefined ? undefined : spec.cube < team.length ? team[spec.cube] : `x${spec.cube}`;
  return cube === undefined ? { type: spec.type as 'take', by } : { type: spec.type as 'take', by, cube };
}

function checkGameInvariant(setup: ChouetteGameSetup, game: ChouetteGameState): void {
  const inPlay = game.cubes.filter((c) => c.status === 'in-play');
  expect(game.cubes.map((c) => c.member)).toEqual(setup.team);
  if (game.status === 'in-progress') {
    expect(inPlay.length).toBeGreaterThan(0);
    expect(game.actingCaptain).toBe(inPlay[0].member);
  } else {
    expect(game.captainOutcome).not.toBeNull();
    expect(game.cubes.every((c) => c.status !== 'in-play' && c.pending === null)).toBe(true);
    expect(game.settlement.map((r) => r.member)).toEqual(setup.team);
    expect(game.settlement.every((r) => Number.isSafeInteger(r.points) && r.points >= 1)).toBe(true);
  }
  if (setup.rules.cubes === 'single') {
    // The team cube: every in-play cube at rest shows the same value and owner side.
    const atRest = inPlay.filter((c) => c.pending === null);
    if (atRest.length === inPlay.length && atRest.length > 0) {
      expect(new Set(atRest.map((c) => `${c.value}/${String(c.ownerParty)}`)).size).toBe(1);
    }
  }
  for (const c of game.cubes) {
    const limit = setup.rules.cubeLimit ?? 2 ** 50;
    expect(c.value).toBeLessThanOrEqual(limit);
  }
}

/** Answers every pending offer (take or pass) by whoever must answer it, then finishes. */
function driveToEnd(setup: ChouetteGameSetup, game: ChouetteGameState, answer: 'take' | 'pass', winner: string, result: 'single' | 'gammon' | 'backgammon') {
  let g = game;
  for (let guard = 0; g.status === 'in-progress' && guard < 50; guard++) {
    const pending = g.cubes.find((c) => c.pending !== null);
    if (!pending) {
      g = applyChouetteAction(setup, g, { type: 'finish', winner, result });
      break;
    }
    const offer = pending.pending!;
    let by: string;
    if (offer.byParty === 1) by = setup.box;
    else if (setup.rules.cubes === 'single' && offer.kind !== 'double') by = g.actingCaptain!;
    else by = pending.member!;
    g = applyChouetteAction(setup, g, { type: answer, by, cube: pending.member });
  }
  expect(g.status).toBe('finished');
  return g;
}

describe('chouette evenings (R5, R6.3)', () => {
  it("R5.7–R5.9 every seated player holds exactly one seat; R6.3 every game's payouts sum to zero; refusals change nothing", () => {
    fc.assert(
      fc.property(evening, (ev) => {
        const { rules } = ev;
        const stakes = resolveChouetteStakes(
          ev.stake,
          [...new Map(ev.perPlayer.map((p) => [POOL[p.who], p.stake])).entries()].map(([playerId, stakeMinor]) => ({ playerId, stakeMinor })),
        );
        let seats = seatInOrder(ev.players);
        assertSeatsInvariant(seats, ev.players);
        for (const plan of ev.games) {
          for (const op of plan.between) {
            const player = POOL[op.who];
            const before = seatedPlayers(seats);
            const next = attempt(seats, () => (op.kind === 'join' ? joinChouette(seats, player) : leaveChouette(seats, player, rules)));
            if (next) {
              const expected = op.kind === 'join' ? [...before, player] : before.filter((p) => p !== player);
              assertSeatsInvariant(next, expected);
              seats = next;
            }
          }
          if (!canStartGame(seats)) continue;
          const start = seatsAtGameStart(seats, rules);
          assertSeatsInvariant(start, seatedPlayers(seats));
          const setup = chouetteGameSetup(start, rules);
          const autos = Math.min(plan.autos, rules.automaticDoubles);
          const limitExp = rules.cubeLimit === null ? 50 : Math.log2(rules.cubeLimit);
          let game = newChouetteGame(setup, Math.min(autos, limitExp));
          const people = [start.box, ...(start.partner ? [start.partner] : []), ...start.line, 'stranger'];
          for (const spec of plan.actions) {
            const action = buildAction(spec, people, setup, game);
            const actionCopy = structuredClone(action);
            const next = attempt(game, () => applyChouetteAction(setup, game, action));
            expect(action).toEqual(actionCopy);
            if (next) {
              checkGameInvariant(setup, next);
              game = next;
            }
          }
          const finished = driveToEnd(setup, game, plan.answer, people[plan.winner % (people.length - 1)], plan.result);
          checkGameInvariant(setup, finished);
          // The log rebuilds the game exactly (undo = replay).
          expect(replayChouetteGame(setup, finished.actions, finished.automaticDoubles)).toEqual(finished);

          const payouts = chouetteGamePayouts(setup, finished, { stakes, rakeBasisPoints: ev.rake });
          for (const p of payouts) {
            expect(Number.isSafeInteger(p.amountMinor) && p.amountMinor > 0).toBe(true);
            expect(p.from).not.toBe(p.to);
          }
          const pairs = payouts.map((p) => [p.from, p.to].sort().join('|'));
          expect(new Set(pairs).size).toBe(pairs.length);
          expect([...chouetteGameNets(payouts).values()].reduce((a, b) => a + b, 0)).toBe(0);

          const rotated = rotateAfterGame(start, finished.captainOutcome!, rules);
          assertSeatsInvariant(rotated, seatedPlayers(start));
          if (finished.captainOutcome === 'box') expect(rotated.box).toBe(start.box);
          else expect(rotated.box).toBe(start.line[0]);
          seats = rotated;
        }
      }),
      { numRuns: RUNS },
    );
  });
});
