import {
  computePlayerStats,
  gameCounts,
  gameStatsRows,
  gameStatsRowsByDefinition,
  levelOf,
  matchStatsRows,
  MoneyNet,
  PlayerStatsInput,
  sidesOf,
  statsFromCounters,
  StatsCubeResult,
  StatsGame,
  StatsMatch,
  sumStatsRows,
  variantBreakdown,
  winnersOf,
} from './player-stats';
import { GAME_VARIANT_NAMES, RESULT_NAMES } from './game-variants';

const money = (a: string, b: string, g: Partial<StatsGame> = {}): StatsGame => ({
  kind: 'money',
  sides: [[a], [b]],
  winnerSide: 0,
  result: { result: 'single', resigned: false },
  actions: [],
  ...g,
});

const chouette = (box: string, partner: string | null, line: string[], g: Partial<StatsGame> = {}): StatsGame => ({
  kind: 'chouette',
  seats: { box, partner, line },
  winnerSide: 0,
  result: { result: 'single', resigned: false },
  actions: [],
  ...g,
});

/** A member cube's result in a chouette game (R5.4, R5.5). */
const cube = (member: string, winner: 'box' | 'member', points = 1, endedBy: 'pass' | 'finish' = 'finish'): StatsCubeResult => ({ member, winner, points, endedBy });

const stats = (playerId: string, games: StatsGame[], matches: StatsMatch[] = [], sessionNets: PlayerStatsInput['sessionNets'] = []) =>
  computePlayerStats({ playerId, games, matches, sessionNets });

