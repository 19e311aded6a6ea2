/**
 * Property-based tests of the cube/game engine, payouts and match scoring, over
 * random mixes of valid and invalid actions.
 */
import fc from 'fast-check';
import { RuleViolation } from './errors';
import { applyAction, GameAction, GameSetup, GameState, newGame, replay } from './game';
import { createMatch, MatchEvent, nextMatchGameSetup, scoreMatch } from './match';
import { matchStakePayouts, moneyGamePayouts, Payout } from './payouts';
import { effectiveCubeLimit, isPowerOfTwo, resolveMatchRules, resolveMoneyRules } from './rules';
import { sideOf } from './sides';
import { PlayerId } from './types';

const POOL = ['a', 'b', 'c', 'd', 'x'] as const;
const RUNS = 300;

interface Scenario {
  readonly setup: GameSetup;
  readonly automaticDoubles: number;
}

const moneyScenario: fc.Arbitrary<Scenario> = fc
  .record({
    jacoby: fc.boolean(),
    beavers: fc.boolean(),
    raccoons: fc.boolean(),
    cubeLimit: fc.constantFrom(2, 4, 8, 64, null),
    automaticDoubles: fc.integer({ min: 0, max: 2 }),
    backgammonMultiplier: fc.constantFrom(2 as const, 3 as const),
    reported: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ reported, ...r }) => {
    const limitExponent = r.cubeLimit === null ? 2 : Math.log2(r.cubeLimit);
    const automaticDoubles = Math.min(r.automaticDoubles, limitExponent);
    const rules = resolveMoneyRules({ ...r, raccoons: r.beavers && r.raccoons, automaticDoubles });
    return {
      setup: { table: 'money', sides: [['a'], ['b']], rules, doubling: 'allowed', match: null },
      automaticDoubles: Math.min(reported, automaticDoubles),
    };
  });

const matchScenario: fc.Arbitrary<Scenario> = fc
  .record({
    pairs: fc.boolean(),
    doubling: fc.constantFrom('allowed' as const, 'allowed' as const, 'crawford' as const, 'one-point-match' as const),
    toGo: fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })),
    deadCube: fc.constantFrom('refuse' as const, 'allow' as const),
    cubeLimit: fc.constantFrom(4, 64),
    backgammonMultiplier: fc.constantFrom(2 as const, 3 as const),
  })
  .map((m) => ({
    setup: {
      table: 'match',
      sides: m.pairs
        ? [
            ['a', 'c'],
            ['b', 'd'],
          ]
        : [['a'], ['b']],
      rules: resolveMatchRules({ deadCube: m.deadCube, cubeLimit: m.cubeLimit, backgammonMultiplier: m.backgammonMultiplier }),
      doubling: m.doubling,
      match: { pointsToGo: m.toGo, deadCube: m.deadCube },
    },
    automaticDoubles: 0,
  }));

// Mostly the two players every game has; sometimes a partner (in a pair) or a stranger.
const player: fc.Arbitrary<PlayerId> = fc.oneof({ weight: 8, arbitrary: fc.constantFrom<PlayerId>(POOL[0], POOL[1]) }, { weight: 2, arbitrary: fc.constantFrom<PlayerId>(...POOL.slice(2)) });
const action: fc.Arbitrary<GameAction> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('double' as const), by: player }) },
  {
    weight: 8,
    arbitrary: fc.record({ type: fc.constantFrom('take' as const, 'pass' as const, 'beaver' as const, 'raccoon' as const), by: player }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('finish' as const),
      winner: player,
      result: fc.constantFrom('single' as const, 'gammon' as const, 'backgammon' as const),
      resigned: fc.boolean(),
    }),
  },
);

/** Every payout is a transfer: positive amounts, and each player's net over the game sums to zero overall. */
function checkPayouts(payouts: readonly Payout[], expectedTotal: bigint): void {
  const net = new Map<string, bigint>();
  let total = 0n;
  for (const p of payouts) {
    expect(Number.isSafeInteger(p.amountMinor) && p.amountMinor > 0).toBe(true);
    expect(p.from).not.toBe(p.to);
    net.set(p.from, (net.get(p.from) ?? 0n) - BigInt(p.amountMinor));
    net.set(p.to, (net.get(p.to) ?? 0n) + BigInt(p.amountMinor));
    total += BigInt(p.amountMinor);
  }
  expect([...net.values()].reduce((s, v) => s + v, 0n)).toBe(0n);
  expect(total).toBe(expectedTotal);
}

