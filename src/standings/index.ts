/** Standings: what the rest of the app may use of src/standings. */
export { StandingsModule } from './standings.module';
export { StandingsService } from './standings.service';
export type { StandingsDto } from './standings.dto';
