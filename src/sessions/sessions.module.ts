import { Module } from '@nestjs/common';
import { ClubsModule } from '../clubs';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/**
 * Sessions. Closing one asks its tables whether a game is in progress (SessionTables):
 * the tables depend on their session, so SessionTablesModule (src/tables) provides that
 * to every module.
 */
@Module({
  imports: [ClubsModule],
  controllers: [SessionsController],
  providers: [SessionsRepository, SessionsService],
  exports: [SessionsRepository],
})
export class SessionsModule {}
