import { Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { ErrorCode } from '../common/error-codes';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { Db } from '../db/db.service';
import type { ReadSource } from '../common/read-source';
import type { Reads } from '../db/tx';
import { gameCounts, pointsShown, sidesOf, winnersOf } from '../domain/player-stats';
import { HOUSE } from '../domain/settlement';
import { matchRecords, rankStandings, type StandingMatch } from '../domain/standings';
import { ClubsRepository } from '../clubs';
import { SessionsRepository } from '../sessions';
import { SettlementRepository, type SessionMatchRow } from '../settlement';
import { SessionGameCsvRow } from './session-games-csv';
import { SessionGameDto, StandingsDto } from './standings.dto';
import { SessionGameRow, StandingsRepository } from './standings.repository';
import { playerNames } from '../players';
import { matchEnd, type MatchEndDto, scoreOf } from '../tables';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every game of a session: more than any club night, fewer than would strain one answer. */
const ALL = 1_000_000_000;

/** The players of a game in side order (a chouette: box, partner, team in line order). */
const playersOf = (g: SessionGameRow) => [...sidesOf(g)[0], ...sidesOf(g)[1]];

/** How the game ended: a `finish` leaves a result; a pass (or passes) leaves a winner without one. */
function endedBy(g: SessionGameRow): 'finish' | 'pass' | null {
  if (g.result) return 'finish';
  return g.winnerSide === 0 || g.winnerSide === 1 ? 'pass' : null;
}

/** A finished match's end (R3.2, R3.9), for the standings' records and its last game's row. */
function finishedMatch(m: SessionMatchRow): { standing: StandingMatch; end: MatchEndDto } | null {
  const score = scoreOf(m.setup, m.games, m.state);
  const end = matchEnd(m, score);
  if (score.status !== 'finished' || score.winnerSide === null || score.endedBy === null || end === null) return null;
  return { standing: { sides: m.setup.sides, winnerSide: score.winnerSide, endedBy: score.endedBy }, end };
}

/** How the matches of these rows ended, by table id, for the rows that end a finished match. */
async function matchEnds(tx: Reads, settlement: SettlementRepository, clubId: string, sessionId: string, rows: readonly SessionGameRow[]): Promise<Map<string, MatchEndDto>> {
  const ids = [...new Set(rows.filter((g) => g.endsMatch).map((g) => g.tableId))];
  const out = new Map<string, MatchEndDto>();
  for (const m of await settlement.finishedMatches(tx, clubId, sessionId, ids)) {
    const f = finishedMatch(m);
    if (f) out.set(m.id, f.end);
  }
  return out;
}

function gameDto(g: SessionGameRow, ends: Map<string, MatchEndDto>): SessionGameDto {
  const end = g.endsMatch ? ends.get(g.tableId) : undefined;
  return {
    tableKind: g.kind,
    tableId: g.tableId,
    gameNo: g.gameNo,
    variant: g.variant,
    status: g.status,
    players: playersOf(g),
    winnerSide: g.winnerSide === 0 || g.winnerSide === 1 ? g.winnerSide : null,
    winners: winnersOf(g),
    result: g.result ? { ...g.result } : null,
    endedBy: endedBy(g),
    points: pointsShown(g),
    voidReason: g.voidReason,
    startedAt: g.startedAt.toISOString(),
    endedAt: isoOrNull(g.endedAt),
    matchEndedBy: end ? { ...end } : null,
  };
}

/** Session standings and the session's games (JSON or CSV). Reads only. */
@Injectable()
export class StandingsService {
  constructor(
    private readonly db: Db,
    private readonly repo: StandingsRepository,
    private readonly sessions: SessionsRepository,
    private readonly settlement: SettlementRepository,
    private readonly clubs: ClubsRepository,
  ) {}

  /**
   * The end-of-night board: the statement's players (seated, or in its ledger or
   * payments; not the house) with their nets from the session's running totals and
   * the finished games each played and won, ranked (src/domain/standings.ts).
   */
  standings(auth: KeyAuth, sessionId: string, source: ReadSource | null = null): Promise<StandingsDto> {
    return this.db.readFrom(source, async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const { nets } = await this.settlement.sessionTotals(tx, auth.clubId, s.id);
      const payments = await this.settlement.payments(tx, auth.clubId, s.id);
      const parties = new Set<string>([...nets.keys(), ...payments.flatMap((p) => [p.fromParty, p.toParty])]);
      parties.delete(HOUSE);
      const players = await this.settlement.sessionPlayers(tx, auth.clubId, s.id, [...parties]);
      const counts = gameCounts(await this.repo.sessionGames(tx, auth.clubId, s.id, null, ALL, ['finished']));
      const records = matchRecords((await this.settlement.finishedMatches(tx, auth.clubId, s.id)).flatMap((m) => finishedMatch(m)?.standing ?? []));
      const items = rankStandings(
        players.map((p) => ({
          playerId: p.playerId,
          name: p.name,
          netMinor: nets.get(p.playerId) ?? 0,
          gamesPlayed: counts.get(p.playerId)?.played ?? 0,
          gamesWon: counts.get(p.playerId)?.won ?? 0,
          matches: records.get(p.playerId),
        })),
      );
      return { sessionId: s.id, sessionName: s.name, currency: s.currency, items };
    });
  }

  /** The session's finished, voided and abandoned games, a page at a time. */
  games(auth: KeyAuth, sessionId: string, limit: number, cursor?: string, source: ReadSource | null = null): Promise<Page<SessionGameDto>> {
    const key = decodeCursor(cursor, ['string', 'number']);
    if (key && (!UUID_RE.test(key[0] as string) || !Number.isSafeInteger(key[1]))) {
      throw new ApiError(ErrorCode.INVALID_CURSOR, 'The cursor is not one this API gave out; start again without it.');
    }
    const after = key ? { tableId: key[0] as string, gameNo: key[1] as number } : null;
    return this.db.readFrom(source, async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const rows = await this.repo.sessionGames(tx, auth.clubId, s.id, after, limit + 1);
      const ends = await matchEnds(tx, this.settlement, auth.clubId, s.id, rows.slice(0, limit));
      return toPage(
        rows,
        limit,
        (g) => [g.tableId, g.gameNo],
        (g) => gameDto(g, ends),
      );
    });
  }

  /** Every game of the session for the CSV, and the club's time zone it writes times in. */
  gamesForCsv(auth: KeyAuth, sessionId: string, source: ReadSource | null = null): Promise<{ sessionId: string; timeZone: string; rows: SessionGameCsvRow[] }> {
    return this.db.readFrom(source, async (tx) => {
      const s = await this.sessions.get(tx, auth.clubId, sessionId);
      const club = await this.clubs.find(tx, auth.clubId);
      if (!club) throw notFound('Club');
      const all = await this.repo.sessionGames(tx, auth.clubId, s.id, null, ALL);
      const ends = await matchEnds(tx, this.settlement, auth.clubId, s.id, all);
      const games = all.map((g) => gameDto(g, ends));
      const names = await playerNames(tx, auth.clubId, [...new Set(games.flatMap((g) => g.players))]);
      const named = (ids: string[]) => ids.map((id) => ({ id, name: names.get(id) ?? id }));
      const rows = games.map((g) => ({
        tableKind: g.tableKind,
        tableId: g.tableId,
        gameNo: g.gameNo,
        variant: g.variant,
        status: g.status,
        startedAt: g.startedAt,
        endedAt: g.endedAt,
        players: named(g.players),
        winnerSide: g.winnerSide,
        winners: named(g.winners),
        result: g.result ? { result: g.result.result, resigned: g.result.resigned, checkersLeft: g.result.checkersLeft ?? null } : null,
        endedBy: g.endedBy,
        points: g.points,
        voidReason: g.voidReason,
        matchEndedBy: g.matchEndedBy,
      }));
      return { sessionId: s.id, timeZone: club.timezone, rows };
    });
  }
}
