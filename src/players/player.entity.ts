import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'players' })
export class PlayerEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  nickname: string | null;

  @Column({ type: 'double precision', default: 1500 })
  rating: number;

  @Column({ type: 'integer', default: 0 })
  experience: number;

  /** Finished backgammon matches played (the rated ones, R7.1, R8.9): kept where the rating changes. */
  @Column({ name: 'rated_matches', type: 'integer', default: 0 })
  ratedMatches: number;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
