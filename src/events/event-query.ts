import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { decodeEventId, LogPosition } from '../outbox/event-id';
import { EVENT_TYPES, EventType, isEventType } from '../outbox/event-types';

/** Which events a reader wants: null is "any". */
export interface EventFilter {
  types: readonly EventType[] | null;
  sessionId: string | null;
}

/** The place before the first event of the log. */
export const LOG_START: LogPosition = { tx: '0', seq: '0' };

/**
 * The position of an event id a client sends back (`after`, `Last-Event-ID`,
 * `lastEventId`): 400 INVALID_EVENT_ID when it is not one this service gives out.
 */
export function positionOf(id: string, field: string): LogPosition {
  const p = decodeEventId(id);
  if (p === null) {
    throw new ApiError(ErrorCode.INVALID_EVENT_ID, `${field} is not an event id this service gave out (32 lowercase hex digits, as in an event's \`id\`).`, {
      errors: [{ field, message: `${field} is not an event id` }],
    });
  }
  return p;
}

/**
 * `types`, a comma-separated list of event types (spaces around a name are allowed;
 * repeats count once), or null when not given: 400 INVALID_EVENT_TYPE naming what is not a type.
 */
export function typesOf(raw: string | undefined): EventType[] | null {
  if (raw === undefined) return null;
  const names = raw.split(',').map((s) => s.trim());
  const wrong = names.filter((n) => !isEventType(n));
  if (wrong.length > 0) {
    const shown = wrong.slice(0, 5).map((n) => (n === '' ? '(an empty name)' : JSON.stringify(n.slice(0, 64))));
    throw new ApiError(ErrorCode.INVALID_EVENT_TYPE, `types names ${shown.join(', ')}, not an event type; the types are ${EVENT_TYPES.join(', ')}.`, {
      errors: [{ field: 'types', message: `not an event type: ${shown.join(', ')}` }],
    });
  }
  return [...new Set(names as EventType[])];
}
