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

  /** The table of a game's or a match's entry (every entry read by table has one); null for a tournament's (R9.9). */
  @Column({ name: 'table_id', type: 'uuid', nullable: true })
  tableId: string;

  /** The tournament of an entry fee, a prize or their reversal (R9.9); null for a table's entry. */
  @Column({ name: 'tournament_id', type: 'uuid', nullable: true })
  tournamentId?: string | null;

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
