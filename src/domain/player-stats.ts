/**
 * Player statistics and the games a player won, over plain data.
 *
 * Pure: no framework, no I/O. The caller brings the player's finished games (with
 * who sat on which side), his finished matches (with the winning side already
 * scored by R3.2/R3.6, see src/domain/match.ts), and his session nets.
 *
 * Definitions (the API documents the same ones on `PlayerStatsDto`):
 *
 * - Only finished games count: voided and abandoned games change nothing (R6.3),
 *   so they are not counted either. The caller passes finished games only.
 * - Sides. At a match or money table the two sides are the table's sides (a side
 *   may be a pair, R3.7). In a chouette side 0 is the box side (the box and his
 *   partner, R5.9) and side 1 is the team (the line), as the game was seated at its
 *   start; `winnerSide` is 0 or 1 in the same sense (0 = box side won against the
 *   captain, see chouetteWinnerSide).
 * - A game is won when the player is on the winning side, lost when on the other.
 * - Chouettes (R5.4, R5.5): each member plays his own cube against the box, so his
 *   game is his cube's: won when his cube won (the box passed his double, or his
 *   side won the `finish` while his cube was in play), lost when it lost (he passed
 *   a box double, or the box won the `finish`), whatever the rest of the team did.
 *   The box plays every cube: his game is won when his cubes net him points
 *   (Σ points won − Σ points lost, before stakes: R5.11 only prices each pair),
 *   lost when they net him a loss, neither when even. His partner (R5.9) shares his
 *   money, so he wins and loses with him. `cubes` carries each cube's result.
 * - Gammons and backgammons: the level of a game that ended by `finish`
 *   (`result.result`, R1.1); a resignation counts at the level resigned (R1.4); a
 *   game ended by a pass has no result and is single (R1.3). It is the level
 *   played, before Jacoby (R1.5) or `backgammonMultiplier` (R1.2) reduce its value.
 *   In a chouette the level is that of how the player's own game was decided: a
 *   member whose cube a pass decided won or lost a single; the box (and partner)
 *   count the `finish`'s level only when the `finish` went the way of his game
 *   (he won the game and the box side won the `finish`, or lost both).
 * - Cube actions: the actions of those games whose `by` is the player: `double`,
 *   `take`, `pass`, and `beaver`, where a raccoon (R2.5) counts as a beaver (both
 *   are instant redoubles that keep the cube). One double is one action however
 *   many member cubes it addressed (a box double in a chouette, a team double in
 *   `single` mode recorded by the captain for all).
 * - Resignations (R3.10): offers the player made, and of those the ones accepted (a
 *   resigned `finish` whose `offeredBy` is he) and refused (his `resign-refused`
 *   actions); made = accepted + refused. A resignation recorded without `offeredBy`
 *   counts for nobody.
 * - Matches: finished matches (a score reached the target, R3.2, or penalties
 *   forfeited it, R3.6) with the player on one side; won when on the winning side.
 * - Money: the player's session nets (after rake, match stakes included) summed per
 *   currency.
 * - Variants (R8, R8.9): every game counts above whatever its variant (a `gammon` in
 *   Portes is a gammon). `variantBreakdown` splits the games by the game's own
 *   variant (a Tavli table's games are Portes, Plakoto or Fevga; chouettes and games
 *   from before variants are backgammon): games, wins, losses, draws and points won
 *   and lost. A Plakoto draw (R8.3) has no winner: played, neither won nor lost, and
 *   worth 0 points. Points are what the game scored (`points`: cube × result, a
 *   Tavla 31 game's `checkersLeft`, R8.6) to the winning side; in a chouette a member
 *   counts his own cube's points, the box and his partner each cube's.
 */
import { GAME_VARIANT_NAMES, type GameVariantName, type ResultName } from './game-variants';
import type { TableKind } from './table-kinds';
import { fromBigMinor } from './money';
import { compareParty } from './settlement';
import type { PlayerId, SideIndex } from './types';

export type StatsTableKind = TableKind;

/** A chouette game's seats at its start (R5.1, R5.9). */
export interface StatsChouetteSeats {
  readonly box: PlayerId;
  readonly partner: PlayerId | null;
  readonly line: readonly PlayerId[];
}

/**
 * One member cube's result in a finished chouette game (R5.4, R5.5): who won it, for
 * how many points, and whether a pass or the `finish` decided it.
 */
export interface StatsCubeResult {
  readonly member: PlayerId;
  readonly winner: 'box' | 'member';
  readonly points: number;
  readonly endedBy: 'pass' | 'finish';
}

