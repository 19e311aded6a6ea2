import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { Db } from '../db/db.service';
import { computePlayerStats, StatsMatch, variantBreakdown } from '../domain/player-stats';
import { penaltiesOf, scoreOf } from '../tables';
import { mapPlayer, PlayerDetailDto, PlayerDetails, PlayersRepository } from '../players';
import { lowerSides, PlayerStatsRepository } from './player-stats.repository';

/** `GET /v1/players/{id}`: the player with his statistics, from one snapshot. */
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
      const games = await this.stats.finishedGames(tx, auth.clubId, p.id);
      // A match's winner is what its score says (R3.2 target, R3.6 penalties and forfeit),
      // scored exactly as the match itself is (tables.service matchDto).
      const matches: StatsMatch[] = (await this.stats.finishedMatches(tx, auth.clubId, p.id)).map(({ table, games: finished }) => {
        return { sides: lowerSides(table.setup.sides), winnerSide: scoreOf(table.setup, finished, penaltiesOf(table)).winnerSide };
      });
      const sessionNets = await this.stats.sessionNets(tx, auth.clubId, p.id);
      return { ...mapPlayer(p), stats: computePlayerStats({ playerId: p.id, games, matches, sessionNets }), statsByVariant: variantBreakdown(p.id, games) };
    });
  }
}
