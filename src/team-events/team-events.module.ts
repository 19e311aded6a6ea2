import { Module } from '@nestjs/common';
import { TablesModule } from '../tables';
import { TeamEventsController } from './team-events.controller';
import { TeamEventsRepository } from './team-events.repository';
import { TeamEventsService } from './team-events.service';

/** Team events: one match table per board, scored on read. */
@Module({
  imports: [TablesModule],
  controllers: [TeamEventsController],
  providers: [TeamEventsRepository, TeamEventsService],
})
export class TeamEventsModule {}
