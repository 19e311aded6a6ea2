import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { Db } from '../db/db.service';
import { statsFromCounters } from '../domain/player-stats';
import { mapPlayer, PlayerDetailDto, PlayerDetails, PlayersRepository } from '../players';
import { PlayerStatsRepository } from './player-stats.repository';

/**
 * `GET /v1/players/{id}`: the player with his statistics, from one snapshot: his
 * counters per variant (player_stats) and his money per currency (party_volumes), read
 * models kept by the commands, so the read costs the same however long his history.
 */
@Injectable()
export class PlayerStatsService implements PlayerDetails {
  constructor(
    private readonly db: Db,
    private readonly players: PlayersRepository,
    private readonly stats: PlayerStatsRepository,
  ) {}

  get(auth: KeyAuth, id: string): Promise<PlayerDetailDto> {
    return this.db.read(async (tx) => {
      const p = await this.players.find(tx, auth.clubId, id);
      if (!p) throw notFound('Player');
      const { stats, byVariant } = statsFromCounters(await this.stats.counters(tx, auth.clubId, p.id), await this.stats.money(tx, auth.clubId, p.id));
      return { ...mapPlayer(p), stats, statsByVariant: byVariant };
    });
  }
}
