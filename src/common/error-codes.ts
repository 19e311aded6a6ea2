/**
 * The stable error codes of the HTTP layer, and the one place that decides their status
 * (HTTP_STATUS) and title (by status). A new code does not compile until it is given a
 * status here. Refusals by the rules (src/domain) are all 422 with their own codes.
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

/**
 * The status each HTTP-layer code is answered with: a code missing here does not compile.
 * Refusals by the rules (src/domain/error-codes.ts) are all REFUSAL_STATUS.
 */
const HTTP_STATUS = {
  [ErrorCode.VALIDATION_FAILED]: 400,
  [ErrorCode.MALFORMED_JSON]: 400,
  [ErrorCode.BODY_TOO_COMPLEX]: 400,
  [ErrorCode.MALFORMED_URL]: 400,
  [ErrorCode.INVALID_CURSOR]: 400,
  [ErrorCode.INVALID_IDEMPOTENCY_KEY]: 400,
  [ErrorCode.INVALID_EVENT_ID]: 400,
  [ErrorCode.INVALID_EVENT_TYPE]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ErrorCode.NOT_ACCEPTABLE]: 406,
  [ErrorCode.REQUEST_TIMEOUT]: 408,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT]: 409,
  [ErrorCode.VERSION_MISMATCH]: 412,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: 422,
  [ErrorCode.REFERENCE_NOT_FOUND]: 422,
  [ErrorCode.LAST_OWNER_KEY]: 422,
  [ErrorCode.EXPORT_NOT_POSSIBLE]: 422,
  [ErrorCode.WEBHOOK_URL_PRIVATE]: 422,
  [ErrorCode.WEBHOOK_URL_UNRESOLVABLE]: 422,
  [ErrorCode.WEBHOOK_LIMIT_REACHED]: 422,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.TOO_MANY_STREAMS]: 429,
  [ErrorCode.HEADERS_TOO_LARGE]: 431,
  [ErrorCode.INTERNAL_ERROR]: 500,
  [ErrorCode.DATABASE_UNAVAILABLE]: 503,
  [ErrorCode.DATABASE_BUSY]: 503,
  [ErrorCode.COMMIT_OUTCOME_UNKNOWN]: 503,
  [ErrorCode.STREAMS_AT_CAPACITY]: 503,
  [ErrorCode.NOT_READY]: 503,
} as const satisfies Record<ErrorCode, number>;

/** The status of every refusal by the rules. */
export const REFUSAL_STATUS = 422;

export function statusOf(code: ErrorCode): number {
  return HTTP_STATUS[code];
}

/** Whether `code` is one of the HTTP layer's codes. */
export const isHttpErrorCode = (code: string): code is ErrorCode => Object.hasOwn(HTTP_STATUS, code);

/** An HTTP-layer code answered 422, which a route may list beside its refusals by the rules (ApiRefusals). */
export type Http422Code = { [C in ErrorCode]: (typeof HTTP_STATUS)[C] extends 422 ? C : never }[ErrorCode];

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
