import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A session a party is on (a running total, a payment made or received, or a seat at one of
 * its tables), dated as the session is (`startsAt`, else creation): a player's statement
 * pages through his own rows on (club, party, dated, session). Kept by triggers with the
 * writes it follows (migration PartySessions).
 */
@Entity({ name: 'party_sessions' })
export class PartySessionEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  /** A player id or "house". */
  @PrimaryColumn({ type: 'text' })
  party: string;

  /** The session's `startsAt`, else its creation. */
  @Column({ type: 'timestamptz' })
  dated: Date;
}
