import { Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { MatExportError, renderMat } from '../domain/mat-export';
import { matMatch } from './match-export';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { CommandContext, Replayed } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads } from '../db/tx';
import { assertStakeHasSession } from '../domain/session';
import { assertMatchNotOver, assertPenaltyBetweenGames } from '../domain/table-commands';
import { LedgerRepository, minorFromDb } from '../ledger';
import { SessionEntity } from '../sessions';
import { matchStakePostings, moneyPointsTotal, newMatchSetup, newMoneySetup, penaltiesOf, scoreOf, StoredPenalty } from './engines';
import { TABLE_NAMES } from './games.service';
import { RatingsService } from '../ratings';
import { assertPlayersInClub, SessionGate } from './table-context';
import { newTableRow } from './table.entity';
import { gameVariantOf, isCrawfordGame, MatchTableRow, MoneyTableRow, StoredGame, StoredTable, TableKind, TableRowOf } from './stored-state';
import { CreateMatchDto, CreateMoneyGameDto, GameSummaryDto, MatchDto, MoneyGameDto, PenaltyDto, TableListQuery } from './tables.dto';
import { TablesRepository } from './tables.repository';
import { playerNames } from '../players';

/** A game as listed in its table's state. */
export function gameSummary(g: StoredGame): GameSummaryDto {
  return {
    gameNo: g.gameNo,
    variant: gameVariantOf(g),
    status: g.status,
    crawford: isCrawfordGame(g),
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
    private readonly commands: Commands,
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly sessions: SessionGate,
    private readonly ratings: RatingsService,
  ) {}

  createMatch(cmd: CommandContext, auth: KeyAuth, dto: CreateMatchDto): Promise<MatchDto | Replayed> {
    return this.commands.run(cmd, 201, async (tx) => {
      const setup = newMatchSetup({ sides: dto.sides, target: dto.target, rules: dto.rules as Record<string, unknown> | undefined, variant: dto.variant });
      assertStakeHasSession('match', dto.stakeMinor, dto.sessionId);
      const players = [...setup.sides[0], ...setup.sides[1]];
      await assertPlayersInClub(tx, auth.clubId, players);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId ?? null);
      const t = newTableRow(auth.clubId, 'match', session?.id ?? null, setup, { penalties: [] }, dto.stakeMinor ?? null);
      await this.tables.insert(tx, t, players);
      return this.matchDto(tx, t, session);
    });
  }

  createMoneyGame(cmd: CommandContext, auth: KeyAuth, dto: CreateMoneyGameDto): Promise<MoneyGameDto | Replayed> {
    return this.commands.run(cmd, 201, async (tx) => {
      const setup = newMoneySetup({ players: dto.players, stakeMinor: dto.stakeMinor, rules: dto.rules as Record<string, unknown> | undefined, variant: dto.variant });
      await assertPlayersInClub(tx, auth.clubId, [...setup.players]);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId);
      const t = newTableRow(auth.clubId, 'money', session?.id ?? null, setup, {}, dto.stakeMinor);
      await this.tables.insert(tx, t, [...setup.players]);
      return this.moneyDto(tx, t, session);
    });
  }

  /** R3.6: points to a side between games; may end the match (stake posted) or forfeit it. */
  penalty(cmd: CommandContext, auth: KeyAuth, id: string, dto: PenaltyDto): Promise<MatchDto | Replayed> {
    return this.commands.run(cmd, 201, async (tx) => {
      const t = await this.tables.lock(tx, auth.clubId, 'match', id);
      if (!t) throw notFound('Match');
      const session = await this.sessions.openSession(tx, auth.clubId, t.sessionId);
      assertPenaltyBetweenGames(t);
      const { setup } = t;
      const finished = await this.tables.finishedGames(tx, auth.clubId, t.id);
      const before = scoreOf(setup, finished, penaltiesOf(t));
      assertMatchNotOver(before.status);
      // What the answer reads (the games, which a penalty does not change, and the
      // currency), read before the writes below, which go with the COMMIT.
      const games = await this.tables.games(tx, t.clubId, t.id);
      const currency = await this.currency(tx, t, session);
      const now = new Date();
      const penalties = penaltiesOf(t);
      const p: StoredPenalty = { seq: penalties.length + 1, side: dto.side, points: dto.points, reason: dto.reason, afterGameNo: t.nextGameNo - 1, at: now.toISOString() };
      t.state = { ...t.state, penalties: [...penalties, p] };
      const after = scoreOf(setup, finished, [...penalties, p]);
      if (after.status === 'finished' && after.winnerSide !== null) {
        t.status = 'finished';
        // R7.1: a match forfeited by a penalty is rated too (its players read and locked now, the update deferred).
        t.state = { ...t.state, ratings: await this.ratings.rate(tx, auth.clubId, t, after.winnerSide) };
        const stake = matchStakePostings(setup, after.winnerSide, t.stakeMinor === null ? null : minorFromDb(t.stakeMinor));
        if (session && stake.length) await this.ledger.post(tx, auth.clubId, session.id, t.id, null, stake, now);
      }
      const saved = this.tables.save(tx, t);
      return this.matchOf(saved, games, currency);
    });
  }

  async getMatch(auth: KeyAuth, id: string): Promise<MatchDto> {
    const once = this.db.once;
    const t = await this.tables.find(once, auth.clubId, 'match', id);
    if (!t) throw notFound('Match');
    return this.matchDto(once, t, await this.sessionOf(once, t));
  }

  async getMoneyGame(auth: KeyAuth, id: string): Promise<MoneyGameDto> {
    const once = this.db.once;
    const t = await this.tables.find(once, auth.clubId, 'money', id);
    if (!t) throw notFound('Money game');
    return this.moneyDto(once, t, await this.sessionOf(once, t));
  }

  async listMatches(auth: KeyAuth, q: TableListQuery): Promise<Page<MatchDto>> {
    return this.list(auth, 'match', q, (reads, t) => this.matchDto(reads, t, null));
  }

  async listMoneyGames(auth: KeyAuth, q: TableListQuery): Promise<Page<MoneyGameDto>> {
    return this.list(auth, 'money', q, (reads, t) => this.moneyDto(reads, t, null));
  }

  private async list<K extends TableKind, T>(auth: KeyAuth, kind: K, q: TableListQuery, map: (reads: Reads, t: TableRowOf<K>) => Promise<T>): Promise<Page<T>> {
    const once = this.db.once;
    const limit = q.limit ?? 50;
    const after = decodeCursor(q.cursor, ['string']);
    const rows = await this.tables.list(once, auth.clubId, kind, { sessionId: q.sessionId, playerId: q.playerId, status: q.status }, (after?.[0] as string) ?? null, limit);
    const page = toPage(
      rows,
      limit,
      (t) => [t.id],
      (t) => t,
    );
    return { items: await Promise.all(page.items.map((t) => map(once, t))), nextCursor: page.nextCursor };
  }

  private async sessionOf(tx: Reads, t: StoredTable): Promise<SessionEntity | null> {
    return t.sessionId ? this.tables.session(tx, t.clubId, t.sessionId) : null;
  }

  private async currency(tx: Reads, t: StoredTable, session: SessionEntity | null): Promise<string | null> {
    if (!t.sessionId) return null;
    return (session ?? (await this.sessionOf(tx, t)))?.currency ?? null;
  }

  /** The match as a Jellyfish .mat record (what gnubg imports); R3.4 Crawford, R3.6 penalties in the scores. */
  async exportMat(auth: KeyAuth, id: string): Promise<{ text: string; file: string }> {
    return this.db.read(async (tx) => {
      const t = await this.tables.find(tx, auth.clubId, 'match', id);
      if (!t) throw notFound('Match');
      const { setup } = t;
      const names = await playerNames(tx, auth.clubId, setup.sides.flat());
      const sideName = (side: string[]) => side.map((p) => names.get(p) ?? p).join(' & ');
      const games = await this.tables.games(tx, t.clubId, t.id);
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

  async matchDto(tx: Reads, t: MatchTableRow, session: SessionEntity | null): Promise<MatchDto> {
    const games = await this.tables.games(tx, t.clubId, t.id);
    return this.matchOf(t, games, await this.currency(tx, t, session));
  }

  /** The match as answered, from its games and its session's currency (read by the caller). */
  private matchOf(t: MatchTableRow, games: StoredGame[], currency: string | null): MatchDto {
    const { setup } = t;
    // R8.3: a draw has no winner and scores nothing.
    const finished = games.filter((g) => g.status === 'finished' && g.winnerSide !== null).map((g) => ({ gameNo: g.gameNo, winnerSide: g.winnerSide as 0 | 1, points: g.points as number }));
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
      variant: setup.variant ?? 'backgammon',
      target: setup.target,
      rules: { ...setup.rules },
      score: [...score.score],
      status: score.status,
      winnerSide: score.winnerSide,
      crawfordGameNo,
      stakeMinor: t.stakeMinor === null ? null : minorFromDb(t.stakeMinor),
      currency,
      penalties: penaltiesOf(t),
      currentGameNo: t.currentGameNo,
      games: games.map(gameSummary),
      version: t.version,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }

  async moneyDto(tx: Reads, t: MoneyTableRow, session: SessionEntity | null): Promise<MoneyGameDto> {
    const { setup } = t;
    const [games, nets] = [await this.tables.games(tx, t.clubId, t.id), await this.ledger.tableNets(tx, t.clubId, t.id)];
    return {
      id: t.id,
      sessionId: t.sessionId as string,
      players: [...setup.players],
      stakeMinor: setup.stakeMinor,
      currency: (await this.currency(tx, t, session)) as string,
      variant: setup.variant ?? 'backgammon',
      rules: { ...setup.rules, stopAtLead: setup.rules.stopAtLead ?? null },
      netMinor: Object.fromEntries(setup.players.map((p) => [p, nets.get(p) ?? 0])),
      pointsTotal: moneyPointsTotal(
        setup,
        games.filter((g) => g.status === 'finished').map((g) => ({ winnerSide: g.winnerSide as 0 | 1 | null, points: g.points })),
      ),
      status: t.status,
      currentGameNo: t.currentGameNo,
      games: games.map(gameSummary),
      version: t.version,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }
}

export { TABLE_NAMES };
