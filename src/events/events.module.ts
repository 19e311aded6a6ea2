import { Module } from '@nestjs/common';
import { AuthModule } from '../guards';
import { EventsController } from './events.controller';
import { EventsHub } from './events-hub';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/**
 * The readers of the event log (the write side is the kernel's Outbox): pages of a
 * club's events (GET /v1/events) and live streams of them (GET /v1/events/stream,
 * served by this instance's EventsHub). The auth module gives the API key cache, with
 * which a stream's key is looked at again while it is open.
 */
@Module({
  imports: [AuthModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, EventsHub],
  exports: [EventsRepository, EventsService],
})
export class EventsModule {}
