import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One event of the log (the schema check reads it; the app uses SQL). */
@Entity({ name: 'events' })
export class EventEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  /** The inserting transaction's id (xid8 as bigint). */
  @PrimaryColumn({ type: 'bigint' })
  tx: string;

  @PrimaryColumn({ type: 'bigint' })
  seq: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ name: 'subject_kind', type: 'text' })
  subjectKind: string;

  @Column({ name: 'subject_id', type: 'text' })
  subjectId: string;

  /** As written (json, not jsonb): the log is never searched inside, and json is read back as it was sent. */
  @Column({ type: 'json' })
  data: unknown;
}

/** A webhook subscription; its secret is kept sealed with the server's key. */
@Entity({ name: 'webhooks' })
export class WebhookEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true, nullable: true })
  types: string[] | null;

  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  /** The worker's claim holding the lease (lease_until): only it renews or releases it. */
  @Column({ name: 'lease_owner', type: 'uuid', nullable: true })
  leaseOwner: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'integer' })
  version: number;
}

/** One event to send to one subscription, queued with the event by a trigger. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  @PrimaryColumn({ name: 'event_tx', type: 'bigint' })
  eventTx: string;

  @PrimaryColumn({ name: 'event_seq', type: 'bigint' })
  eventSeq: string;

  @Column({ type: 'text' })
  state: string;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** The delivery log: one row per attempt to send an event to a subscription. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttemptEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'timestamptz' })
  at: Date;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;
}
