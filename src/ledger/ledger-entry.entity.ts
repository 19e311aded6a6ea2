import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `entry-fee` and `prize` (R9.9) belong to a tournament, not a table. */
export type LedgerKind = 'game' | 'void' | 'match-stake' | 'rake' | 'entry-fee' | 'prize';

/** R6.3: one payer–payee amount. Append-only (a trigger refuses UPDATE and DELETE). */
@Entity({ name: 'ledger_entries' })
export class LedgerEntryEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @Column({ name: 'table_id', type: 'uuid' })
  tableId: string;

  @Column({ name: 'game_no', type: 'integer', nullable: true })
  gameNo: number | null;

  /** A player id or "house". */
  @Column({ name: 'from_party', type: 'text' })
  fromParty: string;

  @Column({ name: 'to_party', type: 'text' })
  toParty: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'text' })
  kind: LedgerKind;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
