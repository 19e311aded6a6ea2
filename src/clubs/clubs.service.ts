import { Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import { KeyAuth, newApiToken, Role } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { ErrorCode } from '../common/error-codes';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { uuid7 } from '../common/uuid';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Tx } from '../db/tx';
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
    private readonly commands: Commands,
    private readonly clubs: ClubsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly keyCache: ApiKeyCache,
  ) {}

  /** The operator creates a club and receives its first (owner) key. */
  create(cmd: CommandContext, dto: CreateClubDto): Promise<CreatedClubDto> {
    return this.commands.run(cmd, (tx) => {
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
      this.clubs.insert(tx, club);
      // The operator's act goes into the new club's audit record.
      if (cmd.audit) cmd.audit.clubId = club.id;
      const key = this.makeKey(tx, club.id, 'Owner key', 'owner', now);
      return Promise.resolve({ club: mapClub(club), apiKey: key });
    });
  }

  async get(auth: KeyAuth): Promise<ClubDto> {
    const club = await this.clubs.find(this.db.once, auth.clubId);
    if (!club) throw notFound('Club');
    return mapClub(club);
  }

  update(cmd: CommandContext, auth: KeyAuth, ifMatch: number | '*' | undefined, dto: UpdateClubDto): Promise<ClubDto> {
    return this.commands.run(cmd, async (tx) => {
      const club = await this.clubs.lock(tx, auth.clubId);
      if (!club) throw notFound('Club');
      checkVersion(ifMatch, club.version);
      return mapClub(await this.clubs.update(tx, club, dto));
    });
  }

  createKey(cmd: CommandContext, auth: KeyAuth, dto: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.commands.run(cmd, (tx) => Promise.resolve(this.makeKey(tx, auth.clubId, dto.name, dto.role, new Date())));
  }

  async listKeys(auth: KeyAuth, limit: number, cursor?: string): Promise<Page<ApiKeyDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.keys.list(this.db.once, auth.clubId, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (k) => [k.id], mapApiKey);
  }

  /** Revokes at once. The club's last working owner key cannot be revoked (it would lock the club out). */
  async revokeKey(cmd: CommandContext, auth: KeyAuth, id: string): Promise<void> {
    try {
      await this.commands.run(cmd, async (tx) => {
        const owners = await this.keys.lockActiveOwners(tx, auth.clubId);
        const key = await this.keys.lock(tx, auth.clubId, id);
        if (!key) throw notFound('API key');
        if (key.revokedAt) return null;
        if (key.role === 'owner' && owners.length === 1 && owners[0] === key.id) {
          throw new ApiError(ErrorCode.LAST_OWNER_KEY, "This is the club's last working owner key; create another owner key before revoking it.");
        }
        await this.keys.revoke(tx, auth.clubId, id);
        return null;
      });
    } finally {
      // Committed, or answered again: this instance stops accepting the key before it answers
      // (the others on the NOTIFY). Whatever the outcome: forgetting costs one read at most.
      this.keyCache.forget(auth.clubId, id);
    }
  }

  /** A new key (written with the command's COMMIT), answered with its token. */
  private makeKey(tx: Tx, clubId: string, name: string, role: Role, now: Date): CreatedApiKeyDto {
    const id = uuid7();
    const { token, secretHash, hint } = newApiToken(clubId, id);
    const key = this.keys.insert(tx, { clubId, id, name, role, secretHash, hint, createdAt: now, revokedAt: null });
    return { ...mapApiKey(key), token };
  }
}