describe('player statistics', () => {
  it('starts at zero with no money lines', () => {
    expect(stats('ann', [])).toEqual({
      matchesPlayed: 0,
      matchesWon: 0,
      gamesPlayed: 0,
      gamesWon: 0,
      gammonsWon: 0,
      gammonsLost: 0,
      backgammonsWon: 0,
      backgammonsLost: 0,
      doubles: 0,
      takes: 0,
      passes: 0,
      beavers: 0,
      resignationsOffered: 0,
      resignationsAccepted: 0,
      resignationsRefused: 0,
      money: [],
    });
  });

  describe('games played and won', () => {
    it('a game is won on the winning side (winner_side), lost on the other', () => {
      const games = [money('ann', 'bob', { winnerSide: 0 }), money('ann', 'bob', { winnerSide: 1 }), money('bob', 'ann', { winnerSide: 1 })];
      expect(stats('ann', games)).toMatchObject({ gamesPlayed: 3, gamesWon: 2 });
      expect(stats('bob', games)).toMatchObject({ gamesPlayed: 3, gamesWon: 1 });
    });

    it('R3.7: both players of a pair win and lose with their side', () => {
      const g: StatsGame = {
        kind: 'match',
        sides: [
          ['ann', 'bob'],
          ['cid', 'dee'],
        ],
        winnerSide: 1,
        result: { result: 'gammon' },
        actions: [],
      };
      expect(stats('bob', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 0, gammonsLost: 1 });
      expect(stats('dee', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 1, gammonsWon: 1 });
    });

    it('a game the player did not sit in does not count', () => {
      expect(stats('eve', [money('ann', 'bob')])).toMatchObject({ gamesPlayed: 0, gamesWon: 0 });
    });

    it('a finished game without a winner counts as played, neither won nor lost', () => {
      expect(stats('ann', [money('ann', 'bob', { winnerSide: null, result: { result: 'gammon' } })])).toMatchObject({
        gamesPlayed: 1,
        gamesWon: 0,
        gammonsWon: 0,
        gammonsLost: 0,
      });
    });

    it('R5.9: in a chouette the box side is the box and his partner; the team is the line', () => {
      const boxWins = chouette('box', 'par', ['cap', 'm2'], { winnerSide: 0, result: { result: 'gammon' }, cubes: [cube('cap', 'box', 2), cube('m2', 'box', 2)] });
      const teamWins = chouette('box', 'par', ['cap', 'm2'], { winnerSide: 1, cubes: [cube('cap', 'member'), cube('m2', 'member')] });
      expect(sidesOf(boxWins)).toEqual([
        ['box', 'par'],
        ['cap', 'm2'],
      ]);
      expect(stats('par', [boxWins, teamWins])).toMatchObject({ gamesPlayed: 2, gamesWon: 1, gammonsWon: 1 });
      expect(stats('box', [boxWins, teamWins])).toMatchObject({ gamesPlayed: 2, gamesWon: 1, gammonsWon: 1 });
      expect(stats('m2', [boxWins, teamWins])).toMatchObject({ gamesPlayed: 2, gamesWon: 1, gammonsLost: 1 });
    });

    it('R5.4/R5.5: a member who passed a box double lost his game, though the team went on to win', () => {
      // Box doubles every cube: Cap and M3 take (cube 2), M2 passes (pays 1). The team wins a single:
      // Cap +2, M3 +2, M2 −1; the box −2 + 1 − 2 = −3 points: he lost too.
      const g = chouette('box', null, ['cap', 'm2', 'm3'], {
        winnerSide: 1,
        actions: [{ type: 'double', by: 'box' }, { type: 'take', by: 'cap' }, { type: 'pass', by: 'm2' }, { type: 'take', by: 'm3' }, { type: 'finish' }],
        cubes: [cube('cap', 'member', 2), cube('m2', 'box', 1, 'pass'), cube('m3', 'member', 2)],
      });
      expect(winnersOf(g)).toEqual(['cap', 'm3']);
      expect(stats('m2', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 0, passes: 1 });
      expect(stats('cap', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 1 });
      expect(stats('box', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 0, doubles: 1 });
      expect(Object.fromEntries(gameCounts([g]))).toEqual({
        box: { played: 1, won: 0 },
        cap: { played: 1, won: 1 },
        m2: { played: 1, won: 0 },
        m3: { played: 1, won: 1 },
      });
    });

    it('R5.4: a member whose double the box passed won his game, though the box beat the rest', () => {
      // M2 doubles, the box passes (M2 +1); the box wins a single against Cap and M3 (+1 each):
      // the box nets +1 point, so he and his partner won; M2 won too.
      const g = chouette('box', 'par', ['cap', 'm2', 'm3'], {
        winnerSide: 0,
        cubes: [cube('cap', 'box'), cube('m2', 'member', 1, 'pass'), cube('m3', 'box')],
      });
      expect(winnersOf(g)).toEqual(['box', 'par', 'm2']);
      expect(stats('m2', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 1 });
      expect(stats('cap', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 0 });
      expect(stats('par', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 1 });
    });

    it('R5.5: the box (and his partner) won or lost by his net in points over every cube; even, neither', () => {
      // The box beats Cap's cube 4 and loses M2's cube 1 and M3's cube 2: +4 − 1 − 2 = +1.
      const won = chouette('box', 'par', ['cap', 'm2', 'm3'], { winnerSide: 1, cubes: [cube('cap', 'box', 4, 'pass'), cube('m2', 'member'), cube('m3', 'member', 2)] });
      // The box beats Cap's cube 2 and loses M2's cube 2: even.
      const even = chouette('box', 'par', ['cap', 'm2'], { winnerSide: 1, cubes: [cube('cap', 'box', 2, 'pass'), cube('m2', 'member', 2)] });
      expect(winnersOf(won)).toEqual(['box', 'par', 'm2', 'm3']);
      expect(winnersOf(even)).toEqual(['m2']);
      expect(stats('box', [won, even])).toMatchObject({ gamesPlayed: 2, gamesWon: 1 });
      expect(stats('par', [won, even])).toMatchObject({ gamesPlayed: 2, gamesWon: 1 });
      expect(stats('cap', [won, even])).toMatchObject({ gamesPlayed: 2, gamesWon: 0 });
    });

    it('a chouette without a partner: the box side is the box alone', () => {
      expect(winnersOf(chouette('box', null, ['cap', 'm2'], { winnerSide: 0, cubes: [cube('cap', 'box'), cube('m2', 'box')] }))).toEqual(['box']);
      expect(winnersOf(chouette('box', null, ['cap', 'm2'], { winnerSide: 1, cubes: [cube('cap', 'member'), cube('m2', 'member')] }))).toEqual(['cap', 'm2']);
    });

    it('a chouette game without cube results (never finished) has no winner', () => {
      const g = chouette('box', null, ['cap', 'm2'], { winnerSide: null, result: null, cubes: [] });
      expect(winnersOf(g)).toEqual([]);
      expect(stats('box', [g])).toMatchObject({ gamesPlayed: 1, gamesWon: 0 });
    });
  });

  describe('gammons and backgammons', () => {
    it('R1.1: counted from the result of games won and lost', () => {
      const games = [
        money('ann', 'bob', { winnerSide: 0, result: { result: 'gammon' } }),
        money('ann', 'bob', { winnerSide: 1, result: { result: 'gammon' } }),
        money('ann', 'bob', { winnerSide: 1, result: { result: 'gammon' } }),
        money('ann', 'bob', { winnerSide: 0, result: { result: 'backgammon' } }),
        money('ann', 'bob', { winnerSide: 1, result: { result: 'backgammon' } }),
        money('ann', 'bob', { winnerSide: 0, result: { result: 'single' } }),
      ];
      expect(stats('ann', games)).toMatchObject({ gammonsWon: 1, gammonsLost: 2, backgammonsWon: 1, backgammonsLost: 1 });
      expect(stats('bob', games)).toMatchObject({ gammonsWon: 2, gammonsLost: 1, backgammonsWon: 1, backgammonsLost: 1 });
    });

    it('R1.4: a resignation counts at the level resigned', () => {
      const g = money('ann', 'bob', { winnerSide: 0, result: { result: 'backgammon', resigned: true } });
      expect(levelOf(g)).toBe('backgammon');
      expect(stats('ann', [g])).toMatchObject({ backgammonsWon: 1 });
      expect(stats('bob', [g])).toMatchObject({ backgammonsLost: 1 });
    });

    it("R1.3/R5.4: in a chouette a member who passed lost a single; the finish's level counts for the cubes it decided", () => {
      // Box doubles; M2 passes (single), Cap and M3 take; the team wins a gammon at the finish.
      // Box: −4 + 1 − 4 = −7 points, lost at the finish's level.
      const g = chouette('box', null, ['cap', 'm2', 'm3'], {
        winnerSide: 1,
        result: { result: 'gammon', resigned: false },
        cubes: [cube('cap', 'member', 4), cube('m2', 'box', 1, 'pass'), cube('m3', 'member', 4)],
      });
      expect(stats('m2', [g])).toMatchObject({ gamesWon: 0, gammonsWon: 0, gammonsLost: 0 });
      expect(stats('cap', [g])).toMatchObject({ gamesWon: 1, gammonsWon: 1, gammonsLost: 0 });
      expect(stats('box', [g])).toMatchObject({ gamesWon: 0, gammonsWon: 0, gammonsLost: 1 });
      // The box wins by passes but loses the finish's gammon against the last cube: he won the
      // game, and not by that gammon.
      const mixed = chouette('box', null, ['cap', 'm2', 'm3'], {
        winnerSide: 1,
        result: { result: 'gammon', resigned: false },
        cubes: [cube('cap', 'box', 4, 'pass'), cube('m2', 'box', 4, 'pass'), cube('m3', 'member', 2)],
      });
      expect(stats('box', [mixed])).toMatchObject({ gamesWon: 1, gammonsWon: 0, gammonsLost: 0 });
      expect(stats('m3', [mixed])).toMatchObject({ gamesWon: 1, gammonsWon: 1 });
      expect(stats('cap', [mixed])).toMatchObject({ gamesWon: 0, gammonsLost: 0 });
    });

    it('R1.3: a game ended by a pass is single', () => {
      const g = money('ann', 'bob', {
        winnerSide: 0,
        result: null,
        actions: [
          { type: 'double', by: 'ann' },
          { type: 'pass', by: 'bob' },
        ],
      });
      expect(levelOf(g)).toBe('single');
      expect(stats('ann', [g])).toMatchObject({ gamesWon: 1, gammonsWon: 0, backgammonsWon: 0 });
    });
  });

  describe('cube actions', () => {
    it("counts the player's own doubles, takes, passes and beavers; a raccoon counts as a beaver", () => {
      const g = money('ann', 'bob', {
        actions: [
          { type: 'double', by: 'ann' },
          { type: 'beaver', by: 'bob' },
          { type: 'raccoon', by: 'ann' },
          { type: 'take', by: 'bob' },
          { type: 'double', by: 'bob' },
          { type: 'take', by: 'ann' },
          { type: 'double', by: 'ann' },
          { type: 'pass', by: 'bob' },
        ],
      });
      expect(stats('ann', [g])).toMatchObject({ doubles: 2, takes: 1, passes: 0, beavers: 1 });
      expect(stats('bob', [g])).toMatchObject({ doubles: 1, takes: 1, passes: 1, beavers: 1 });
    });

    it('R3.10 counts the resignations a player offered: accepted by his finish, refused by his resign-refused actions', () => {
      // Bob offers a gammon (refused), then a single (refused), then a single again, which Ann accepts.
      const g = money('ann', 'bob', {
        result: { result: 'single', resigned: true, offeredBy: 'bob' },
        actions: [{ type: 'resign-refused', by: 'bob' }, { type: 'double', by: 'ann' }, { type: 'take', by: 'bob' }, { type: 'resign-refused', by: 'bob' }, { type: 'finish' }],
      });
      expect(stats('bob', [g])).toMatchObject({ resignationsOffered: 3, resignationsAccepted: 1, resignationsRefused: 2 });
      expect(stats('ann', [g])).toMatchObject({ resignationsOffered: 0, resignationsAccepted: 0, resignationsRefused: 0, doubles: 1 });
      // A resignation recorded without offeredBy counts for nobody.
      const anonymous = money('ann', 'bob', { result: { result: 'gammon', resigned: true } });
      expect(stats('bob', [anonymous])).toMatchObject({ resignationsOffered: 0, resignationsAccepted: 0 });
      expect(gameStatsRows(g)).toEqual(gameStatsRowsByDefinition(g));
    });

    it("a finish is not a cube action, and another player's actions are not counted", () => {
      const g = money('ann', 'bob', { actions: [{ type: 'finish' }, { type: 'double', by: 'cid' }] });
      expect(stats('ann', [g])).toMatchObject({ doubles: 0, takes: 0, passes: 0, beavers: 0 });
    });

    it('R5.3: one box double addressed to several cubes is one double', () => {
      const g = chouette('box', null, ['cap', 'm2'], {
        actions: [
          { type: 'double', by: 'box' },
          { type: 'take', by: 'cap' },
          { type: 'take', by: 'm2' },
        ],
      });
      expect(stats('box', [g])).toMatchObject({ doubles: 1 });
      expect(stats('m2', [g])).toMatchObject({ takes: 1 });
    });
  });

  describe('matches', () => {
    it('counts finished matches played and won by side', () => {
      const matches: StatsMatch[] = [
        { sides: [['ann'], ['bob']], winnerSide: 0 },
        { sides: [['bob'], ['ann']], winnerSide: 0 },
        {
          sides: [
            ['ann', 'cid'],
            ['bob', 'dee'],
          ],
          winnerSide: 0,
        },
        { sides: [['cid'], ['dee']], winnerSide: 1 },
      ];
      expect(stats('ann', [], matches)).toMatchObject({ matchesPlayed: 3, matchesWon: 2 });
      expect(stats('bob', [], matches)).toMatchObject({ matchesPlayed: 3, matchesWon: 1 });
      expect(stats('dee', [], matches)).toMatchObject({ matchesPlayed: 2, matchesWon: 1 });
    });

    it('a match without a winner counts as played only', () => {
      expect(stats('ann', [], [{ sides: [['ann'], ['bob']], winnerSide: null }])).toMatchObject({ matchesPlayed: 1, matchesWon: 0 });
    });
  });

  describe('money', () => {
    it('R6.2: sums the session nets per currency, by currency code', () => {
      const s = stats(
        'ann',
        [],
        [],
        [
          { currency: 'USD', netMinor: 500 },
          { currency: 'EUR', netMinor: -300 },
          { currency: 'USD', netMinor: -1200 },
          { currency: 'CHF', netMinor: 0 },
        ],
      );
      expect(s.money).toEqual([
        { currency: 'CHF', netMinor: 0 },
        { currency: 'EUR', netMinor: -300 },
        { currency: 'USD', netMinor: -700 },
      ]);
    });

    it('R6.2: sums exactly near 2^53 and refuses a total beyond it', () => {
      const max = Number.MAX_SAFE_INTEGER;
      expect(
        stats(
          'ann',
          [],
          [],
          [
            { currency: 'USD', netMinor: max },
            { currency: 'USD', netMinor: -1 },
          ],
        ).money,
      ).toEqual([{ currency: 'USD', netMinor: max - 1 }]);
      expect(() =>
        stats(
          'ann',
          [],
          [],
          [
            { currency: 'USD', netMinor: max },
            { currency: 'USD', netMinor: 1 },
          ],
        ),
      ).toThrow(/outside/);
    });
  });

  describe('games per player (standings)', () => {
    it('counts every seated player once per game and the winners of each', () => {
      const counts = gameCounts([
        money('ann', 'bob', { winnerSide: 0 }),
        money('ann', 'bob', { winnerSide: 1 }),
        chouette('cid', 'dee', ['ann', 'eve'], { winnerSide: 0, cubes: [cube('ann', 'box'), cube('eve', 'box')] }),
        money('ann', 'bob', { winnerSide: null }),
      ]);
      expect(Object.fromEntries(counts)).toEqual({
        ann: { played: 4, won: 1 },
        bob: { played: 3, won: 1 },
        cid: { played: 1, won: 1 },
        dee: { played: 1, won: 1 },
        eve: { played: 1, won: 0 },
      });
    });
  });
});

