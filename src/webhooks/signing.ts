import { Webhook } from 'standardwebhooks';
import type { ClubEvent } from '../outbox/event-types';

/** Who is calling, as receivers see it. */
const USER_AGENT = 'bg-club-scorekeeping-webhooks/1';

/** The body of a delivery: the event JSON, its fields in the order of the HTTP contract. */
export function eventBody(e: ClubEvent): string {
  return JSON.stringify({ id: e.id, type: e.type, occurredAt: e.occurredAt, sessionId: e.sessionId, subject: { kind: e.subject.kind, id: e.subject.id }, data: e.data });
}

/**
 * The headers of a delivery (Standard Webhooks): `webhook-id` (the event id, the same on
 * every attempt, so a receiver can drop a repeat), `webhook-timestamp` (Unix seconds, of
 * this attempt) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` under the secret), with `webhook-attempt`, the attempt's number.
 */
export function signedHeaders(secret: string, eventId: string, body: string, attempt: number, now: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, now, body),
    'webhook-attempt': String(attempt),
  };
}
