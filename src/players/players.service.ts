import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { uuid7 } from '../common/uuid';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import { roundRating } from '../domain/rating';
import { Outbox } from '../outbox/outbox';
import { PlayerEntity } from './player.entity';
import { CreatePlayerDto, PlayerDto, UpdatePlayerDto } from './players.dto';
import { PlayersRepository } from './players.repository';

export function mapPlayer(p: PlayerEntity): PlayerDto {
  return {
    id: p.id,
    name: p.name,
    nickname: p.nickname,
    rating: roundRating(p.rating),
    experience: p.experience,
    version: p.version,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

@Injectable()
export class PlayersService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly players: PlayersRepository,
    private readonly outbox: Outbox,
  ) {}

  create(cmd: CommandContext, auth: KeyAuth, dto: CreatePlayerDto): Promise<PlayerDto> {
    return this.commands.run(cmd, (tx) => {
      const now = new Date();
      const p: PlayerEntity = {
        clubId: auth.clubId,
        id: uuid7(),
        name: dto.name,
        nickname: dto.nickname ?? null,
        rating: dto.rating ?? 1500,
        experience: dto.experience ?? 0,
        ratedMatches: 0,
        version: 1,
        createdAt: now,
        updatedAt: now,
      };
      this.players.insert(tx, p);
      const player = mapPlayer(p);
      this.outbox.emit(tx, auth.clubId, { type: 'player.created', sessionId: null, subject: { kind: 'player', id: p.id }, data: player });
      return Promise.resolve(player);
    });
  }

  async list(auth: KeyAuth, limit: number, cursor?: string): Promise<Page<PlayerDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.players.list(this.db.once, auth.clubId, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (p) => [p.id], mapPlayer);
  }

  update(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: number | '*' | undefined, dto: UpdatePlayerDto): Promise<PlayerDto> {
    return this.commands.run(cmd, async (tx) => {
      const p = await this.players.lock(tx, auth.clubId, id);
      if (!p) throw notFound('Player');
      checkVersion(ifMatch, p.version);
      const player = mapPlayer(await this.players.update(tx, p, dto));
      this.outbox.emit(tx, auth.clubId, { type: 'player.updated', sessionId: null, subject: { kind: 'player', id: p.id }, data: player });
      return player;
    });
  }
}