/** One action of a game's log, as stored; only `type` and `by` matter here. */
export interface StatsAction {
  readonly type: string;
  readonly by?: string | null;
}

/** A finished game, as the statistics need it. */
export interface StatsGame {
  readonly kind: StatsTableKind;
  /** Match and money tables: the table's two sides. */
  readonly sides?: readonly [readonly PlayerId[], readonly PlayerId[]] | null;
  /** Chouettes: the seats the game was played with. */
  readonly seats?: StatsChouetteSeats | null;
  /** Chouettes: each member cube's result, team order (empty when the game has none, e.g. abandoned). */
  readonly cubes?: readonly StatsCubeResult[] | null;
  /** 0 or 1 (a chouette: 0 = box side, 1 = team); null when the game has no winner. */
  readonly winnerSide: number | null;
  /** Set when the game ended by `finish`; null after a pass. R8: a variant's result (oin, mars, mother, draw) too. */
  readonly result: { readonly result: ResultName; readonly resigned?: boolean; readonly offeredBy?: PlayerId } | null;
  /** R8: the game's own variant; absent = backgammon (chouettes, rows from before variants). */
  readonly variant?: GameVariantName;
  /** What the game scored to its winner (0 for a draw); absent or null where unknown (a chouette: see `cubes`). */
  readonly points?: number | null;
  readonly actions: readonly StatsAction[];
}

/** A finished match: its sides and the side that won it. */
export interface StatsMatch {
  readonly sides: readonly [readonly PlayerId[], readonly PlayerId[]];
  readonly winnerSide: SideIndex | null;
}

/** A player's net in one session, in that session's currency. */
export interface StatsSessionNet {
  readonly currency: string;
  readonly netMinor: number;
}

export interface MoneyNet {
  currency: string;
  netMinor: number;
}

export interface PlayerStats {
  matchesPlayed: number;
  matchesWon: number;
  gamesPlayed: number;
  gamesWon: number;
  gammonsWon: number;
  gammonsLost: number;
  backgammonsWon: number;
  backgammonsLost: number;
  doubles: number;
  takes: number;
  passes: number;
  /** Beavers and raccoons (R2.4, R2.5). */
  beavers: number;
  /** R3.10: resignations offered (accepted + refused). */
  resignationsOffered: number;
  resignationsAccepted: number;
  resignationsRefused: number;
  /** Per currency, by currency code. */
  money: MoneyNet[];
}

export interface PlayerStatsInput {
  readonly playerId: PlayerId;
  readonly games: readonly StatsGame[];
  readonly matches: readonly StatsMatch[];
  readonly sessionNets: readonly StatsSessionNet[];
}

/** The game's two sides: the table's, or a chouette's box side (box + partner) and team (line). */
export function sidesOf(game: Pick<StatsGame, 'kind' | 'sides' | 'seats'>): [PlayerId[], PlayerId[]] {
  if (game.kind === 'chouette') {
    const seats = game.seats;
    if (!seats) return [[], []];
    return [[seats.box, ...(seats.partner === null ? [] : [seats.partner])], [...seats.line]];
  }
  const sides = game.sides;
  if (!sides) return [[], []];
  return [[...sides[0]], [...sides[1]]];
}

/** The side (0 or 1) the player sat on, or null when he is on neither. */
function sideOfPlayer(sides: readonly [readonly PlayerId[], readonly PlayerId[]], playerId: PlayerId): SideIndex | null {
  if (sides[0].includes(playerId)) return 0;
  if (sides[1].includes(playerId)) return 1;
  return null;
}

/** A player's result in one game: won, lost, or neither (no winner, an even chouette box, not seated). */
export type GameOutcome = 'won' | 'lost' | null;

type OutcomeGame = Pick<StatsGame, 'kind' | 'sides' | 'seats' | 'winnerSide' | 'cubes'>;

/**
 * R5.5: the box's net in points over his cubes (each cube's points to whoever won it);
 * positive when the box came out ahead. Stakes (R5.11) are left out: they price the
 * pairs, they do not change who won.
 */
function boxPointsNet(cubes: readonly StatsCubeResult[]): number {
  return cubes.reduce((net, c) => (c.winner === 'box' ? net + c.points : net - c.points), 0);
}

/**
 * The player's result in a finished game. Match and money tables: his side's. A
 * chouette (R5.4, R5.5): a member's is his own cube's; the box's and his partner's is
 * the sign of the box's net in points over every cube (even: neither).
 */
