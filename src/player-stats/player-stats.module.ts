import { Global, Module } from '@nestjs/common';
import { PlayerDetails, PlayersModule } from '../players';
import { PlayerStatsRepository } from './player-stats.repository';
import { PlayerStatsService } from './player-stats.service';
import { PlayerStatsWriter } from './player-stats.writer';
import { GameStats } from '../tables';

/**
 * Player statistics, read from their read model (player_stats) and kept by the
 * commands through GameStats. Its exports are PlayerDetails, which PlayersModule's
 * controller needs, and GameStats, which TablesModule's services need; global, because
 * neither module can import this one (it imports them).
 */
@Global()
@Module({
  imports: [PlayersModule],
  providers: [
    PlayerStatsRepository,
    PlayerStatsService,
    PlayerStatsWriter,
    { provide: PlayerDetails, useExisting: PlayerStatsService },
    { provide: GameStats, useExisting: PlayerStatsWriter },
  ],
  exports: [PlayerDetails, GameStats],
})
export class PlayerStatsModule {}