describe('R8.9: statistics per variant', () => {
  const games: StatsGame[] = [
    money('ann', 'bob', { points: 2, result: { result: 'gammon', resigned: false } }),
    money('ann', 'bob', { winnerSide: 1, points: 1, result: null }),
    money('ann', 'bob', { variant: 'long-nardy', points: 2, result: { result: 'mars', resigned: false } }),
    money('ann', 'bob', { variant: 'long-nardy', winnerSide: 1, points: 1, result: { result: 'oin', resigned: true } }),
    money('ann', 'bob', { variant: 'plakoto', winnerSide: null, points: 0, result: { result: 'draw', resigned: false } }),
    money('ann', 'bob', { variant: 'plakoto', winnerSide: 1, points: 2, result: { result: 'mother', resigned: false } }),
    money('ann', 'bob', { variant: 'tavla-31', points: 7, result: { result: 'single', resigned: false } }),
  ];

  it('splits games, wins, losses, draws and points by the game’s own variant, backgammon first', () => {
    expect(variantBreakdown('ann', games)).toEqual([
      { variant: 'backgammon', gamesPlayed: 2, gamesWon: 1, gamesLost: 1, draws: 0, pointsWon: 2, pointsLost: 1 },
      { variant: 'long-nardy', gamesPlayed: 2, gamesWon: 1, gamesLost: 1, draws: 0, pointsWon: 2, pointsLost: 1 },
      { variant: 'plakoto', gamesPlayed: 2, gamesWon: 0, gamesLost: 1, draws: 1, pointsWon: 0, pointsLost: 2 },
      { variant: 'tavla-31', gamesPlayed: 1, gamesWon: 1, gamesLost: 0, draws: 0, pointsWon: 7, pointsLost: 0 },
    ]);
    expect(variantBreakdown('bob', games)[2]).toEqual({ variant: 'plakoto', gamesPlayed: 2, gamesWon: 1, gamesLost: 0, draws: 1, pointsWon: 2, pointsLost: 0 });
    expect(variantBreakdown('eve', games)).toEqual([]);
  });

  it('R8.3: a draw is played, neither won nor lost, in the totals and the standings alike', () => {
    const draw = games[4];
    expect(stats('ann', [draw])).toMatchObject({ gamesPlayed: 1, gamesWon: 0, gammonsWon: 0, gammonsLost: 0 });
    expect(winnersOf(draw)).toEqual([]);
    expect(Object.fromEntries(gameCounts([draw]))).toEqual({ ann: { played: 1, won: 0 }, bob: { played: 1, won: 0 } });
  });

  it('keeps the totals over every variant: a variant result is no gammon, a Portes gammon is one', () => {
    expect(stats('ann', games)).toMatchObject({ gamesPlayed: 7, gamesWon: 3, gammonsWon: 1, gammonsLost: 0, backgammonsWon: 0, backgammonsLost: 0 });
    expect(stats('ann', [money('ann', 'bob', { variant: 'portes', result: { result: 'gammon', resigned: false } })])).toMatchObject({ gammonsWon: 1 });
  });

  it('a backgammon-only player has one line, whose games are the totals; a chouette is backgammon with each cube’s points', () => {
    const g = chouette('box', null, ['cap', 'm2'], { winnerSide: 0, cubes: [cube('cap', 'box', 2), cube('m2', 'member', 1, 'pass')] });
    expect(variantBreakdown('box', [g])).toEqual([{ variant: 'backgammon', gamesPlayed: 1, gamesWon: 1, gamesLost: 0, draws: 0, pointsWon: 2, pointsLost: 1 }]);
    expect(variantBreakdown('m2', [g])).toEqual([{ variant: 'backgammon', gamesPlayed: 1, gamesWon: 1, gamesLost: 0, draws: 0, pointsWon: 1, pointsLost: 0 }]);
    const bg = games.slice(0, 2);
    expect(variantBreakdown('ann', bg)[0]).toMatchObject({ gamesPlayed: stats('ann', bg).gamesPlayed, gamesWon: stats('ann', bg).gamesWon });
  });
});

