import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A party's running net and finished games in one session (kept with the ledger, R6.5). */
@Entity({ name: 'session_totals' })
export class SessionTotalEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  /** A player id or "house". */
  @PrimaryColumn({ type: 'text' })
  party: string;

  @Column({ name: 'net_minor', type: 'bigint', default: 0 })
  netMinor: string;

  @Column({ type: 'integer', default: 0 })
  games: number;

  @Column({ name: 'last_at', type: 'timestamptz' })
  lastAt: Date;
}
