import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'clubs' })
export class ClubEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'text' })
  timezone: string;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
