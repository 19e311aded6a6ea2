import { Column, Entity, PrimaryColumn } from 'typeorm';

export type SessionStatus = 'open' | 'closed';

@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'text', default: 'open' })
  status: SessionStatus;

  /** R6.4 rake in basis points (2.5 % = 250). */
  @Column({ name: 'rake_bp', type: 'integer', default: 0 })
  rakeBp: number;

  @Column({ name: 'starts_at', type: 'timestamptz', nullable: true })
  startsAt: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
