/** Player statistics: what the rest of the app may use of src/player-stats. */
export { PlayerStatsModule } from './player-stats.module';
export { CHOUETTE_REPLAY_SQL, chouetteCubeResults, GAME_VARIANT_SQL, lowerSeats, lowerSides, resultOrNull, seatsOrNull, sideOf, sidesOrNull, TABLE_SIDES_SQL } from './stats-rows';
export { rebuildQueued } from './rebuild';
