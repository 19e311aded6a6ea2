import { Injectable } from '@nestjs/common';
import { cols, Row } from '../db/decode';
import type { ImmediateWrite, Reads, Tx } from '../db/tx';
import type { UnitOfWork } from '../db/unit-of-work';
import { versionedUpdate } from '../db/versioned-update';
import { encodeEventId } from '../outbox/event-id';
import { clubEventOf } from '../outbox/event-row';
import type { ClubEvent } from '../outbox/event-types';

/** Single statements, each its own short transaction (Db.once): what the worker runs on. */
type Once = UnitOfWork['once'];

/** A subscription as stored (its secret sealed: secret-seal.ts). */
export interface WebhookRow {
  clubId: string;
  id: string;
  url: string;
  /** null: every type of event, those added later included. */
  types: string[] | null;
  sessionId: string | null;
  description: string | null;
  secretSealed: string;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** What an attempt of the delivery log says happened. */
export type AttemptStatus = 'delivered' | 'failed' | 'unknown';
export const ATTEMPT_STATUSES: readonly AttemptStatus[] = ['delivered', 'failed', 'unknown'];

export interface AttemptRow {
  id: string;
  eventId: string;
  attempt: number;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
  at: Date;
  nextAttemptAt: Date | null;
  /** `at` to the microsecond, for the page cursor. */
  atKey: string;
}

export interface NewAttempt {
  clubId: string;
  webhookId: string;
  id: string;
  eventId: string;
  attempt: number;
  status: AttemptStatus;
  responseStatus: number | null;
  error: string | null;
  at: Date;
}

/** A delivery the worker claimed: the subscription as it now is, the attempt's number and the event. */
export interface ClaimedDelivery {
  url: string;
  secretSealed: string;
  eventTx: string;
  eventSeq: string;
  eventId: string;
  /** The number of this attempt (1 for the first). */
  attempt: number;
  /**
   * Set when the attempt before this one was claimed and never recorded (its instance
   * stopped mid-send): when its lease ran out.
   */
  unrecordedUntil: Date | null;
  /** null when the event is no longer in the log (purged after 30 days). */
  event: ClubEvent | null;
}

/** How a delivery stands after an attempt. */
export interface Outcome {
  state: 'pending' | 'delivered' | 'failed';
  /** Seconds before the next attempt (state pending). */
  retryInSeconds: number | null;
  /** Set: the subscription is disabled with this reason (410 Gone). */
  disableReason: string | null;
}

const WEBHOOK_COLUMNS = 'club_id, id, url, types, session_id, description, secret_sealed, enabled, disabled_reason, created_at, updated_at, version';

const decodeWebhook = (r: Row): WebhookRow => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    url: c.text('url'),
    types: r.types === null ? null : c.textArray('types'),
    sessionId: c.textOrNull('session_id'),
    description: c.textOrNull('description'),
    secretSealed: c.text('secret_sealed'),
    enabled: c.bool('enabled'),
    disabledReason: c.textOrNull('disabled_reason'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
    version: c.int('version'),
  };
};

const ATTEMPT_COLUMNS = `id, event_id, attempt, status, response_status, error, at, next_attempt_at, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key`;

const decodeAttempt = (r: Row): AttemptRow => {
  const c = cols(r);
  return {
    id: c.text('id'),
    eventId: c.text('event_id'),
    attempt: c.int('attempt'),
    status: c.oneOf('status', ATTEMPT_STATUSES),
    responseStatus: c.intOrNull('response_status'),
    error: c.textOrNull('error'),
    at: c.date('at'),
    nextAttemptAt: c.dateOrNull('next_attempt_at'),
    atKey: c.text('at_key'),
  };
};

/** Oldest first within the log's order; only events every reader can already see (below the oldest running transaction). */
const DUE = `d.state = 'pending' AND d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until <= now())
  AND d.event_tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

/**
 * Claims up to $3 enabled subscriptions with due deliveries that no worker holds, for
 * claim $1, for $2 seconds; the one served longest ago first. One statement (its own
 * short transaction); SKIP LOCKED lets instances claim side by side. NO KEY UPDATE: a
 * command queuing a delivery holds the subscription row FOR KEY SHARE (the foreign key)
 * until it commits, and neither waits for the other.
 */
const CLAIM_SUBSCRIPTIONS = `
UPDATE webhooks w SET lease_until = now() + make_interval(secs => $2), lease_owner = $1
 WHERE (w.club_id, w.id) IN (
   SELECT c.club_id, c.id FROM webhooks c
    WHERE c.enabled AND (c.lease_until IS NULL OR c.lease_until <= now())
      AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.club_id = c.club_id AND d.webhook_id = c.id AND ${DUE})
    ORDER BY c.lease_until NULLS FIRST, c.club_id, c.id
    LIMIT $3
    FOR NO KEY UPDATE SKIP LOCKED)
