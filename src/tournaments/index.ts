/** Tournaments: what the rest of the app may use of src/tournaments. */
export { TournamentsModule } from './tournaments.module';
export { decodeTournament } from './tournaments.repository';
export { statementFlights } from './tournament-view';
export type { TournamentRow } from './tournament-state';
export { TournamentsService } from './tournaments.service';
export type { TournamentDto } from './tournaments.dto';
