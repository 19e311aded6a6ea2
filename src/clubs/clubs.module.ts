import { Module } from '@nestjs/common';
import { AuthModule } from '../guards';
import { ApiKeysRepository } from './api-keys.repository';
import { ClubsController } from './clubs.controller';
import { ClubsRepository } from './clubs.repository';
import { ClubsService } from './clubs.service';

/** Clubs and their API keys. */
@Module({
  imports: [AuthModule],
  controllers: [ClubsController],
  providers: [ClubsRepository, ApiKeysRepository, ClubsService],
  exports: [ClubsRepository],
})
export class ClubsModule {}
