/** The event log's readers: what the rest of the app may use of src/events. */
export { EventsModule } from './events.module';
export { EventsRepository } from './events.repository';
export type { LoggedEvent } from './events.repository';
export { positionOf } from './event-query';
export type { EventFilter } from './event-query';
export { EventsService } from './events.service';
