import type { KeyAuth } from '../common/auth';
import type { PlayerDetailDto } from './player-stats.dto';

/**
 * `GET /v1/players/{id}`: the player with his statistics. The statistics read the tables'
 * games, so the implementation (PlayerStatsService, src/player-stats) lives outside
 * src/players and is bound to this token in app.module.
 */
export abstract class PlayerDetails {
  abstract get(auth: KeyAuth, id: string): Promise<PlayerDetailDto>;
}