function outcomeOf(game: OutcomeGame, playerId: PlayerId): GameOutcome {
  if (game.kind === 'chouette') {
    const seats = game.seats;
    const cubes = game.cubes ?? [];
    if (!seats || cubes.length === 0) return null;
    if (playerId === seats.box || playerId === seats.partner) {
      const net = boxPointsNet(cubes);
      return net > 0 ? 'won' : net < 0 ? 'lost' : null;
    }
    const own = cubes.find((c) => c.member === playerId);
    if (!own) return null;
    return own.winner === 'member' ? 'won' : 'lost';
  }
  const side = sideOfPlayer(sidesOf(game), playerId);
  if (side === null || (game.winnerSide !== 0 && game.winnerSide !== 1)) return null;
  return game.winnerSide === side ? 'won' : 'lost';
}

/** The points a game shows: a two-sided game's; none at a chouette, whose cubes each score apart (R5.5). */
export function pointsShown(game: { readonly kind: StatsTableKind; readonly points: number | null }): number | null {
  return game.kind === 'chouette' ? null : game.points;
}

/**
 * Everyone who won a finished game, in seat order (side 0, then side 1): the winning
 * side at a match or money table; in a chouette every member whose own cube won, and
 * the box and his partner when the box came out ahead (R5.4, R5.5). Empty when nobody won.
 */
export function winnersOf(game: OutcomeGame): PlayerId[] {
  if (game.kind !== 'chouette') {
    if (game.winnerSide !== 0 && game.winnerSide !== 1) return [];
    return sidesOf(game)[game.winnerSide];
  }
  const [boxSide, team] = sidesOf(game);
  return [...boxSide, ...team].filter((p) => outcomeOf(game, p) === 'won');
}

/**
 * The level at which the player's game was won or lost (R1.1–R1.4): the game's level
 * at a match or money table; in a chouette (R5.4) single for a member whose cube a
 * pass decided, and for the box side the `finish`'s level only when the `finish` went
 * the way of his game (otherwise single: passes decided it).
 */
function playerLevel(game: StatsGame, playerId: PlayerId, outcome: GameOutcome): ResultName {
  if (game.kind !== 'chouette' || outcome === null) return levelOf(game);
  const seats = game.seats!;
  if (playerId === seats.box || playerId === seats.partner) {
    const finishWentHisWay = game.result !== null && (game.winnerSide === 0) === (outcome === 'won');
    return finishWentHisWay ? levelOf(game) : 'single';
  }
  const own = (game.cubes ?? []).find((c) => c.member === playerId);
  return own && own.endedBy === 'finish' ? levelOf(game) : 'single';
}

/** The level a game counts at: its `finish` result (resigned or not), single after a pass. */
export function levelOf(game: Pick<StatsGame, 'result'>): ResultName {
  return game.result?.result ?? 'single';
}

/** Which counter an action of the player's adds to; raccoons count as beavers. */
const CUBE_COUNTER: Readonly<Record<string, 'doubles' | 'takes' | 'passes' | 'beavers'>> = {
  double: 'doubles',
  take: 'takes',
  pass: 'passes',
  beaver: 'beavers',
  raccoon: 'beavers',
};

/** Adds the player's own cube actions in `actions` to his doubles, takes, passes and beavers. */
function countCubeActions(counters: Record<'doubles' | 'takes' | 'passes' | 'beavers', number>, actions: readonly StatsAction[], playerId: PlayerId): void {
  for (const action of actions) {
    if (action.by !== playerId) continue;
    const counter = CUBE_COUNTER[action.type];
    if (counter) counters[counter]++;
  }
}

type ResignationCounters = Record<'resignationsOffered' | 'resignationsAccepted' | 'resignationsRefused', number>;

/** R3.10: adds the player's resignation offers in the game: the one its finish accepted, and those refused. */
function countResignations(counters: ResignationCounters, game: Pick<StatsGame, 'result' | 'actions'>, playerId: PlayerId): void {
  if (game.result?.resigned === true && game.result.offeredBy === playerId) {
    counters.resignationsAccepted++;
    counters.resignationsOffered++;
  }
  for (const action of game.actions) {
    if (action.type === 'resign-refused' && action.by === playerId) {
      counters.resignationsRefused++;
      counters.resignationsOffered++;
    }
  }
}