describe('properties of the cube and game engine (R1, R2)', () => {
  it('R2.2/R2.4/R2.5/R2.6 random action logs: cube invariants, untouched state on refusal, zero-sum payouts', () => {
    fc.assert(
      fc.property(
        fc.oneof(moneyScenario, matchScenario),
        fc.array(action, { minLength: 5, maxLength: 40 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        ({ setup, automaticDoubles }, actions, stake) => {
          let state: GameState = newGame(setup, automaticDoubles);
          const limit = effectiveCubeLimit(setup.rules);
          // R2.3/R2.4/R2.5: the cube goes to whoever took a plain double or beavered; the
          // original doubler's take of a beaver leaves it with the beaverer, and a take of a
          // raccoon is by the beaverer's side again.
          let expectedOwner: PlayerId | null = null;

          for (const a of actions) {
            const before = structuredClone(state);
            const given = structuredClone(a);
            let next: GameState;
            try {
              next = applyAction(setup, state, a);
            } catch (e) {
              if (!(e instanceof RuleViolation)) throw e;
              expect(e.code).toMatch(/^[A-Z_]+$/);
              if (e.rule !== null) expect(e.rule).toMatch(/^R\d\.\d+$/);
              expect(state).toEqual(before);
              expect(a).toEqual(given);
              if (before.status === 'finished') expect(e.code).toBe('GAME_FINISHED');
              continue;
            }
            expect(state).toEqual(before);
            const pendingKind = state.cubes[0].pending?.kind;
            if (a.type === 'beaver') expectedOwner = a.by;
            if (a.type === 'take' && pendingKind !== 'beaver') expectedOwner = a.by;
            state = next;

            const cube = state.cubes[0];
            expect(isPowerOfTwo(cube.value)).toBe(true);
            expect(cube.value).toBeLessThanOrEqual(limit);
            expect(cube.value).toBeGreaterThanOrEqual(2 ** automaticDoubles);
            if (cube.pending) {
              expect(cube.pending.value).toBe(cube.value * 2);
              expect(cube.pending.value).toBeLessThanOrEqual(limit);
            }
            expect(cube.owner).toBe(expectedOwner);
            expect(cube.ownerParty).toBe(cube.owner === null ? null : sideOf(setup.sides, cube.owner));
            if (setup.doubling !== 'allowed') expect(cube.value).toBe(1);
          }

          if (state.status === 'finished') {
            expect(Number.isSafeInteger(state.points) && (state.points ?? 0) >= 1).toBe(true);
            expect(state.settlement).toHaveLength(1);
            expect(state.settlement[0].to).toBe(setup.sides[state.winnerSide ?? 0]);
            checkPayouts(moneyGamePayouts(state, stake), BigInt(stake) * BigInt(state.points ?? 0));
            checkPayouts(matchStakePayouts(setup.sides, state.winnerSide ?? 0, stake), BigInt(stake));
          }
          // undo is a replay: replaying the recorded log rebuilds the same state
          expect(replay(setup, state.actions, automaticDoubles)).toEqual(state);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('properties of match scoring (R3.2, R3.4, R3.6)', () => {
  const event: fc.Arbitrary<MatchEvent> = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('game' as const),
        winnerSide: fc.constantFrom(0 as const, 1 as const),
        points: fc.integer({ min: 1, max: 4 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('penalty' as const),
        side: fc.constantFrom(0 as const, 1 as const),
        points: fc.integer({ min: 1, max: 3 }),
      }),
    },
  );

  it('R3.4 the Crawford game occurs at most once, and exactly where a score first sits at target − 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }).map((n) => 2 * n + 1),
        fc.boolean(),
        fc.array(event, { maxLength: 30 }),
        (target, crawford, events) => {
          const match = createMatch({ sides: [['a'], ['b']], target, rules: { crawford } });
          const history: MatchEvent[] = [];
          for (const e of events) {
            const prior = scoreMatch(match, history);
            if (prior.status === 'finished') {
              expect(() => scoreMatch(match, [...history, e])).toThrow(RuleViolation);
              break;
            }
            history.push(e);
          }
          const s = scoreMatch(match, history);
          const crawfordGames = s.games.filter((g) => g.crawford);
          expect(crawfordGames.length).toBeLessThanOrEqual(1);
          const firstAtMinusOne = s.games.findIndex((g) => g.scoreBefore.includes(target - 1));
          const expected = crawford && target > 1 && firstAtMinusOne >= 0 ? firstAtMinusOne : -1;
          expect(s.games.findIndex((g) => g.crawford)).toBe(expected);
          if (s.nextGame?.crawford) {
            expect(crawfordGames).toHaveLength(0);
            expect(s.score).toContain(target - 1);
          }
          // real totals: every point counted
          const totals = [0, 0];
          for (const e of history) if (e.kind !== 'forfeit') totals[e.kind === 'game' ? e.winnerSide : e.side] += e.points;
          expect(s.score).toEqual(totals);
          expect(s.status === 'finished').toBe(s.winnerSide !== null);
          if (s.endedBy?.kind === 'points') expect(s.score[s.winnerSide ?? 0]).toBeGreaterThanOrEqual(target);
          if (s.endedBy?.kind === 'forfeit') expect(2 * s.penaltiesAgainst[s.winnerSide === 0 ? 1 : 0]).toBeGreaterThan(target);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('R3.4/R3.5 played out game by game, only the Crawford game refuses doubles, once per match', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).map((n) => 2 * n + 1),
        fc.array(fc.array(action, { maxLength: 8 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.constantFrom(0 as const, 1 as const), { minLength: 25, maxLength: 25 }),
        (target, games, winners) => {
          const match = createMatch({ sides: [['a'], ['b']], target });
          const history: MatchEvent[] = [];
          let crawfordGames = 0;
          for (const [i, actions] of games.entries()) {
            const score = scoreMatch(match, history);
            if (score.status === 'finished') break;
            const setup = nextMatchGameSetup(match, score);
            let state = newGame(setup);
            if (state.crawford) crawfordGames++;
            for (const a of actions) {
              try {
                state = applyAction(setup, state, a);
              } catch (e) {
                if (!(e instanceof RuleViolation)) throw e;
                const fairDouble = a.type === 'double' && state.status === 'in-progress' && sideOf(setup.sides, a.by) !== null && !state.cubes[0].pending;
                if (fairDouble && state.crawford) expect(e.code).toBe('CRAWFORD_NO_DOUBLE');
                if (!state.crawford) expect(e.code).not.toBe('CRAWFORD_NO_DOUBLE');
              }
            }
            if (state.status !== 'finished') {
              const pending = state.cubes[0].pending;
              if (pending) state = applyAction(setup, state, { type: 'take', by: pending.byParty === 0 ? 'b' : 'a' });
              state = applyAction(setup, state, { type: 'finish', winner: winners[i] === 0 ? 'a' : 'b', result: 'single' });
            }
            history.push({ kind: 'game', winnerSide: state.winnerSide ?? 0, points: state.points ?? 1 });
          }
          expect(crawfordGames).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
