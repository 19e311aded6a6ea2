/** Standings: what the rest of the app may use of src/standings. */
export { StandingsModule } from './standings.module';