/** A player's statistics from his finished games, finished matches and session nets. */
export function computePlayerStats(input: PlayerStatsInput): PlayerStats {
  const { playerId } = input;
  const stats: PlayerStats = {
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
  };

  for (const game of input.games) {
    const side = sideOfPlayer(sidesOf(game), playerId);
    if (side === null) continue;
    stats.gamesPlayed++;
    const outcome = outcomeOf(game, playerId);
    const won = outcome === 'won';
    const lost = outcome === 'lost';
    if (won) stats.gamesWon++;
    const level = playerLevel(game, playerId, outcome);
    if (level === 'gammon') {
      if (won) stats.gammonsWon++;
      if (lost) stats.gammonsLost++;
    } else if (level === 'backgammon') {
      if (won) stats.backgammonsWon++;
      if (lost) stats.backgammonsLost++;
    }
    countCubeActions(stats, game.actions, playerId);
    countResignations(stats, game, playerId);
  }

  for (const match of input.matches) {
    const side = sideOfPlayer(match.sides, playerId);
    if (side === null) continue;
    stats.matchesPlayed++;
    if (match.winnerSide === side) stats.matchesWon++;
  }

  const totals = new Map<string, bigint>();
  for (const s of input.sessionNets) {
    totals.set(s.currency, (totals.get(s.currency) ?? 0n) + BigInt(s.netMinor));
  }
  stats.money = [...totals.entries()].sort(([a], [b]) => compareParty(a, b)).map(([currency, net]) => ({ currency, netMinor: fromBigMinor(net, 'netMinor') }));
  return stats;
}

/** One variant's share of a player's finished games (R8, R8.9). */
export interface VariantStats {
  variant: GameVariantName;
  gamesPlayed: number;
  gamesWon: number;
  gamesLost: number;
  /** Plakoto draws (R8.3): played, neither won nor lost. */
  draws: number;
  /** Points the player's games of this variant scored for him. */
  pointsWon: number;
  /** Points they scored against him. */
  pointsLost: number;
}

/**
 * The points a finished game scored for and against the player: the game's `points`
 * to the winning side at a match or money table; in a chouette (R5.4, R5.5) a
 * member's own cube's points, and for the box and his partner each cube's, to
 * whoever won it. A draw and a game without a winner score nothing.
 */
function pointsOf(game: StatsGame, playerId: PlayerId, outcome: GameOutcome): { won: number; lost: number } {
  if (game.kind === 'chouette') {
    const seats = game.seats;
    const cubes = game.cubes ?? [];
    if (!seats) return { won: 0, lost: 0 };
    const boxSide = playerId === seats.box || playerId === seats.partner;
    const own = boxSide ? cubes : cubes.filter((c) => c.member === playerId);
    const mine = (c: StatsCubeResult) => (c.winner === 'box') === boxSide;
    return {
      won: own.filter(mine).reduce((n, c) => n + c.points, 0),
      lost: own.filter((c) => !mine(c)).reduce((n, c) => n + c.points, 0),
    };
  }
  const points = game.points ?? 0;
  return { won: outcome === 'won' ? points : 0, lost: outcome === 'lost' ? points : 0 };
}

/**
 * R8.9: the player's finished games split by the game's own variant, in the order
 * of the variants' list (backgammon first); only the variants he played.
 */
export function variantBreakdown(playerId: PlayerId, games: readonly StatsGame[]): VariantStats[] {
  const byVariant = new Map<GameVariantName, VariantStats>();
  for (const game of games) {
    if (sideOfPlayer(sidesOf(game), playerId) === null) continue;
    const variant = game.variant ?? 'backgammon';
    let v = byVariant.get(variant);
    if (!v) byVariant.set(variant, (v = { variant, gamesPlayed: 0, gamesWon: 0, gamesLost: 0, draws: 0, pointsWon: 0, pointsLost: 0 }));
    v.gamesPlayed++;
    const outcome = outcomeOf(game, playerId);
    if (outcome === 'won') v.gamesWon++;
    if (outcome === 'lost') v.gamesLost++;
    if (game.result?.result === 'draw') v.draws++;
    const points = pointsOf(game, playerId, outcome);
    v.pointsWon += points.won;
    v.pointsLost += points.lost;
  }
  return GAME_VARIANT_NAMES.flatMap((name) => byVariant.get(name) ?? []);
}

/** Games played and won per player over a set of finished games (a session's, for its standings). */
export function gameCounts(games: readonly OutcomeGame[]): Map<PlayerId, { played: number; won: number }> {
  const counts = new Map<PlayerId, { played: number; won: number }>();
  const entry = (p: PlayerId) => {
    let c = counts.get(p);
    if (!c) counts.set(p, (c = { played: 0, won: 0 }));
    return c;
  };
  for (const game of games) {
    const sides = sidesOf(game);
    for (const p of new Set([...sides[0], ...sides[1]])) entry(p).played++;
    for (const p of new Set(winnersOf(game))) entry(p).won++;
  }
  return counts;
}

