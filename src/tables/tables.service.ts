import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError, notFound } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { MatExportError, renderMat } from '../domain/mat-export';
import { matMatch } from './match-export';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { CommandContext, Db, Replayed } from '../db/db.service';
import { assertStakeHasSession } from '../domain/session';
import { assertMatchNotOver, assertPenaltyBetweenGames } from '../domain/table-commands';
import type { MoneyTable } from '../domain/money-game';
import { LedgerRepository, minorFromDb } from '../ledger';
import { SessionEntity } from '../sessions';
import { MatchTableSetup, matchStakePostings, newMatchSetup, newMoneySetup, scoreOf, StoredPenalty } from './engines';
import { penaltiesOf } from './games.service';
import { RatingsService } from '../ratings';
import { assertPlayersInClub, SessionGate } from './table-context';
import { GameEntity, newTableRow, TableEntity, TableKind } from './table.entity';
import { CreateMatchDto, CreateMoneyGameDto, GameSummaryDto, MatchDto, MoneyGameDto, PenaltyDto, TableListQuery } from './tables.dto';
import { TablesRepository } from './tables.repository';
import { playerNames } from '../players';

/** A game as listed in its table's state. */
export function gameSummary(g: GameEntity): GameSummaryDto {
  return {
    gameNo: g.gameNo,
    status: g.status,
    crawford: (g.setup as { doubling?: string }).doubling === 'crawford',
    result: (g.result as GameSummaryDto['result']) ?? null,
    points: g.points,
    winnerSide: (g.winnerSide ?? null) as 0 | 1 | null,
    startedAt: g.startedAt.toISOString(),
    endedAt: isoOrNull(g.endedAt),
  };
}

/** Creating and reading matches and money games; match penalties (R3.6). */
@Injectable()
export class TablesService {
  constructor(
    private readonly db: Db,
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly sessions: SessionGate,
    private readonly ratings: RatingsService,
  ) {}

