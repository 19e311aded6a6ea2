import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger';
import { TablesModule } from '../tables';
import { TournamentLedger } from './tournament-ledger';
import { TournamentsController } from './tournaments.controller';
import { TournamentsRepository } from './tournaments.repository';
import { TournamentsService } from './tournaments.service';

/** Tournaments (R9): the draw, carried on by its matches' ends through the tables' match-end hook. */
@Module({
  imports: [TablesModule, LedgerModule],
  controllers: [TournamentsController],
  providers: [TournamentsRepository, TournamentsService, TournamentLedger],
  exports: [TournamentsService],
})
export class TournamentsModule {}