/**
 * A player's counters over some finished games and matches of one variant: what the
 * read model keeps per (player, variant), so that a player's statistics are a handful
 * of rows however long his history. Every counter is a sum over games (or matches), so
 * the counters of a set of games are the sums of each game's, and a void takes back
 * exactly what its game added.
 */
export interface StatsCounters {
  gamesPlayed: number;
  gamesWon: number;
  gamesLost: number;
  draws: number;
  pointsWon: number;
  pointsLost: number;
  gammonsWon: number;
  gammonsLost: number;
  backgammonsWon: number;
  backgammonsLost: number;
  doubles: number;
  takes: number;
  passes: number;
  beavers: number;
  matchesPlayed: number;
  matchesWon: number;
  resignationsOffered: number;
  resignationsAccepted: number;
  resignationsRefused: number;
}

/**
 * One player's counters in one variant: a game's own (R8: a Tavli table's games are
 * Portes, Plakoto or Fevga), a match's its table's (`tavli` for a Tavli match).
 */
export interface StatsRow extends StatsCounters {
  playerId: PlayerId;
  variant: string;
}

/** Every counter at zero, in the order the read model stores them (STATS_COUNTERS); typed, so none is left out. */
const ZERO_COUNTERS: Readonly<StatsCounters> = Object.freeze({
  gamesPlayed: 0,
  gamesWon: 0,
  gamesLost: 0,
  draws: 0,
  pointsWon: 0,
  pointsLost: 0,
  gammonsWon: 0,
  gammonsLost: 0,
  backgammonsWon: 0,
  backgammonsLost: 0,
  doubles: 0,
  takes: 0,
  passes: 0,
  beavers: 0,
  matchesPlayed: 0,
  matchesWon: 0,
  resignationsOffered: 0,
  resignationsAccepted: 0,
  resignationsRefused: 0,
});

/** The counters' names, in the order the read model stores them. */
export const STATS_COUNTERS = Object.keys(ZERO_COUNTERS) as ReadonlyArray<keyof StatsCounters>;

const zeroCounters = (): StatsCounters => ({ ...ZERO_COUNTERS });

/**
 * What one finished game adds to the counters of each player seated in it (both sides;
 * in a chouette the box, his partner and the team as seated at its start), by the
 * definitions of computePlayerStats and variantBreakdown (the same functions, over
 * this one game). Players by id.
 */
export function gameStatsRows(game: StatsGame): StatsRow[] {
  return game.kind === 'chouette' ? gameStatsRowsByDefinition(game) : tableGameStatsRows(game);
}

/**
 * gameStatsRows of a match or money game, worked out directly (every command that ends
 * a game runs it): a side's players share the outcome (R1.1–R1.4: the winning side
 * wins the game's points at its level; R8.3: a draw is played, neither won nor lost),
 * and each counts his own cube actions. Equal to gameStatsRowsByDefinition (unit-tested
 * over every shape of game).
 */
function tableGameStatsRows(game: StatsGame): StatsRow[] {
  const sides = sidesOf(game);
  const players = [...new Set([...sides[0], ...sides[1]])].sort(compareParty);
  const variant = game.variant ?? 'backgammon';
  const level = levelOf(game);
  const points = game.points ?? 0;
  const draw = game.result?.result === 'draw' ? 1 : 0;
  return players.map((playerId) => {
    const row: StatsRow = { ...zeroCounters(), playerId, variant, gamesPlayed: 1, draws: draw };
    const side = sides[0].includes(playerId) ? 0 : 1;
    if (game.winnerSide === 0 || game.winnerSide === 1) {
      const won = game.winnerSide === side;
      if (won) {
        row.gamesWon = 1;
        row.pointsWon = points;
        if (level === 'gammon') row.gammonsWon = 1;
        if (level === 'backgammon') row.backgammonsWon = 1;
      } else {
        row.gamesLost = 1;
        row.pointsLost = points;
        if (level === 'gammon') row.gammonsLost = 1;
        if (level === 'backgammon') row.backgammonsLost = 1;
      }
    }
    countCubeActions(row, game.actions, playerId);
    countResignations(row, game, playerId);
    return row;
  });
}