  createMatch(cmd: CommandContext, auth: KeyAuth, dto: CreateMatchDto): Promise<MatchDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const setup = newMatchSetup({ sides: dto.sides, target: dto.target, rules: dto.rules as Record<string, unknown> | undefined });
      assertStakeHasSession('match', dto.stakeMinor, dto.sessionId);
      const players = [...setup.sides[0], ...setup.sides[1]];
      await assertPlayersInClub(m, auth.clubId, players);
      const session = await this.sessions.openSession(m, auth.clubId, dto.sessionId ?? null);
      const t = newTableRow(auth.clubId, 'match', session?.id ?? null, setup, { penalties: [] }, dto.stakeMinor ?? null);
      await this.tables.insert(m, t, players);
      return this.matchDto(m, t, session);
    });
  }

  createMoneyGame(cmd: CommandContext, auth: KeyAuth, dto: CreateMoneyGameDto): Promise<MoneyGameDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const setup = newMoneySetup({ players: dto.players, stakeMinor: dto.stakeMinor, rules: dto.rules as Record<string, unknown> | undefined });
      await assertPlayersInClub(m, auth.clubId, [...setup.players]);
      const session = await this.sessions.openSession(m, auth.clubId, dto.sessionId);
      const t = newTableRow(auth.clubId, 'money', session?.id ?? null, setup, {}, dto.stakeMinor);
      await this.tables.insert(m, t, [...setup.players]);
      return this.moneyDto(m, t, session);
    });
  }

  /** R3.6: points to a side between games; may end the match (stake posted) or forfeit it. */
  penalty(cmd: CommandContext, auth: KeyAuth, id: string, dto: PenaltyDto): Promise<MatchDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const t = await this.tables.lock(m, auth.clubId, 'match', id);
      if (!t) throw notFound('Match');
      const session = await this.sessions.openSession(m, auth.clubId, t.sessionId);
      assertPenaltyBetweenGames(t);
      const setup = t.setup as unknown as MatchTableSetup;
      const finished = await this.tables.finishedGames(m, auth.clubId, t.id);
      const before = scoreOf(setup, finished, penaltiesOf(t));
      assertMatchNotOver(before.status);
      const now = new Date();
      const penalties = penaltiesOf(t);
      const p: StoredPenalty = { seq: penalties.length + 1, side: dto.side, points: dto.points, reason: dto.reason, afterGameNo: t.nextGameNo - 1, at: now.toISOString() };
      t.state = { ...t.state, penalties: [...penalties, p] };
      const after = scoreOf(setup, finished, [...penalties, p]);
      if (after.status === 'finished' && after.winnerSide !== null) {
        t.status = 'finished';
        // R7.1: a match forfeited by a penalty is rated too.
        t.state = { ...t.state, ratings: await this.ratings.rate(m, auth.clubId, t, after.winnerSide) };
        const stake = matchStakePostings(setup, after.winnerSide, t.stakeMinor === null ? null : minorFromDb(t.stakeMinor));
        if (session && stake.length) await this.ledger.post(m, auth.clubId, session.id, t.id, null, stake, now);
      }
      const saved = await this.tables.save(m, t);
      return this.matchDto(m, saved, session);
    });
  }

  async getMatch(auth: KeyAuth, id: string): Promise<MatchDto> {
    const m = this.db.manager;
    const t = await this.tables.find(m, auth.clubId, 'match', id);
    if (!t) throw notFound('Match');
    return this.matchDto(m, t, await this.sessionOf(m, t));
  }

  async getMoneyGame(auth: KeyAuth, id: string): Promise<MoneyGameDto> {
    const m = this.db.manager;
    const t = await this.tables.find(m, auth.clubId, 'money', id);
    if (!t) throw notFound('Money game');
    return this.moneyDto(m, t, await this.sessionOf(m, t));
  }

  async listMatches(auth: KeyAuth, q: TableListQuery): Promise<Page<MatchDto>> {
    return this.list(auth, 'match', q, (m, t) => this.matchDto(m, t, null));
  }

  async listMoneyGames(auth: KeyAuth, q: TableListQuery): Promise<Page<MoneyGameDto>> {
    return this.list(auth, 'money', q, (m, t) => this.moneyDto(m, t, null));
  }

  private async list<T>(auth: KeyAuth, kind: TableKind, q: TableListQuery, map: (m: EntityManager, t: TableEntity) => Promise<T>): Promise<Page<T>> {
    const m = this.db.manager;
    const limit = q.limit ?? 50;
    const after = decodeCursor(q.cursor, ['string']);
    const rows = await this.tables.list(m, auth.clubId, kind, { sessionId: q.sessionId, playerId: q.playerId, status: q.status }, (after?.[0] as string) ?? null, limit);
    const page = toPage(
      rows,
      limit,
      (t) => [t.id],
      (t) => t,
    );
    return { items: await Promise.all(page.items.map((t) => map(m, t))), nextCursor: page.nextCursor };
  }

  private async sessionOf(m: EntityManager, t: TableEntity): Promise<SessionEntity | null> {
    return t.sessionId ? m.findOne(SessionEntity, { where: { clubId: t.clubId, id: t.sessionId } }) : null;
  }

  private async currency(m: EntityManager, t: TableEntity, session: SessionEntity | null): Promise<string | null> {
    if (!t.sessionId) return null;
    return (session ?? (await this.sessionOf(m, t)))?.currency ?? null;
  }

  /** The match as a Jellyfish .mat record (what gnubg imports); R3.4 Crawford, R3.6 penalties in the scores. */
  async exportMat(auth: KeyAuth, id: string): Promise<{ text: string; file: string }> {
    return this.db.read(async (m) => {
      const t = await this.tables.find(m, auth.clubId, 'match', id);
      if (!t) throw notFound('Match');
      const setup = t.setup as unknown as MatchTableSetup;
      const names = await playerNames(m, auth.clubId, setup.sides.flat());
      const sideName = (side: string[]) => side.map((p) => names.get(p) ?? p).join(' & ');
      const games = await this.tables.games(m, t.clubId, t.id);
      const record = matMatch(setup, games, penaltiesOf(t), [sideName(setup.sides[0]), sideName(setup.sides[1])], t.createdAt.toISOString().slice(0, 10));
      try {
        return { text: renderMat(record), file: `match-${t.id}.mat` };
      } catch (e) {
        if (e instanceof MatExportError) {
          throw new ApiError(ErrorCode.EXPORT_NOT_POSSIBLE, `This match cannot be written as a .mat record: ${e.message}`);
        }
        throw e;
      }
    });
  }

  async matchDto(m: EntityManager, t: TableEntity, session: SessionEntity | null): Promise<MatchDto> {
    const setup = t.setup as unknown as MatchTableSetup;
    const games = await this.tables.games(m, t.clubId, t.id);
    const finished = games.filter((g) => g.status === 'finished').map((g) => ({ gameNo: g.gameNo, winnerSide: g.winnerSide as 0 | 1, points: g.points as number }));
    const score = scoreOf(setup, finished, penaltiesOf(t));
    let crawfordGameNo: number | null = null;
    if (score.crawfordGameIndex !== null) {
      if (score.crawfordGameIndex < score.games.length) crawfordGameNo = score.games[score.crawfordGameIndex].gameNo;
      // R3.2: a match that ended (by a penalty, R3.6) before its Crawford game was played has none.
      else if (score.status !== 'finished') crawfordGameNo = t.currentGameNo ?? t.nextGameNo;
    }
    return {
      id: t.id,
      sessionId: t.sessionId,
      sides: setup.sides,
      target: setup.target,
      rules: { ...setup.rules },
      score: [...score.score],
      status: score.status,
      winnerSide: score.winnerSide,
      crawfordGameNo,
      stakeMinor: t.stakeMinor === null ? null : minorFromDb(t.stakeMinor),
      currency: await this.currency(m, t, session),
      penalties: penaltiesOf(t),
      currentGameNo: t.currentGameNo,
      games: games.map(gameSummary),
      version: t.version,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }

  async moneyDto(m: EntityManager, t: TableEntity, session: SessionEntity | null): Promise<MoneyGameDto> {
    const setup = t.setup as unknown as MoneyTable;
    const [games, nets] = [await this.tables.games(m, t.clubId, t.id), await this.ledger.tableNets(m, t.clubId, t.id)];
    return {
      id: t.id,
      sessionId: t.sessionId as string,
      players: [...setup.players],
      stakeMinor: setup.stakeMinor,
      currency: (await this.currency(m, t, session)) as string,
      rules: { ...setup.rules },
      netMinor: Object.fromEntries(setup.players.map((p) => [p, nets.get(p) ?? 0])),
      status: t.status,
      currentGameNo: t.currentGameNo,
      games: games.map(gameSummary),
      version: t.version,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }
}
