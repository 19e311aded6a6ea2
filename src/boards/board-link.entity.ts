import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a board link shows (a session, a tournament), beside its key of role `board`. Its SQL is in BoardsRepository. */
@Entity({ name: 'board_links' })
export class BoardLinkEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ name: 'tournament_id', type: 'uuid', nullable: true })
  tournamentId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
