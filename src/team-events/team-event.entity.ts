import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A team as stored in `team_events.teams`: its name and its players in board order (R3.7). */
export interface StoredTeam {
  name: string;
  players: string[];
}

/**
 * A team event (R3.7): two teams, one match per board. What is fixed at creation
 * lives here; the score and the winner are derived from the board matches.
 */
@Entity({ name: 'team_events' })
export class TeamEventEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** Every board's match target (R3.1). */
  @Column({ type: 'integer' })
  target: number;

  /** Every board's match stake (R3.8), paid by that board's loser. */
  @Column({ name: 'stake_minor', type: 'bigint', nullable: true })
  stakeMinor: string | null;

  /** The two teams, team 0 first. */
  @Column({ type: 'jsonb' })
  teams: StoredTeam[];

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'integer', default: 1 })
  version: number;
}

/** Board `boardNo` (from 1) of an event and the match played on it. */
@Entity({ name: 'team_event_boards' })
export class TeamEventBoardEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @PrimaryColumn({ name: 'board_no', type: 'integer' })
  boardNo: number;

  @Column({ name: 'match_id', type: 'uuid' })
  matchId: string;
}
