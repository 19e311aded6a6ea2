import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { uuid7 } from '../common/uuid';
import { ClubsRepository } from '../clubs';
import { CommandContext, Db, Replayed } from '../db/db.service';
import { SessionEntity } from './session.entity';
import { CreateSessionDto, SessionDto, UpdateSessionDto } from './sessions.dto';
import { SessionsRepository } from './sessions.repository';
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
    private readonly sessions: SessionsRepository,
    private readonly clubs: ClubsRepository,
    private readonly tables: SessionTables,
  ) {}

  create(cmd: CommandContext, auth: KeyAuth, dto: CreateSessionDto): Promise<SessionDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const club = await this.clubs.find(m, auth.clubId);
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
      await this.sessions.insert(m, s);
      return mapSession(s);
    });
  }

  async get(auth: KeyAuth, id: string): Promise<SessionDto> {
    return mapSession(await this.sessions.get(this.db.manager, auth.clubId, id));
  }

  async list(auth: KeyAuth, status: 'open' | 'closed' | undefined, limit: number, cursor?: string): Promise<Page<SessionDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.sessions.list(this.db.manager, auth.clubId, status, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (s) => [s.id], mapSession);
  }

  update(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: number | '*' | undefined, dto: UpdateSessionDto): Promise<SessionDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const s = await this.sessions.lock(m, auth.clubId, id);
      if (!s) throw notFound('Session');
      checkVersion(ifMatch, s.version);
      if (dto.rakePercent !== undefined) assertRakeChangeable(s);
      const changes: Partial<SessionEntity> = {};
      if (dto.name !== undefined) changes.name = dto.name;
      if (dto.startsAt !== undefined) changes.startsAt = dto.startsAt === null ? null : new Date(dto.startsAt);
      if (dto.rakePercent !== undefined) changes.rakeBp = basisPointsFromPercent(dto.rakePercent);
      return mapSession(await this.sessions.update(m, s, changes));
    });
  }

  /** R6.7: closing is refused while a game is unfinished; closing twice changes nothing. */
  close(cmd: CommandContext, auth: KeyAuth, id: string): Promise<SessionDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const s = await this.sessions.lock(m, auth.clubId, id);
      if (!s) throw notFound('Session');
      if (s.status === 'closed') return mapSession(s);
      assertCanClose(await this.tables.gamesInProgress(m, auth.clubId, id));
      return mapSession(await this.sessions.update(m, s, { status: 'closed', closedAt: () => 'now()' } as never));
    });
  }
}
