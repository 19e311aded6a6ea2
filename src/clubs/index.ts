/** Clubs and API keys: what the rest of the app may use of src/clubs. */
export { ClubsModule } from './clubs.module';
export { ClubsRepository } from './clubs.repository';
