import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { TournamentConfig, TournamentState } from './tournament-state';

/** A tournament (R9): the director's settings and its flights' draws. Its SQL is in TournamentsRepository. */
@Entity({ name: 'tournaments' })
export class TournamentEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  format: 'knockout' | 'swiss';

  @Column({ type: 'text' })
  status: 'open' | 'running' | 'finished';

  @Column({ type: 'jsonb' })
  config: TournamentConfig;

  @Column({ type: 'jsonb' })
  state: TournamentState;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
