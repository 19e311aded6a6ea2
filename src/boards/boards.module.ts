import { Module } from '@nestjs/common';
import { ClubsModule } from '../clubs';
import { EventsModule } from '../events';
import { AuthModule } from '../guards';
import { StandingsModule } from '../standings';
import { TablesModule } from '../tables';
import { TournamentsModule } from '../tournaments';
import { BoardPageController } from './board-page.controller';
import { BoardController, BoardsController } from './boards.controller';
import { BoardsRepository } from './boards.repository';
import { BoardsService } from './boards.service';

/**
 * The club board: board links (read-only tokens for a screen), the board's answer and
 * stream, and the page that shows them.
 */
@Module({
  imports: [AuthModule, ClubsModule, EventsModule, TablesModule, TournamentsModule, StandingsModule],
  controllers: [BoardsController, BoardController, BoardPageController],
  providers: [BoardsRepository, BoardsService],
})
export class BoardsModule {}
