import { Module } from '@nestjs/common';
import { ClubsModule } from '../clubs';
import { SessionsModule } from '../sessions';
import { SettlementModule } from '../settlement';
import { StandingsController } from './standings.controller';
import { StandingsRepository } from './standings.repository';
import { StandingsService } from './standings.service';

/** Standings of a session and its games, computed on read from the finished games. */
@Module({
  imports: [SessionsModule, SettlementModule, ClubsModule],
  controllers: [StandingsController],
  providers: [StandingsRepository, StandingsService],
  exports: [StandingsService],
})
export class StandingsModule {}
