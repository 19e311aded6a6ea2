export { TournamentsModule } from './tournaments.module';
