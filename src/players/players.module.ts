import { Module } from '@nestjs/common';
import { PlayersController } from './players.controller';
import { PlayersRepository } from './players.repository';
import { PlayersService } from './players.service';

/**
 * The club's players. `GET /v1/players/{id}` answers the player with his statistics
 * through PlayerDetails: the statistics read the tables' games, so PlayerStatsModule
 * (src/player-stats), which imports this module, provides it to every module.
 */
@Module({
  controllers: [PlayersController],
  providers: [PlayersRepository, PlayersService],
  exports: [PlayersRepository],
})
export class PlayersModule {}
