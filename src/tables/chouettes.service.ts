import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { CommandContext, Db, Replayed } from '../db/db.service';
import { ChouetteSeating, joinChouette, leaveChouette, seatedPlayers } from '../domain/chouette';
import { assertChouetteBetweenGames } from '../domain/table-commands';
import { LedgerRepository } from '../ledger';
import { SessionEntity } from '../sessions';
import { ChouetteDto, CreateChouetteDto, JoinChouetteDto } from './chouette.dto';
import { ChouetteTableSetup, ChouetteTableState, chouetteSeatsShown, newChouette, StoredChouetteGame } from './engines';
import { assertPlayersInClub, SessionGate } from './table-context';
import { gameSummary } from './tables.service';
import { newTableRow, TableEntity } from './table.entity';
import { TableListQuery } from './tables.dto';
import { TablesRepository } from './tables.repository';

/** Chouettes (R5): seating, joining and leaving between games; the games go through GamesService. */
@Injectable()
export class ChouettesService {
  constructor(
    private readonly db: Db,
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly sessions: SessionGate,
  ) {}

  create(cmd: CommandContext, auth: KeyAuth, dto: CreateChouetteDto): Promise<ChouetteDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const { setup, state } = newChouette(
        {
          stakeMinor: dto.stakeMinor,
          seating: { ...dto.seating } as unknown as ChouetteSeating,
          stakes: dto.stakes?.map((s) => ({ playerId: s.playerId, stakeMinor: s.stakeMinor })),
          rules: dto.rules as Record<string, unknown> | undefined,
        },
        (n) => randomInt(n),
      );
      const players = seatedPlayers(state.seats);
      await assertPlayersInClub(m, auth.clubId, [...players, ...setup.stakes.map((s) => s.playerId)]);
      const session = await this.sessions.openSession(m, auth.clubId, dto.sessionId);
      const t = newTableRow(auth.clubId, 'chouette', session?.id ?? null, setup, state, setup.stakeMinor);
      await this.tables.insert(m, t, players);
      return this.dto(m, t, session);
    });
  }

  /** R5.8: a player joins at the end of the line, between games. */
  join(cmd: CommandContext, auth: KeyAuth, id: string, dto: JoinChouetteDto): Promise<ChouetteDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const t = await this.betweenGames(m, auth, id, 'join');
      const session = await this.sessions.openSession(m, auth.clubId, t.sessionId);
      await assertPlayersInClub(m, auth.clubId, [dto.playerId]);
      const state = t.state as unknown as ChouetteTableState;
      t.state = { ...t.state, seats: joinChouette(state.seats, dto.playerId) };
      await this.tables.addPlayer(m, auth.clubId, t.id, dto.playerId);
      const saved = await this.tables.save(m, t);
      return this.dto(m, saved, session);
    });
  }

  /** R5.8: a player leaves between games (the box's seat passes on as the rules say). */
  leave(cmd: CommandContext, auth: KeyAuth, id: string, playerId: string): Promise<ChouetteDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const t = await this.betweenGames(m, auth, id, 'leave');
      const session = await this.sessions.openSession(m, auth.clubId, t.sessionId);
      const setup = t.setup as unknown as ChouetteTableSetup;
      const state = t.state as unknown as ChouetteTableState;
      t.state = { ...t.state, seats: leaveChouette(state.seats, playerId, setup.rules) };
      const saved = await this.tables.save(m, t);
      return this.dto(m, saved, session);
    });
  }

  private async betweenGames(m: EntityManager, auth: KeyAuth, id: string, what: 'join' | 'leave'): Promise<TableEntity> {
    const t = await this.tables.lock(m, auth.clubId, 'chouette', id);
    if (!t) throw notFound('Chouette');
    assertChouetteBetweenGames(t, what);
    return t;
  }

  async get(auth: KeyAuth, id: string): Promise<ChouetteDto> {
    const m = this.db.manager;
    const t = await this.tables.find(m, auth.clubId, 'chouette', id);
    if (!t) throw notFound('Chouette');
    return this.dto(m, t, null);
  }

  async list(auth: KeyAuth, q: TableListQuery): Promise<Page<ChouetteDto>> {
    const m = this.db.manager;
    const limit = q.limit ?? 50;
    const after = decodeCursor(q.cursor, ['string']);
    const rows = await this.tables.list(m, auth.clubId, 'chouette', { sessionId: q.sessionId, playerId: q.playerId, status: q.status }, (after?.[0] as string) ?? null, limit);
    const page = toPage(
      rows,
      limit,
      (t) => [t.id],
      (t) => t,
    );
    return { items: await Promise.all(page.items.map((t) => this.dto(m, t, null))), nextCursor: page.nextCursor };
  }

  async dto(m: EntityManager, t: TableEntity, session: SessionEntity | null): Promise<ChouetteDto> {
    const setup = t.setup as unknown as ChouetteTableSetup;
    const games = await this.tables.games(m, t.clubId, t.id);
    const current = t.currentGameNo === null ? undefined : games.find((g) => g.gameNo === t.currentGameNo);
    const seats = chouetteSeatsShown(t.state as unknown as ChouetteTableState, current ? (current.setup as unknown as StoredChouetteGame) : null);
    const nets = await this.ledger.tableNets(m, t.clubId, t.id);
    const seated = seatedPlayers(seats);
    const everyone = [...seated, ...(await this.tables.tablePlayers(m, t.clubId, t.id)).filter((p) => !seated.includes(p))];
    const s = session ?? (await m.findOne(SessionEntity, { where: { clubId: t.clubId, id: t.sessionId as string } }));
    return {
      id: t.id,
      sessionId: t.sessionId as string,
      box: seats.box,
      partner: seats.partner,
      captain: seats.line.length ? seats.line[0] : null,
      team: [...seats.line],
      rules: { ...setup.rules },
      stakeMinor: setup.stakeMinor,
      stakes: setup.stakes.map((x) => ({ playerId: x.playerId, stakeMinor: x.stakeMinor })),
      currency: s?.currency as string,
      players: everyone.map((playerId) => ({ playerId, netMinor: nets.get(playerId) ?? 0 })),
      status: t.status,
      currentGameNo: t.currentGameNo,
      games: games.map(gameSummary),
      version: t.version,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }
}