RETURNING w.club_id, w.id`;

/**
 * Renews the lease of claim $3 on subscription ($1, $2) (only while it is still that
 * claim's and the subscription is enabled) and claims its oldest due delivery: the
 * attempt number goes up by one and the delivery is leased for $4 seconds, all in one
 * statement. Answers the subscription as it now is (url, sealed secret), and, when a
 * delivery was due, its event.
 */
const CLAIM_NEXT = `
WITH sub AS (
  UPDATE webhooks SET lease_until = now() + make_interval(secs => $4)
   WHERE club_id = $1 AND id = $2 AND lease_owner = $3 AND enabled
  RETURNING club_id, id, url, secret_sealed
), next AS (
  SELECT d.club_id, d.webhook_id, d.event_tx, d.event_seq, d.lease_until
    FROM webhook_deliveries d JOIN sub ON d.club_id = sub.club_id AND d.webhook_id = sub.id
   WHERE ${DUE}
   ORDER BY d.event_tx, d.event_seq
   LIMIT 1
   FOR NO KEY UPDATE OF d SKIP LOCKED
), claimed AS (
  UPDATE webhook_deliveries d SET attempts = d.attempts + 1, lease_until = now() + make_interval(secs => $4)
    FROM next
   WHERE d.club_id = next.club_id AND d.webhook_id = next.webhook_id AND d.event_tx = next.event_tx AND d.event_seq = next.event_seq
  RETURNING d.event_tx, d.event_seq, d.attempts, next.lease_until AS unrecorded_until
)
SELECT sub.url, sub.secret_sealed, c.event_tx::text AS event_tx, c.event_seq::text AS event_seq, c.attempts, c.unrecorded_until,
       e.type, e.occurred_at, e.session_id, e.subject_kind, e.subject_id, e.data, (e.tx IS NOT NULL) AS has_event
  FROM sub
  LEFT JOIN claimed c ON true
  LEFT JOIN events e ON e.club_id = sub.club_id AND e.tx = c.event_tx AND e.seq = c.event_seq`;

/**
 * Records attempt $5 of a delivery: the delivery's state and next attempt (only if that
 * attempt is still its latest: a worker that stalled past its lease changes nothing), the
 * log's row, and, on 410 Gone, the subscription disabled. One statement.
 */
const RECORD = `
WITH d AS (
  UPDATE webhook_deliveries
     SET state = $6, lease_until = NULL,
         next_attempt_at = CASE WHEN $7::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $7::float8) END
   WHERE club_id = $1 AND webhook_id = $2 AND event_tx = $3 AND event_seq = $4 AND attempts = $5 AND state = 'pending'
  RETURNING next_attempt_at
), a AS (
  INSERT INTO webhook_attempts (club_id, webhook_id, id, event_id, attempt, status, response_status, error, at, next_attempt_at)
  SELECT $1::uuid, $2::uuid, $8::uuid, $9::text, $5::int, $10::text, $11::int, $12::text, $13::timestamptz, (SELECT next_attempt_at FROM d WHERE $7::float8 IS NOT NULL)
   WHERE EXISTS (SELECT 1 FROM webhooks WHERE club_id = $1 AND id = $2)
  RETURNING 1
), g AS (
  UPDATE webhooks SET enabled = false, disabled_reason = $14, updated_at = now(), version = version + 1, lease_owner = NULL, lease_until = now()
   WHERE club_id = $1 AND id = $2 AND $14::text IS NOT NULL AND enabled
  RETURNING 1
)
SELECT (SELECT count(*) FROM d)::int AS recorded`;

/** Deletes at most $1 rows at a time of what is past keeping; answers how many. */
const purgeBatch = (table: string, where: string) => `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT $1))`;

@Injectable()
export class WebhooksRepository {
  // Subscriptions ---------------------------------------------------------------------

  /** A new subscription, written with the command's COMMIT. */
  insert(tx: Tx, w: WebhookRow): void {
    tx.defer({
      what: 'webhook insert',
      text: `INSERT INTO webhooks (${WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      values: [w.clubId, w.id, w.url, w.types, w.sessionId, w.description, w.secretSealed, w.enabled, w.disabledReason, w.createdAt, w.updatedAt, w.version],
    });
  }

  /**
   * How many subscriptions the club has, counted under a lock on the club's
   * subscriptions (an advisory lock until the transaction ends), so two creations at once
   * cannot both pass the bound.
   */
  async lockAndCount(tx: Tx, clubId: string): Promise<number> {
    await tx.write({ text: `SELECT pg_advisory_xact_lock(hashtextextended('bg_webhooks/' || $1, 0))`, values: [clubId] });
    return (await tx.maybeOne('SELECT count(*)::int AS n FROM webhooks WHERE club_id = $1', [clubId], (r) => cols(r).int('n'))) ?? 0;
  }

  find(tx: Reads, clubId: string, id: string): Promise<WebhookRow | null> {
    return tx.maybeOne(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE club_id = $1 AND id = $2`, [clubId, id], decodeWebhook);
  }

  lock(tx: Tx, clubId: string, id: string): Promise<WebhookRow | null> {
    return tx.maybeOne(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE club_id = $1 AND id = $2 FOR UPDATE`, [clubId, id], decodeWebhook);
  }

  list(tx: Reads, clubId: string, after: string | null, limit: number): Promise<WebhookRow[]> {
    return after
      ? tx.rows(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE club_id = $1 AND id > $2 ORDER BY id LIMIT $3`, [clubId, after, limit + 1], decodeWebhook)
      : tx.rows(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE club_id = $1 ORDER BY id LIMIT $2`, [clubId, limit + 1], decodeWebhook);
  }

  /** The subscription with `changes` (undefined: unchanged), guarded by the version read (409 when it moved on). */
  update(tx: Tx, w: WebhookRow, changes: Partial<Pick<WebhookRow, 'url' | 'types' | 'description' | 'enabled' | 'disabledReason'>>): Promise<WebhookRow> {
    const set = { url: changes.url, types: changes.types, description: changes.description, enabled: changes.enabled, disabled_reason: changes.disabledReason };
    return tx.guardedReturning(versionedUpdate({ table: 'webhooks', key: { club_id: w.clubId, id: w.id }, version: w.version, set, returning: WEBHOOK_COLUMNS }), decodeWebhook);
  }

  /** Deletes a subscription read and locked; its deliveries and log go with it (ON DELETE CASCADE). */
  delete(tx: Tx, w: WebhookRow): void {
    tx.defer({ what: 'webhook delete', text: 'DELETE FROM webhooks WHERE club_id = $1 AND id = $2', values: [w.clubId, w.id], guard: 1 });
  }

  /** Disables a subscription read and locked (410 Gone to a test event), with the command's COMMIT. */
  disable(tx: Tx, w: WebhookRow, reason: string): void {
    tx.defer({
      what: 'webhook update',
      text: 'UPDATE webhooks SET enabled = false, disabled_reason = $3, updated_at = now(), version = version + 1 WHERE club_id = $1 AND id = $2 AND version = $4',
      values: [w.clubId, w.id, reason, w.version],
      guard: 1,
    });
  }

  // The delivery log ------------------------------------------------------------------

  /** A page of a subscription's attempts, newest first, after the cursor (`at` to the microsecond, id). */
  listAttempts(tx: Reads, clubId: string, webhookId: string, after: [string, string] | null, limit: number): Promise<AttemptRow[]> {
    return after
      ? tx.rows(
          `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE club_id = $1 AND webhook_id = $2 AND (at, id) < ($3::timestamptz, $4::uuid) ORDER BY at DESC, id DESC LIMIT $5`,
          [clubId, webhookId, after[0], after[1], limit + 1],
          decodeAttempt,
        )
      : tx.rows(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE club_id = $1 AND webhook_id = $2 ORDER BY at DESC, id DESC LIMIT $3`, [clubId, webhookId, limit + 1], decodeAttempt);
  }

  /** An attempt for the log, written with the command's COMMIT (the test event). */
  insertAttempt(tx: Tx, a: NewAttempt): void {
    tx.defer({ what: 'webhook attempt', ...insertAttempt(a) });
  }

  // The worker (each statement its own short transaction, on `db`: Db.once) ----------

  async claimSubscriptions(db: Once, owner: string, leaseSeconds: number, limit: number): Promise<Array<{ clubId: string; id: string }>> {
    return db.rows(CLAIM_SUBSCRIPTIONS, [owner, leaseSeconds, limit], (r) => ({ clubId: cols(r).text('club_id'), id: cols(r).text('id') }));
  }

  /**
   * The next due delivery of a subscription this claim holds, claimed as its next
   * attempt: null when the claim lost the subscription (its lease ran out and another
   * took it, or it was disabled or deleted); `delivery` null when nothing is due.
   */
  async claimNext(db: Once, clubId: string, webhookId: string, owner: string, leaseSeconds: number): Promise<{ delivery: ClaimedDelivery | null } | null> {
    const row = await db.maybeOne(CLAIM_NEXT, [clubId, webhookId, owner, leaseSeconds], (r) => r);
    if (!row) return null;
    const c = cols(row);
    const tx = c.textOrNull('event_tx');
    const seq = c.textOrNull('event_seq');
    if (tx === null || seq === null) return { delivery: null };
    const eventId = encodeEventId({ tx, seq });
    const event: ClubEvent | null = c.bool('has_event') ? clubEventOf(c, { tx, seq }) : null;
    return {
      delivery: {
        url: c.text('url'),
        secretSealed: c.text('secret_sealed'),
        eventTx: tx,
        eventSeq: seq,
        eventId,
        attempt: c.int('attempts'),
        unrecordedUntil: c.dateOrNull('unrecorded_until'),
        event,
      },
    };
  }

  /** Gives a claimed delivery back unsent (the instance is stopping): its attempt number is not used. */
  async unclaim(db: Once, clubId: string, webhookId: string, d: ClaimedDelivery): Promise<void> {
    await db.write({
      text: `UPDATE webhook_deliveries SET attempts = attempts - 1, lease_until = NULL WHERE club_id = $1 AND webhook_id = $2 AND event_tx = $3 AND event_seq = $4 AND attempts = $5 AND state = 'pending'`,
      values: [clubId, webhookId, d.eventTx, d.eventSeq, d.attempt],
    });
  }

  /** Records an attempt and what follows from it; answers whether the delivery was still this attempt's. */
  async record(db: Once, a: NewAttempt, d: Pick<ClaimedDelivery, 'eventTx' | 'eventSeq'>, o: Outcome): Promise<boolean> {
    const values = [a.clubId, a.webhookId, d.eventTx, d.eventSeq, a.attempt, o.state, o.retryInSeconds, a.id, a.eventId, a.status, a.responseStatus, a.error, a.at, o.disableReason];
    const recorded = await db.maybeOne(RECORD, values, (r) => cols(r).int('recorded'));
    return recorded === 1;
  }

  /** Logs an attempt on its own (one whose instance stopped before recording it). */
  async logAttempt(db: Once, a: NewAttempt): Promise<void> {
    await db.write(insertAttempt(a));
  }

  /** Lets go of a subscription this claim holds; it is then the last served. */
  async release(db: Once, clubId: string, webhookId: string, owner: string): Promise<void> {
    await db.write({ text: 'UPDATE webhooks SET lease_until = now(), lease_owner = NULL WHERE club_id = $1 AND id = $2 AND lease_owner = $3', values: [clubId, webhookId, owner] });
  }

  /** Forgets attempts and deliveries older than `days`, a batch at a time; answers how many rows went. */
  async purge(db: Once, days: number, batch = 5000): Promise<number> {
    let total = 0;
    for (const [table, where] of [
      ['webhook_attempts', 'at < now() - make_interval(days => $2)'],
      ['webhook_deliveries', 'created_at < now() - make_interval(days => $2)'],
    ]) {
      for (let i = 0; i < 1000; i++) {
        const n = await db.write({ text: purgeBatch(table, where), values: [batch, days] });
        total += n;
        if (n < batch) break;
      }
    }
    return total;
  }
}

function insertAttempt(a: NewAttempt): ImmediateWrite {
  return {
    text: 'INSERT INTO webhook_attempts (club_id, webhook_id, id, event_id, attempt, status, response_status, error, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    values: [a.clubId, a.webhookId, a.id, a.eventId, a.attempt, a.status, a.responseStatus, a.error, a.at],
  };
}