/** gameStatsRows by the definitions themselves: computePlayerStats and variantBreakdown over this one game. */
export function gameStatsRowsByDefinition(game: StatsGame): StatsRow[] {
  const [a, b] = sidesOf(game);
  const players = [...new Set([...a, ...b])].sort(compareParty);
  const variant = game.variant ?? 'backgammon';
  return players.map((playerId) => {
    const s = computePlayerStats({ playerId, games: [game], matches: [], sessionNets: [] });
    const v = variantBreakdown(playerId, [game])[0];
    return {
      ...zeroCounters(),
      playerId,
      variant,
      gamesPlayed: s.gamesPlayed,
      gamesWon: s.gamesWon,
      gamesLost: v?.gamesLost ?? 0,
      draws: v?.draws ?? 0,
      pointsWon: v?.pointsWon ?? 0,
      pointsLost: v?.pointsLost ?? 0,
      gammonsWon: s.gammonsWon,
      gammonsLost: s.gammonsLost,
      backgammonsWon: s.backgammonsWon,
      backgammonsLost: s.backgammonsLost,
      doubles: s.doubles,
      takes: s.takes,
      passes: s.passes,
      beavers: s.beavers,
      resignationsOffered: s.resignationsOffered,
      resignationsAccepted: s.resignationsAccepted,
      resignationsRefused: s.resignationsRefused,
    };
  });
}

/** What one finished match (R3.2, R3.6) of a variant adds to its players' counters; players by id. */
export function matchStatsRows(match: StatsMatch, variant: string): StatsRow[] {
  const players = [...new Set([...match.sides[0], ...match.sides[1]])].sort(compareParty);
  return players.map((playerId) => {
    const s = computePlayerStats({ playerId, games: [], matches: [match], sessionNets: [] });
    return { ...zeroCounters(), playerId, variant, matchesPlayed: s.matchesPlayed, matchesWon: s.matchesWon };
  });
}

/** Rows added up by (player, variant), `sign` times (1 to add, −1 to take back); players by id, then variant. */
export function sumStatsRows(rows: Iterable<StatsRow>, sign: 1 | -1 = 1): StatsRow[] {
  const acc = new Map<string, StatsRow>();
  for (const r of rows) {
    const key = `${r.playerId}/${r.variant}`;
    let t = acc.get(key);
    if (!t) acc.set(key, (t = { ...zeroCounters(), playerId: r.playerId, variant: r.variant }));
    for (const k of STATS_COUNTERS) t[k] += sign * r[k];
  }
  return [...acc.values()].sort((x, y) => compareParty(x.playerId, y.playerId) || compareParty(x.variant, y.variant));
}

/**
 * A player's statistics from his counters (one row per variant he has any in) and his
 * money per currency: the same figures computePlayerStats and variantBreakdown give
 * over all his games, matches and session nets.
 */
export function statsFromCounters(rows: readonly StatsRow[], money: readonly MoneyNet[]): { stats: PlayerStats; byVariant: VariantStats[] } {
  const t = zeroCounters();
  for (const r of rows) for (const k of STATS_COUNTERS) t[k] += r[k];
  const stats: PlayerStats = {
    matchesPlayed: t.matchesPlayed,
    matchesWon: t.matchesWon,
    gamesPlayed: t.gamesPlayed,
    gamesWon: t.gamesWon,
    gammonsWon: t.gammonsWon,
    gammonsLost: t.gammonsLost,
    backgammonsWon: t.backgammonsWon,
    backgammonsLost: t.backgammonsLost,
    doubles: t.doubles,
    takes: t.takes,
    passes: t.passes,
    beavers: t.beavers,
    resignationsOffered: t.resignationsOffered,
    resignationsAccepted: t.resignationsAccepted,
    resignationsRefused: t.resignationsRefused,
    money: [...money].sort((a, b) => compareParty(a.currency, b.currency)),
  };
  const byVariant = GAME_VARIANT_NAMES.flatMap((variant) => {
    const played = rows.filter((r) => r.variant === variant && r.gamesPlayed > 0);
    if (played.length === 0) return [];
    const sum = (k: keyof StatsCounters) => played.reduce((n, r) => n + r[k], 0);
    return [
      {
        variant,
        gamesPlayed: sum('gamesPlayed'),
        gamesWon: sum('gamesWon'),
        gamesLost: sum('gamesLost'),
        draws: sum('draws'),
        pointsWon: sum('pointsWon'),
        pointsLost: sum('pointsLost'),
      },
    ];
  });
  return { stats, byVariant };
}
