import { Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import { KeyAuth, newApiToken, Role } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { ErrorCode } from '../common/error-codes';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { uuid7 } from '../common/uuid';
import { CommandContext, Db, Replayed } from '../db/db.service';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyCache } from '../guards';
import { ApiKeysRepository } from './api-keys.repository';
import { ClubEntity } from './club.entity';
import { ApiKeyDto, ClubDto, CreateApiKeyDto, CreateClubDto, CreatedApiKeyDto, CreatedClubDto, UpdateClubDto } from './clubs.dto';
import { ClubsRepository } from './clubs.repository';

function mapClub(c: ClubEntity): ClubDto {
  return {
    id: c.id,
    name: c.name,
    currency: c.currency,
    timezone: c.timezone,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

function mapApiKey(k: ApiKeyEntity): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    role: k.role,
    hint: k.hint,
    createdAt: k.createdAt.toISOString(),
    revokedAt: isoOrNull(k.revokedAt),
  };
}

@Injectable()
export class ClubsService {
  constructor(
    private readonly db: Db,
    private readonly clubs: ClubsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly keyCache: ApiKeyCache,
  ) {}

  /** The operator creates a club and receives its first (owner) key. */
  create(cmd: CommandContext, dto: CreateClubDto): Promise<CreatedClubDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const now = new Date();
      const club: ClubEntity = {
        id: uuid7(),
        name: dto.name,
        currency: dto.currency ?? 'USD',
        timezone: dto.timezone ?? 'UTC',
        version: 1,
        createdAt: now,
        updatedAt: now,
      };
      await this.clubs.insert(m, club);
      // The operator's act goes into the new club's audit record.
      if (cmd.audit) cmd.audit.clubId = club.id;
      const key = await this.makeKey(m, club.id, 'Owner key', 'owner', now);
      return { club: mapClub(club), apiKey: key };
    });
  }

  async get(auth: KeyAuth): Promise<ClubDto> {
    const club = await this.clubs.find(this.db.manager, auth.clubId);
    if (!club) throw notFound('Club');
    return mapClub(club);
  }

  update(cmd: CommandContext, auth: KeyAuth, ifMatch: number | '*' | undefined, dto: UpdateClubDto): Promise<ClubDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const club = await this.clubs.lock(m, auth.clubId);
      if (!club) throw notFound('Club');
      checkVersion(ifMatch, club.version);
      return mapClub(await this.clubs.update(m, club, dto));
    });
  }

  createKey(cmd: CommandContext, auth: KeyAuth, dto: CreateApiKeyDto): Promise<CreatedApiKeyDto | Replayed> {
    return this.db.command(cmd, 201, (m) => this.makeKey(m, auth.clubId, dto.name, dto.role, new Date()));
  }

  async listKeys(auth: KeyAuth, limit: number, cursor?: string): Promise<Page<ApiKeyDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.keys.list(this.db.manager, auth.clubId, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (k) => [k.id], mapApiKey);
  }

  /** Revokes at once. The club's last working owner key cannot be revoked (it would lock the club out). */
  async revokeKey(cmd: CommandContext, auth: KeyAuth, id: string): Promise<Replayed | undefined> {
    const done = await this.db.command(cmd, 204, async (m) => {
      const owners = await this.keys.lockActiveOwners(m, auth.clubId);
      const key = await this.keys.lock(m, auth.clubId, id);
      if (!key) throw notFound('API key');
      if (key.revokedAt) return null;
      if (key.role === 'owner' && owners.length === 1 && owners[0] === key.id) {
        throw new ApiError(ErrorCode.LAST_OWNER_KEY, "This is the club's last working owner key; create another owner key before revoking it.");
      }
      await this.keys.revoke(m, auth.clubId, id);
      return null;
    });
    // Committed: this instance stops accepting the key before it answers (the others on the NOTIFY).
    this.keyCache.forget(auth.clubId, id);
    // A replay is marked as one (Idempotent-Replayed); a fresh revoke answers no body.
    return done instanceof Replayed ? done : undefined;
  }

  private async makeKey(m: Parameters<ApiKeysRepository['insert']>[0], clubId: string, name: string, role: Role, now: Date): Promise<CreatedApiKeyDto> {
    const id = uuid7();
    const { token, secretHash, hint } = newApiToken(clubId, id);
    const key = await this.keys.insert(m, { clubId, id, name, role, secretHash, hint, createdAt: now, revokedAt: null });
    return { ...mapApiKey(key), token };
  }
}
