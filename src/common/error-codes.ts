/**
 * The stable error codes of the HTTP layer, and the one place that decides their
 * status. A new code does not compile until it is given a status here.
 * Refusals by the rules (src/domain) are all 422 with their own codes.
 */
export enum ErrorCode {
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  MALFORMED_JSON = 'MALFORMED_JSON',
  BODY_TOO_COMPLEX = 'BODY_TOO_COMPLEX',
  MALFORMED_URL = 'MALFORMED_URL',
  INVALID_CURSOR = 'INVALID_CURSOR',
  INVALID_IDEMPOTENCY_KEY = 'INVALID_IDEMPOTENCY_KEY',
  /** `after`, `Last-Event-ID` or `lastEventId` is not an event id this service gave out. */
  INVALID_EVENT_ID = 'INVALID_EVENT_ID',
  /** `types` names something that is not an event type. */
  INVALID_EVENT_TYPE = 'INVALID_EVENT_TYPE',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED',
  NOT_ACCEPTABLE = 'NOT_ACCEPTABLE',
  REQUEST_TIMEOUT = 'REQUEST_TIMEOUT',
  CONFLICT = 'CONFLICT',
  IDEMPOTENCY_KEY_IN_FLIGHT = 'IDEMPOTENCY_KEY_IN_FLIGHT',
  VERSION_MISMATCH = 'VERSION_MISMATCH',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  REFERENCE_NOT_FOUND = 'REFERENCE_NOT_FOUND',
  LAST_OWNER_KEY = 'LAST_OWNER_KEY',
  EXPORT_NOT_POSSIBLE = 'EXPORT_NOT_POSSIBLE',
  /** A webhook URL on (or resolving to) a loopback, private, link-local… address, without WEBHOOK_ALLOW_PRIVATE. */
  WEBHOOK_URL_PRIVATE = 'WEBHOOK_URL_PRIVATE',
  /** A webhook URL whose host name does not resolve (so its address cannot be checked). */
  WEBHOOK_URL_UNRESOLVABLE = 'WEBHOOK_URL_UNRESOLVABLE',
  /** The club has as many webhook subscriptions as it may. */
  WEBHOOK_LIMIT_REACHED = 'WEBHOOK_LIMIT_REACHED',
  RATE_LIMITED = 'RATE_LIMITED',
  /** The club has as many live event streams open on this instance as it may. */
  TOO_MANY_STREAMS = 'TOO_MANY_STREAMS',
  HEADERS_TOO_LARGE = 'HEADERS_TOO_LARGE',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  DATABASE_BUSY = 'DATABASE_BUSY',
  /** This instance serves as many live event streams as it may (or is shutting down). */
  STREAMS_AT_CAPACITY = 'STREAMS_AT_CAPACITY',
  /** The connection was lost after COMMIT was sent: the write may or may not have been recorded. */
  COMMIT_OUTCOME_UNKNOWN = 'COMMIT_OUTCOME_UNKNOWN',
  /** GET /ready: the database does not answer, or a migration of this build is not applied there yet. */
  NOT_READY = 'NOT_READY',
}

function assertUnreachable(x: never): never {
  throw new Error(`unhandled error code ${String(x)}`);
}

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.VALIDATION_FAILED:
    case ErrorCode.MALFORMED_JSON:
    case ErrorCode.BODY_TOO_COMPLEX:
    case ErrorCode.MALFORMED_URL:
    case ErrorCode.INVALID_CURSOR:
    case ErrorCode.INVALID_IDEMPOTENCY_KEY:
    case ErrorCode.INVALID_EVENT_ID:
    case ErrorCode.INVALID_EVENT_TYPE:
      return 400;
    case ErrorCode.UNAUTHENTICATED:
      return 401;
    case ErrorCode.FORBIDDEN:
      return 403;
    case ErrorCode.NOT_FOUND:
      return 404;
    case ErrorCode.METHOD_NOT_ALLOWED:
      return 405;
    case ErrorCode.NOT_ACCEPTABLE:
      return 406;
    case ErrorCode.REQUEST_TIMEOUT:
      return 408;
    case ErrorCode.CONFLICT:
    case ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT:
      return 409;
    case ErrorCode.VERSION_MISMATCH:
      return 412;
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return 413;
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return 415;
    case ErrorCode.IDEMPOTENCY_KEY_REUSED:
    case ErrorCode.REFERENCE_NOT_FOUND:
    case ErrorCode.LAST_OWNER_KEY:
    case ErrorCode.EXPORT_NOT_POSSIBLE:
    case ErrorCode.WEBHOOK_URL_PRIVATE:
    case ErrorCode.WEBHOOK_URL_UNRESOLVABLE:
    case ErrorCode.WEBHOOK_LIMIT_REACHED:
      return 422;
    case ErrorCode.RATE_LIMITED:
    case ErrorCode.TOO_MANY_STREAMS:
      return 429;
    case ErrorCode.HEADERS_TOO_LARGE:
      return 431;
    case ErrorCode.INTERNAL_ERROR:
      return 500;
    case ErrorCode.DATABASE_UNAVAILABLE:
    case ErrorCode.DATABASE_BUSY:
    case ErrorCode.COMMIT_OUTCOME_UNKNOWN:
    case ErrorCode.STREAMS_AT_CAPACITY:
    case ErrorCode.NOT_READY:
      return 503;
    default:
      return assertUnreachable(code);
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleOf(status: number): string {
  return TITLES[status] ?? 'Error';
}
