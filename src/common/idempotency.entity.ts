import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A completed request under an Idempotency-Key, replayed for the same key and body. */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ name: 'status_code', type: 'integer' })
  statusCode: number;

  /** The response body exactly as first sent. */
  @Column({ type: 'text' })
  body: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}

/** The operator's keys (club creation), which belong to no club. */
@Entity({ name: 'operator_idempotency_keys' })
export class OperatorIdempotencyKeyEntity {
  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ name: 'status_code', type: 'integer' })
  statusCode: number;

  @Column({ type: 'text' })
  body: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
