/** Players: what the rest of the app may use of src/players. */
export { PlayersModule } from './players.module';
export { playerNames, PlayersRepository } from './players.repository';
export { mapPlayer } from './players.service';
export { PlayerDetails } from './player-details';
export { PlayerDetailDto } from './player-stats.dto';
