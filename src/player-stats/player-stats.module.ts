import { Global, Module } from '@nestjs/common';
import { PlayerDetails, PlayersModule } from '../players';
import { PlayerStatsRepository } from './player-stats.repository';
import { PlayerStatsService } from './player-stats.service';

/**
 * Player statistics, computed on read from the finished games. Its one export is
 * PlayerDetails, which PlayersModule's controller needs; global, because PlayersModule
 * cannot import this module (this one imports it).
 */
@Global()
@Module({
  imports: [PlayersModule],
  providers: [PlayerStatsRepository, PlayerStatsService, { provide: PlayerDetails, useExisting: PlayerStatsService }],
  exports: [PlayerDetails],
})
export class PlayerStatsModule {}
