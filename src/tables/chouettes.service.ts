import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, PAGE_LIMIT, toPage } from '../common/pagination';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads, Tx } from '../db/tx';
import { ChouetteSeating, joinChouette, leaveChouette, seatedPlayers } from '../domain/chouette';
import { assertChouetteBetweenGames } from '../domain/table-commands';
import { SessionEntity } from '../sessions';
import { ChouetteDto, CreateChouetteDto, JoinChouetteDto } from './chouette.dto';
import { newChouette } from './engines';
import { assertPlayersInClub, SessionGate } from './table-context';
import { Outbox } from '../outbox/outbox';
import { tableEvent, tableUpdated } from './table-events';
import { chouetteView, TableView } from './table-views';
import { newTableRow } from './table.entity';
import { ChouetteTableRow } from './stored-state';
import { TableListQuery } from './tables.dto';
import { TablesRepository } from './tables.repository';

/** Chouettes (R5): seating, joining and leaving between games; the games go through GamesService. */
@Injectable()
export class ChouettesService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly tables: TablesRepository,
    private readonly sessions: SessionGate,
    private readonly outbox: Outbox,
  ) {}

  create(cmd: CommandContext, auth: KeyAuth, dto: CreateChouetteDto): Promise<ChouetteDto> {
    return this.commands.run(cmd, async (tx) => {
      const { setup, state } = newChouette(
        {
          stakeMinor: dto.stakeMinor,
          // The domain checks the seating's shape: exactly one way of seating (R5.1, INVALID_SEATING).
          seating: { ...dto.seating } as ChouetteSeating,
          stakes: dto.stakes?.map((s) => ({ playerId: s.playerId, stakeMinor: s.stakeMinor })),
          rules: dto.rules as Record<string, unknown> | undefined,
        },
        (n) => randomInt(n),
      );
      const players = seatedPlayers(state.seats);
      await assertPlayersInClub(tx, auth.clubId, [...players, ...setup.stakes.map((s) => s.playerId)]);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId);
      const t = newTableRow(auth.clubId, 'chouette', session?.id ?? null, setup, state, setup.stakeMinor);
      await this.tables.insert(tx, t, players);
      const chouette = await this.dto(tx, t, session);
      this.outbox.emit(tx, auth.clubId, tableEvent('table.created', t, chouette));
      return chouette;
    });
  }

  /** R5.8: a player joins at the end of the line, between games. */
  join(cmd: CommandContext, auth: KeyAuth, id: string, dto: JoinChouetteDto): Promise<ChouetteDto> {
    return this.commands.run(cmd, async (tx) => {
      const t = await this.betweenGames(tx, auth, id, 'join');
      const session = await this.sessions.openSession(tx, auth.clubId, t.sessionId);
      await assertPlayersInClub(tx, auth.clubId, [dto.playerId]);
      t.state = { ...t.state, seats: joinChouette(t.state.seats, dto.playerId) };
      await this.tables.addPlayer(tx, t, dto.playerId);
      // What the answer reads (the new player among them), before the table's update, which goes with the COMMIT.
      const view = await this.view(tx, t, session);
      return this.updated(tx, this.tables.save(tx, t), view);
    });
  }

  /** R5.8: a player leaves between games (the box's seat passes on as the rules say). */
  leave(cmd: CommandContext, auth: KeyAuth, id: string, playerId: string): Promise<ChouetteDto> {
    return this.commands.run(cmd, async (tx) => {
      const t = await this.betweenGames(tx, auth, id, 'leave');
      const session = await this.sessions.openSession(tx, auth.clubId, t.sessionId);
      t.state = { ...t.state, seats: leaveChouette(t.state.seats, playerId, t.setup.rules) };
      // What the answer reads, before the table's update, which goes with the COMMIT.
      const view = await this.view(tx, t, session);
      return this.updated(tx, this.tables.save(tx, t), view);
    });
  }

  /** The chouette as answered after a change of its seats, announced as `table.updated` with the COMMIT. */
  private updated(tx: Tx, t: ChouetteTableRow, view: TableView): ChouetteDto {
    const chouette = this.dtoOf(t, view);
    this.outbox.emit(tx, t.clubId, tableUpdated(t, chouette, null));
    return chouette;
  }

  private async betweenGames(tx: Tx, auth: KeyAuth, id: string, what: 'join' | 'leave'): Promise<ChouetteTableRow> {
    const t = await this.tables.lock(tx, auth.clubId, 'chouette', id);
    if (!t) throw notFound('Chouette');
    assertChouetteBetweenGames(t, what);
    return t;
  }

  async get(auth: KeyAuth, id: string): Promise<ChouetteDto> {
    const found = await this.tables.findView(this.db.once, auth.clubId, 'chouette', id);
    if (!found) throw notFound('Chouette');
    return chouetteView(found.t, found.view, found.current);
  }

  /** A page of chouettes, read in one statement (TablesRepository.listView). */
  async list(auth: KeyAuth, q: TableListQuery): Promise<Page<ChouetteDto>> {
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = decodeCursor(q.cursor, ['string']);
    const rows = await this.tables.listView(this.db.once, auth.clubId, 'chouette', { sessionId: q.sessionId, playerId: q.playerId, status: q.status }, (after?.[0] as string) ?? null, limit);
    return toPage(
      rows,
      limit,
      ({ t }) => [t.id],
      ({ t, view, current }) => chouetteView(t, view, current),
    );
  }

  async dto(tx: Reads, t: ChouetteTableRow, session: SessionEntity | null): Promise<ChouetteDto> {
    return this.dtoOf(t, await this.view(tx, t, session));
  }

  /**
   * What a chouette's answer reads in a command (TablesRepository.view: its games, the nets
   * at the table, everyone who sat there) and its session's currency. The commands that
   * answer a chouette (create, join, leave) run between games: no game in progress.
   */
  private async view(tx: Reads, t: ChouetteTableRow, session: SessionEntity | null): Promise<TableView> {
    const view = await this.tables.view(tx, t);
    const s = session ?? (await this.tables.session(tx, t.clubId, t.sessionId as string));
    return { ...view, currency: s?.currency ?? null };
  }

  /** The chouette as answered, from what `view` read. */
  private dtoOf(t: ChouetteTableRow, view: TableView): ChouetteDto {
    return chouetteView(t, view, null);
  }
}
