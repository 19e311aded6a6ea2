import { Column, Entity, PrimaryColumn } from 'typeorm';

/** R6.6: cash handed over, recorded against a session. Append-only (a trigger refuses UPDATE and DELETE). */
@Entity({ name: 'payments' })
export class PaymentEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  /** A player id or "house". */
  @Column({ name: 'from_party', type: 'text' })
  fromParty: string;

  @Column({ name: 'to_party', type: 'text' })
  toParty: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'text', nullable: true })
  note: string | null;

  /** The API key that recorded it. */
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