describe('the statistics read model: counters per game, summed', () => {
  const games: StatsGame[] = [
    money('ann', 'bob', {
      points: 2,
      result: { result: 'gammon', resigned: false },
      actions: [
        { type: 'double', by: 'ann' },
        { type: 'take', by: 'bob' },
      ],
    }),
    money('ann', 'bob', {
      winnerSide: 1,
      points: 1,
      result: null,
      actions: [
        { type: 'double', by: 'ann' },
        { type: 'pass', by: 'bob' },
      ],
    }),
    money('ann', 'bob', { variant: 'plakoto', winnerSide: null, points: 0, result: { result: 'draw', resigned: false } }),
    money('ann', 'bob', { variant: 'long-nardy', points: 2, result: { result: 'mars', resigned: false } }),
    chouette('ann', null, ['bob', 'cat'], { winnerSide: 0, cubes: [cube('bob', 'box', 2), cube('cat', 'member', 1, 'pass')], actions: [{ type: 'beaver', by: 'cat' }] }),
    chouette('bob', 'cat', ['ann'], { winnerSide: 1, result: { result: 'backgammon', resigned: false }, cubes: [cube('ann', 'member', 3)] }),
  ];
  const matches: Array<{ match: StatsMatch; variant: string }> = [
    { match: { sides: [['ann'], ['bob']], winnerSide: 0 }, variant: 'backgammon' },
    { match: { sides: [['ann', 'cat'], ['bob']], winnerSide: 1 }, variant: 'tavli' },
  ];
  const rows = [...games.flatMap((g) => gameStatsRows(g)), ...matches.flatMap(({ match, variant }) => matchStatsRows(match, variant))];

  it.each(['ann', 'bob', 'cat', 'dan'])('the sum of every game’s and match’s counters is what the whole history gives (%s)', (p) => {
    const mine = sumStatsRows(rows).filter((r) => r.playerId === p);
    const money: MoneyNet[] = [{ currency: 'USD', netMinor: -250 }];
    const fromCounters = statsFromCounters(mine, money);
    expect(fromCounters.stats).toEqual(computePlayerStats({ playerId: p, games, matches: matches.map((m) => m.match), sessionNets: [{ currency: 'USD', netMinor: -250 }] }));
    expect(fromCounters.byVariant).toEqual(variantBreakdown(p, games));
  });

  it('a match or money game adds what the definitions give over it, whatever its shape (R1.1–R1.4, R8.3)', () => {
    // Games of every shape: winner or none, level, resignation, points, variant, seating and cube actions, drawn from a fixed seed.
    let seed = 17;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const people = ['ann', 'bob', 'cat', 'dan'];
    const types = ['double', 'take', 'pass', 'beaver', 'raccoon', 'finish', 'resign-refused'];
    for (let i = 0; i < 2000; i++) {
      const winnerSide = [0, 1, null][rnd(3)] as 0 | 1 | null;
      const resigned = rnd(2) === 0;
      const offeredBy = resigned && rnd(2) === 0 ? { offeredBy: people[rnd(people.length)] } : {};
      const result = rnd(5) === 0 ? null : { result: RESULT_NAMES[rnd(RESULT_NAMES.length)], resigned, ...offeredBy };
      const sides: [string[], string[]] = rnd(4) === 0 ? [['ann', 'cat'], ['bob']] : rnd(6) === 0 ? [['ann'], ['ann']] : [['ann'], ['bob']];
      const game: StatsGame = {
        kind: rnd(2) === 0 ? 'money' : 'match',
        sides: rnd(20) === 0 ? null : sides,
        winnerSide,
        points: rnd(6) === 0 ? null : rnd(9),
        variant: rnd(3) === 0 ? undefined : GAME_VARIANT_NAMES[rnd(GAME_VARIANT_NAMES.length)],
        result,
        actions: Array.from({ length: rnd(6) }, () => ({ type: types[rnd(types.length)], by: people[rnd(people.length)] })),
      };
      expect(gameStatsRows(game)).toEqual(gameStatsRowsByDefinition(game));
    }
  });

  it('a void takes back exactly what its game added', () => {
    const added = sumStatsRows([...rows, ...gameStatsRows(games[0])]);
    const voided = sumStatsRows([...added, ...sumStatsRows(gameStatsRows(games[0]), -1)]);
    expect(voided).toEqual(sumStatsRows(rows));
  });

  it('counts a match under its table’s variant, with no games (a Tavli match’s games are Portes, Plakoto or Fevga)', () => {
    expect(matchStatsRows(matches[1].match, 'tavli')).toEqual([
      expect.objectContaining({ playerId: 'ann', variant: 'tavli', matchesPlayed: 1, matchesWon: 0, gamesPlayed: 0 }),
      expect.objectContaining({ playerId: 'bob', variant: 'tavli', matchesPlayed: 1, matchesWon: 1, gamesPlayed: 0 }),
      expect.objectContaining({ playerId: 'cat', variant: 'tavli', matchesPlayed: 1, matchesWon: 0, gamesPlayed: 0 }),
    ]);
  });
});
