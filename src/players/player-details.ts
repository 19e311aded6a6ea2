import type { KeyAuth } from '../common/auth';
import type { PlayerDetailDto } from './player-stats.dto';

/**
 * `GET /v1/players/{id}`: the player with his statistics. The statistics read the tables'
 * games, so the implementation (PlayerStatsService, src/player-stats) lives outside
 * src/players; PlayerStatsModule provides it under this token to every module.
 */
export abstract class PlayerDetails {
  abstract get(auth: KeyAuth, id: string): Promise<PlayerDetailDto>;
}
