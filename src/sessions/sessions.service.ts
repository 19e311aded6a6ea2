import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { uuid7 } from '../common/uuid';
import { ClubsRepository } from '../clubs';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Tx } from '../db/tx';
import type { EventType } from '../outbox/event-types';
import { Outbox } from '../outbox/outbox';
import { SessionEntity } from './session.entity';
import { CreateSessionDto, SessionDto, UpdateSessionDto } from './sessions.dto';
import { SessionChanges, SessionsRepository } from './sessions.repository';
import { SessionTables } from './session-tables';
import { assertCanClose, assertRakeChangeable } from '../domain/session';
import { basisPointsFromPercent, percentFromBasisPoints } from '../domain/settlement';

function mapSession(s: SessionEntity): SessionDto {
  return {
    id: s.id,
    name: s.name,
    currency: s.currency,
    status: s.status,
    rakePercent: percentFromBasisPoints(s.rakeBp),
    startsAt: isoOrNull(s.startsAt),
    closedAt: isoOrNull(s.closedAt),
    version: s.version,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly sessions: SessionsRepository,
    private readonly clubs: ClubsRepository,
    private readonly tables: SessionTables,
    private readonly outbox: Outbox,
  ) {}

  /** The session as answered, announced as `type` with the command's COMMIT. */
  private announced(tx: Tx, type: EventType, s: SessionEntity): SessionDto {
    const session = mapSession(s);
    this.outbox.emit(tx, s.clubId, { type, sessionId: s.id, subject: { kind: 'session', id: s.id }, data: session });
    return session;
  }

  create(cmd: CommandContext, auth: KeyAuth, dto: CreateSessionDto): Promise<SessionDto> {
    return this.commands.run(cmd, async (tx) => {
      const club = await this.clubs.find(tx, auth.clubId);
      if (!club) throw notFound('Club');
      const now = new Date();
      const s: SessionEntity = {
        clubId: auth.clubId,
        id: uuid7(),
        name: dto.name,
        currency: dto.currency ?? club.currency,
        status: 'open',
        rakeBp: basisPointsFromPercent(dto.rakePercent ?? 0),
        startsAt: dto.startsAt ? new Date(dto.startsAt) : null,
        closedAt: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      };
      this.sessions.insert(tx, s);
      return this.announced(tx, 'session.created', s);
    });
  }

  async get(auth: KeyAuth, id: string): Promise<SessionDto> {
    return mapSession(await this.sessions.get(this.db.once, auth.clubId, id));
  }

  async list(auth: KeyAuth, status: 'open' | 'closed' | undefined, limit: number, cursor?: string): Promise<Page<SessionDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.sessions.list(this.db.once, auth.clubId, status, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (s) => [s.id], mapSession);
  }

  update(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: number | '*' | undefined, dto: UpdateSessionDto): Promise<SessionDto> {
    return this.commands.run(cmd, async (tx) => {
      const s = await this.sessions.lock(tx, auth.clubId, id);
      if (!s) throw notFound('Session');
      checkVersion(ifMatch, s.version);
      if (dto.rakePercent !== undefined) assertRakeChangeable(s);
      const changes: SessionChanges = {};
      if (dto.name !== undefined) changes.name = dto.name;
      if (dto.startsAt !== undefined) changes.startsAt = dto.startsAt === null ? null : new Date(dto.startsAt);
      if (dto.rakePercent !== undefined) changes.rakeBp = basisPointsFromPercent(dto.rakePercent);
      return this.announced(tx, 'session.updated', await this.sessions.update(tx, s, changes));
    });
  }

  /** R6.7: closing is refused while a game is unfinished; closing twice changes nothing. */
  close(cmd: CommandContext, auth: KeyAuth, id: string): Promise<SessionDto> {
    return this.commands.run(cmd, async (tx) => {
      const s = await this.sessions.lock(tx, auth.clubId, id);
      if (!s) throw notFound('Session');
      // Nothing changes, so nothing is announced.
      if (s.status === 'closed') return mapSession(s);
      assertCanClose(await this.tables.gamesInProgress(tx, auth.clubId, id));
      return this.announced(tx, 'session.closed', await this.sessions.close(tx, s));
    });
  }
}
