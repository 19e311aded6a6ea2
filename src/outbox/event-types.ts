import { ROUTE_KIND_NAMES, type RouteKind } from '../domain/table-kinds';

/**
 * The kinds of event (the HTTP contract, "Events: live updates and webhooks"): every
 * change a client could show is one of these, written in the transaction of the change.
 */
export const EVENT_TYPES = [
  'player.created',
  'player.updated',
  'session.created',
  'session.updated',
  'session.closed',
  'table.created',
  'table.updated',
  'game.started',
  'game.action',
  'game.finished',
  'game.voided',
  'game.abandoned',
  'payment.recorded',
  'rating.changed',
  'tournament.created',
  'tournament.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The one event a webhook receives that is not in the log: `POST /v1/webhooks/{id}/test`. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export function isEventType(s: string): s is EventType {
  return (EVENT_TYPES as readonly string[]).includes(s);
}

/**
 * What an event is about. A table's kind is the one of its route (`match`, `money-game`,
 * `chouette`); a game's id is `<tableId>/games/<gameNo>` (the path of the game under its
 * table's route).
 */
export const SUBJECT_KINDS = ['player', 'session', ...ROUTE_KIND_NAMES, 'game', 'payment', 'tournament'] as const;

export type SubjectKind = 'player' | 'session' | RouteKind | 'game' | 'payment' | 'tournament';

/** An event as a command writes it; its id and time are given by the log. */
export interface NewEvent {
  type: EventType;
  sessionId: string | null;
  subject: { kind: SubjectKind; id: string };
  /** The resource after the change, as the API answers it (the game, the table, the payment…; a `table.updated` lists only the game it concerns). */
  data: unknown;
}

/** An event as readers get it (GET /v1/events, the stream, webhooks). */
export interface ClubEvent {
  id: string;
  type: string;
  occurredAt: string;
  sessionId: string | null;
  subject: { kind: string; id: string };
  data: unknown;
}
