import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A player's statistics counters in one variant (a match's counters under its table's
 * variant): the read model behind GET /v1/players/{id}, kept in the transaction that
 * finishes or voids a game or ends or reopens a match (see src/domain/player-stats.ts).
 */
@Entity({ name: 'player_stats' })
export class PlayerStatEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'player_id', type: 'uuid' })
  playerId: string;

  @PrimaryColumn({ type: 'text' })
  variant: string;

  @Column({ name: 'games_played', type: 'integer', default: 0 })
  gamesPlayed: number;

  @Column({ name: 'games_won', type: 'integer', default: 0 })
  gamesWon: number;

  @Column({ name: 'games_lost', type: 'integer', default: 0 })
  gamesLost: number;

  @Column({ name: 'draws', type: 'integer', default: 0 })
  draws: number;

  @Column({ name: 'points_won', type: 'bigint', default: 0 })
  pointsWon: string;

  @Column({ name: 'points_lost', type: 'bigint', default: 0 })
  pointsLost: string;

  @Column({ name: 'gammons_won', type: 'integer', default: 0 })
  gammonsWon: number;

  @Column({ name: 'gammons_lost', type: 'integer', default: 0 })
  gammonsLost: number;

  @Column({ name: 'backgammons_won', type: 'integer', default: 0 })
  backgammonsWon: number;

  @Column({ name: 'backgammons_lost', type: 'integer', default: 0 })
  backgammonsLost: number;

  @Column({ name: 'doubles', type: 'integer', default: 0 })
  doubles: number;

  @Column({ name: 'takes', type: 'integer', default: 0 })
  takes: number;

  @Column({ name: 'passes', type: 'integer', default: 0 })
  passes: number;

  @Column({ name: 'beavers', type: 'integer', default: 0 })
  beavers: number;

  @Column({ name: 'matches_played', type: 'integer', default: 0 })
  matchesPlayed: number;

  @Column({ name: 'matches_won', type: 'integer', default: 0 })
  matchesWon: number;

  @Column({ name: 'resignations_offered', type: 'integer', default: 0 })
  resignationsOffered: number;

  @Column({ name: 'resignations_accepted', type: 'integer', default: 0 })
  resignationsAccepted: number;

  @Column({ name: 'resignations_refused', type: 'integer', default: 0 })
  resignationsRefused: number;
}
