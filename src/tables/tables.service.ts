import { Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { MatExportError, renderMat } from '../domain/mat-export';
import { matMatch } from './match-export';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, PAGE_LIMIT, toPage } from '../common/pagination';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads } from '../db/tx';
import { assertStakeHasSession } from '../domain/session';
import { SessionEntity } from '../sessions';
import { newMatchSetup, newMoneySetup } from './engines';
import { TABLE_NAMES } from './games.service';
import { Outbox } from '../outbox/outbox';
import { tableEvent } from './table-events';
import { matchView, moneyView } from './table-views';
import { assertPlayersInClub, SessionGate } from './table-context';
import { newTableRow } from './table.entity';
import { MatchTableRow, MoneyTableRow, StoredTable, TableKind } from './stored-state';
import { CreateMatchDto, CreateMoneyGameDto, MatchDto, MoneyGameDto, TableListQuery } from './tables.dto';
import { TablesRepository, TableWithView } from './tables.repository';
import { playerNames } from '../players';

/** Creating and reading matches and money games (a match's penalties, forfeit and voids: MatchResultsService). */
@Injectable()
export class TablesService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly tables: TablesRepository,
    private readonly sessions: SessionGate,
    private readonly outbox: Outbox,
  ) {}

  createMatch(cmd: CommandContext, auth: KeyAuth, dto: CreateMatchDto): Promise<MatchDto> {
    return this.commands.run(cmd, async (tx) => {
      const setup = newMatchSetup({ sides: dto.sides, target: dto.target, rules: dto.rules as Record<string, unknown> | undefined, variant: dto.variant });
      if (dto.scheduledAt !== undefined) setup.scheduledAt = new Date(dto.scheduledAt).toISOString();
      assertStakeHasSession('match', dto.stakeMinor, dto.sessionId);
      const players = [...setup.sides[0], ...setup.sides[1]];
      await assertPlayersInClub(tx, auth.clubId, players);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId ?? null);
      const t = newTableRow(auth.clubId, 'match', session?.id ?? null, setup, { penalties: [] }, dto.stakeMinor ?? null);
      await this.tables.insert(tx, t, players);
      const match = await this.matchDto(tx, t, session);
      this.outbox.emit(tx, auth.clubId, tableEvent('table.created', t, match));
      return match;
    });
  }

  createMoneyGame(cmd: CommandContext, auth: KeyAuth, dto: CreateMoneyGameDto): Promise<MoneyGameDto> {
    return this.commands.run(cmd, async (tx) => {
      const setup = newMoneySetup({ players: dto.players, stakeMinor: dto.stakeMinor, rules: dto.rules as Record<string, unknown> | undefined, variant: dto.variant });
      await assertPlayersInClub(tx, auth.clubId, [...setup.players]);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId);
      const t = newTableRow(auth.clubId, 'money', session?.id ?? null, setup, {}, dto.stakeMinor);
      await this.tables.insert(tx, t, [...setup.players]);
      const money = await this.moneyDto(tx, t, session);
      this.outbox.emit(tx, auth.clubId, tableEvent('table.created', t, money));
      return money;
    });
  }

  async getMatch(auth: KeyAuth, id: string): Promise<MatchDto> {
    const found = await this.tables.findView(this.db.once, auth.clubId, 'match', id);
    if (!found) throw notFound('Match');
    return matchView(found.t, found.view.games, found.view.currency);
  }

  async getMoneyGame(auth: KeyAuth, id: string): Promise<MoneyGameDto> {
    const found = await this.tables.findView(this.db.once, auth.clubId, 'money', id);
    if (!found) throw notFound('Money game');
    return moneyView(found.t, found.view.games, found.view.nets, found.view.currency);
  }

  async listMatches(auth: KeyAuth, q: TableListQuery): Promise<Page<MatchDto>> {
    return this.list(auth, 'match', q, ({ t, view }) => matchView(t, view.games, view.currency));
  }

  async listMoneyGames(auth: KeyAuth, q: TableListQuery): Promise<Page<MoneyGameDto>> {
    return this.list(auth, 'money', q, ({ t, view }) => moneyView(t, view.games, view.nets, view.currency));
  }

  /** A page of tables, read in one statement (TablesRepository.listView). */
  private async list<K extends TableKind, T>(auth: KeyAuth, kind: K, q: TableListQuery, map: (found: TableWithView<K>) => T): Promise<Page<T>> {
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = decodeCursor(q.cursor, ['string']);
    const rows = await this.tables.listView(this.db.once, auth.clubId, kind, { sessionId: q.sessionId, playerId: q.playerId, status: q.status }, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, ({ t }) => [t.id], map);
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
      const record = matMatch(setup, games, t.state, [sideName(setup.sides[0]), sideName(setup.sides[1])], t.createdAt.toISOString().slice(0, 10));
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

  /** The match as a command answers it: what `view` reads, before the command's writes. */
  async matchDto(tx: Reads, t: MatchTableRow, session: SessionEntity | null): Promise<MatchDto> {
    const { games } = await this.tables.view(tx, t);
    return matchView(t, games, await this.currency(tx, t, session));
  }

  /** The money game as a command answers it: what `view` reads, before the command's writes. */
  async moneyDto(tx: Reads, t: MoneyTableRow, session: SessionEntity | null): Promise<MoneyGameDto> {
    const { games, nets } = await this.tables.view(tx, t);
    return moneyView(t, games, nets, await this.currency(tx, t, session));
  }
}

export { TABLE_NAMES };
