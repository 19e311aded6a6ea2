import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * R6.2: a party's gross money in one currency, across sessions: the sum of |amount| of
 * the ledger entries (a void takes back its game's) and payments it takes part in. Kept
 * within 2^53 − 1 by a CHECK, so every figure reported about the party is a safe integer.
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
}
