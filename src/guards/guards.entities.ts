import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Requests of one API key in one fixed window (shared by every app instance). */
@Entity({ name: 'rate_limit_counters' })
export class RateLimitCounterEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId: string;

  @PrimaryColumn({ name: 'window_start', type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'integer' })
  hits: number;
}

/** Failed authentications per client address (`ip:<address>`) and the operator token's requests (`operator`), per fixed window. */
@Entity({ name: 'auth_rate_counters' })
export class AuthRateCounterEntity {
  @PrimaryColumn({ type: 'text' })
  subject: string;

  @PrimaryColumn({ name: 'window_start', type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'integer' })
  hits: number;
}

/** Who (which API key) did what: one row per successful command, in its transaction. Append-only. */
@Entity({ name: 'audit_log' })
export class AuditEntryEntity {
  @PrimaryColumn({ name: 'club_id', type: 'uuid' })
  clubId: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** `key` (a club API key) or `operator` (the operator token: no key). */
  @Column({ type: 'text', default: 'key' })
  actor: 'key' | 'operator';

  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId: string | null;

  @Column({ type: 'text' })
  method: string;

  /** The route pattern, e.g. /v1/money-games/:id/games. */
  @Column({ type: 'text' })
  route: string;

  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'smallint' })
  status: number;

  /** The server's own id of the request (X-Request-Id of its answer, in the logs). */
  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  /** The X-Request-Id the caller sent, if it was sane. */
  @Column({ name: 'client_request_id', type: 'text', nullable: true })
  clientRequestId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  body: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
