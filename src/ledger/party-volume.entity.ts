import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * R6.2: a party's gross money in one currency, across sessions: the sum of |amount| of
 * the ledger entries (a void takes back its game's) and payments it takes part in. Kept
 * within 2^53 − 1 by a CHECK, so every figure reported about the party is a safe integer.
 * Also the read model of its balance (R6.6: net + paid − received) and money statistics.
 */
@Entity({ name: 'party_volumes' })
export class PartyVolumeEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  /** A player id or "house". */
  @PrimaryColumn({ type: 'text' })
  party: string;

  @PrimaryColumn({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'gross_minor', type: 'bigint' })
  grossMinor: string;

  /** Ledger net: received − paid over its entries, every session of the currency. */
  @Column({ name: 'net_minor', type: 'bigint', default: 0 })
  netMinor: string;

  /** Payments it made (R6.6). */
  @Column({ name: 'paid_minor', type: 'bigint', default: 0 })
  paidMinor: string;

  /** Payments it received. */
  @Column({ name: 'received_minor', type: 'bigint', default: 0 })
  receivedMinor: string;

  /** It has a running total in a session of this currency (it played, or its ledger moved). */
  @Column({ name: 'has_totals', type: 'boolean', default: false })
  hasTotals: boolean;
}
