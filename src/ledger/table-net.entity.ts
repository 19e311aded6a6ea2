import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A party's running net at one table (received − paid over the table's ledger entries,
 * voids included): what a money game's or a chouette's answer shows as `netMinor`, read
 * as a few rows whatever the table's history. Kept with the ledger (LedgerRepository.post).
 */
@Entity({ name: 'table_nets' })
export class TableNetEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'table_id', type: 'uuid' })
  tableId: string;

  /** A player id or "house". */
  @PrimaryColumn({ type: 'text' })
  party: string;

  @Column({ name: 'net_minor', type: 'bigint', default: 0 })
  netMinor: string;
}
