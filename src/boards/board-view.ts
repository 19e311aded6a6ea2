/**
 * The board's answer, put together from the API's own views (the same scores, cubes,
 * seats and brackets a client reads elsewhere) with names in place of ids. Pure: the
 * service reads, this maps.
 */
import type { ChouetteDto, GameDto, MatchDto, MoneyGameDto } from '../tables';
import type { StandingsDto } from '../standings';
import type { TournamentDto } from '../tournaments';
import type { BoardLinkRow, BoardResultRow } from './boards.repository';
import type { BoardCubeDto, BoardDto, BoardFlightDto, BoardLinkDto, BoardResultDto, BoardTableDto, BoardTournamentDto } from './boards.dto';

/** Tables shown at most, and finished games. */
export const BOARD_TABLES = 48;
export const BOARD_RESULTS = 10;

export interface BoardInputs {
  link: BoardLinkRow;
  clubName: string;
  asOf: string;
  matches: MatchDto[];
  moneyGames: MoneyGameDto[];
  chouettes: ChouetteDto[];
  /** The game in progress of each table that has one, by table id. */
  current: Map<string, GameDto>;
  tournament: TournamentDto | null;
  standings: StandingsDto | null;
  results: BoardResultRow[];
  names: Map<string, string>;
}

export function boardLinkView(l: BoardLinkRow): BoardLinkDto {
  return {
    id: l.id,
    name: l.name,
    sessionId: l.sessionId,
    tournamentId: l.tournamentId,
    hint: l.hint,
    createdAt: l.createdAt.toISOString(),
    revokedAt: l.revokedAt?.toISOString() ?? null,
  };
}

/** Every player id the board names. */
export function boardPlayerIds(i: Omit<BoardInputs, 'names' | 'link' | 'clubName' | 'asOf'>): string[] {
  const ids = new Set<string>();
  for (const m of i.matches) m.sides.flat().forEach((p) => ids.add(p));
  for (const m of i.moneyGames) m.players.forEach((p) => ids.add(p));
  for (const c of i.chouettes) [c.box, c.partner, ...c.team].forEach((p) => p && ids.add(p));
  for (const g of i.current.values()) for (const c of g.cubes) [c.owner, c.member].forEach((p) => p && ids.add(p));
  for (const f of i.tournament?.flights ?? []) {
    for (const r of f.rounds) for (const p of r.pairings) p.slots.forEach((s) => s && ids.add(s));
    f.standings.forEach((s) => ids.add(s.playerId));
  }
  for (const r of i.results) r.sides.flat().forEach((p) => ids.add(p));
  return [...ids];
}

export function boardView(i: BoardInputs): BoardDto {
  const name = (id: string | null) => (id === null ? null : (i.names.get(id) ?? '?'));
  const named = (id: string) => i.names.get(id) ?? '?';
  const cubes = (tableId: string, gameNo: number | null): BoardCubeDto[] => {
    const g = gameNo === null ? undefined : i.current.get(tableId);
    return (g?.cubes ?? []).filter((c) => c.status === 'in-play').map((c) => ({ value: c.value, owner: name(c.owner), member: name(c.member) }));
  };
  const base = { box: null, partner: null, captain: null, team: [], tournament: null, score: null, target: null, crawford: false };
  const tables: BoardTableDto[] = [
    ...i.matches.map((m): BoardTableDto => ({
      ...base,
      kind: 'match',
      id: m.id,
      variant: m.variant,
      status: m.status,
      sides: m.sides.map((s) => s.map(named)),
      score: m.score,
      target: m.target,
      crawford: m.currentGameNo !== null && i.current.get(m.id)?.crawford === true,
      gameNo: m.currentGameNo,
      cubes: cubes(m.id, m.currentGameNo),
      tournament: m.tournament && i.tournament?.id === m.tournament.id ? `${i.tournament.name} · round ${m.tournament.round}` : m.tournament ? `round ${m.tournament.round}` : null,
    })),
    ...i.moneyGames.map((m): BoardTableDto => ({
      ...base,
      kind: 'money-game',
      id: m.id,
      variant: m.variant,
      status: m.status,
      sides: m.players.map((p) => [named(p)]),
      gameNo: m.currentGameNo,
      cubes: cubes(m.id, m.currentGameNo),
    })),
    ...i.chouettes.map((c): BoardTableDto => ({
      ...base,
      kind: 'chouette',
      id: c.id,
      variant: 'backgammon',
      status: c.status,
      sides: [[c.box, ...(c.partner ? [c.partner] : [])].map(named), c.team.map(named)],
      gameNo: c.currentGameNo,
      cubes: cubes(c.id, c.currentGameNo),
      box: named(c.box),
      partner: name(c.partner),
      captain: name(c.captain),
      team: c.team.map(named),
    })),
  ].slice(0, BOARD_TABLES);

  const standings = i.standings?.items.map((s) => ({ rank: s.rank, name: s.name, netMinor: s.netMinor, gamesPlayed: s.gamesPlayed, gamesWon: s.gamesWon })) ?? [];

  const results: BoardResultDto[] = i.results.slice(0, BOARD_RESULTS).map((r) => ({
    endedAt: r.endedAt.toISOString(),
    kind: r.kind === 'money' ? 'money-game' : r.kind,
    players: r.sides.map((s) => s.map(named).join(' & ')),
    winner: r.winnerSide === null ? null : (r.sides[r.winnerSide] ?? []).map(named).join(' & '),
    // A chouette's members each play their own cube (R5.5): no one number for the game.
    points: r.kind === 'chouette' ? null : r.points,
  }));

  return {
    board: boardLinkView(i.link),
    clubName: i.clubName,
    sessionName: i.standings?.sessionName ?? null,
    currency: i.standings?.currency ?? null,
    asOf: i.asOf,
    tables,
    tournament: i.tournament ? tournamentBoard(i.tournament, named) : null,
    standings,
    results,
  };
}

function tournamentBoard(t: TournamentDto, named: (id: string) => string): BoardTournamentDto {
  return {
    id: t.id,
    name: t.name,
    format: t.format,
    status: t.status,
    flights: t.flights.map((f): BoardFlightDto => ({
      name: f.name,
      status: f.status,
      rounds: f.rounds.map((r) => ({
        no: r.no,
        pairings: r.pairings.map((p) => ({
          no: p.no,
          sides: [p.slots[0] ?? null, p.slots[1] ?? null].map((s) => (s === null ? '' : named(s))),
          score: p.score,
          winnerSide: p.bye !== null ? 0 : p.winnerSide,
          bye: p.bye !== null,
        })),
      })),
      standings: f.standings.map((s) => ({ place: s.place, name: named(s.playerId), wins: s.wins, buchholz: s.buchholz })),
    })),
  };
}
