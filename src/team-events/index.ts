/** Team events: what the rest of the app may use of src/team-events. */
export { TeamEventsModule } from './team-events.module';
