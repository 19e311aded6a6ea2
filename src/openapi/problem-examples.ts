import { ErrorCode, isHttpErrorCode, REFUSAL_STATUS, statusOf, titleOf } from '../common/error-codes';
import { isDomainErrorCode, rulesOf, type DomainErrorCode } from '../domain/error-codes';
import { ruleUrlOf } from '../common/rule-book';

/** The rule id shown in the example of a refusal with this code: the first it is raised with (src/domain/error-codes.ts), else none. */
const exampleRule = (code: DomainErrorCode): string | null => rulesOf(code)[0] ?? null;

/** The detail shown in the example of an HTTP-layer problem, for the codes an example may show. */
const EXAMPLE_DETAIL: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.VALIDATION_FAILED]: 'The request is not valid.',
  [ErrorCode.MALFORMED_JSON]: 'The body is not valid JSON.',
  [ErrorCode.MALFORMED_URL]: 'The URL is not valid percent-encoding (RFC 3986).',
  [ErrorCode.INVALID_IDEMPOTENCY_KEY]: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  [ErrorCode.INVALID_CURSOR]: 'The cursor is not one this API gave.',
  [ErrorCode.INVALID_EVENT_ID]: 'after is not an event id this service gave out.',
  [ErrorCode.INVALID_EVENT_TYPE]: 'types names something that is not an event type: player.craeted.',
  [ErrorCode.UNAUTHENTICATED]: 'A valid API key is required.',
  [ErrorCode.FORBIDDEN]: "This route needs a higher role than the key's.",
  [ErrorCode.NOT_FOUND]: 'No such resource in this club.',
  [ErrorCode.NOT_ACCEPTABLE]: 'None of the media types in Accept can be given.',
  [ErrorCode.REQUEST_TIMEOUT]: 'The request did not arrive in time; send it again, all at once.',
  [ErrorCode.CONFLICT]: 'The request conflicts with a record that already exists.',
  [ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT]: 'A request with this Idempotency-Key is still running; retry shortly.',
  [ErrorCode.VERSION_MISMATCH]: 'If-Match does not name the current version.',
  [ErrorCode.PAYLOAD_TOO_LARGE]: 'The body is larger than 1 MiB.',
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 'The body must be application/json.',
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: 'This Idempotency-Key was used before with a different request.',
  [ErrorCode.LAST_OWNER_KEY]: "The club's last working owner key cannot be revoked.",
  [ErrorCode.EXPORT_NOT_POSSIBLE]: 'The match cannot be written in this format.',
  [ErrorCode.WEBHOOK_URL_PRIVATE]: 'The webhook URL is on a private address (127.0.0.1).',
  [ErrorCode.WEBHOOK_URL_UNRESOLVABLE]: 'The host name of the webhook URL does not resolve.',
  [ErrorCode.WEBHOOK_LIMIT_REACHED]: 'The club has 20 webhook subscriptions already.',
  [ErrorCode.REFERENCE_NOT_FOUND]: 'The request refers to a record that does not exist in this club.',
  [ErrorCode.HEADERS_TOO_LARGE]: 'The request line or headers are larger than the server accepts.',
  [ErrorCode.RATE_LIMITED]: 'Too many requests; retry after the time in Retry-After.',
  [ErrorCode.TOO_MANY_STREAMS]: 'The club has 100 event streams open on this instance; close one or retry later.',
  [ErrorCode.INTERNAL_ERROR]: 'Something went wrong on our side; quote the request id.',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'The database did not answer in time; nothing was recorded. Try again shortly.',
  [ErrorCode.DATABASE_BUSY]: 'The database is too busy; nothing was recorded. Try again shortly.',
  [ErrorCode.STREAMS_AT_CAPACITY]: 'This instance serves as many event streams as it can; retry after the time in Retry-After.',
  [ErrorCode.NOT_READY]: 'Not ready to serve: a migration of this build is not applied yet (migration:TableListIndexes1796518800000).',
  [ErrorCode.COMMIT_OUTCOME_UNKNOWN]: 'The connection was lost after the commit was sent; retry with the same Idempotency-Key.',
};

/** The code an example of a status shows when the answer names none of its own. */
const DEFAULT_CODE: Record<number, ErrorCode> = {
  400: ErrorCode.VALIDATION_FAILED,
  401: ErrorCode.UNAUTHENTICATED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  406: ErrorCode.NOT_ACCEPTABLE,
  408: ErrorCode.REQUEST_TIMEOUT,
  409: ErrorCode.CONFLICT,
  412: ErrorCode.VERSION_MISMATCH,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  422: ErrorCode.IDEMPOTENCY_KEY_REUSED,
  429: ErrorCode.RATE_LIMITED,
  431: ErrorCode.HEADERS_TOO_LARGE,
  500: ErrorCode.INTERNAL_ERROR,
  503: ErrorCode.DATABASE_UNAVAILABLE,
};

const isHttpCode = isHttpErrorCode;
const isRefusal = isDomainErrorCode;

/** The codes an answer of `status` can carry among those a text names: refusals by the rules (422 only) and HTTP-layer codes of that status. */
export function codesOfStatus(status: number, named: readonly string[]): string[] {
  return [...new Set(named.filter((c) => (isRefusal(c) ? status === REFUSAL_STATUS : isHttpCode(c) && statusOf(c) === status)))];
}

/** The words in capitals a description names (codesOfStatus keeps those that are codes). */
export const codesNamedIn = (text: string): string[] => text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? [];

/**
 * A problem+json example of `status` for `instance`, showing the first of `codes` that
 * can be shown (a refusal with its rule, or an HTTP-layer code), else the status's usual code.
 */
export function problemExample(status: number, codes: readonly string[], instance: string): Record<string, unknown> {
  const refusals = status === REFUSAL_STATUS ? codes.filter(isRefusal) : [];
  const refusal = refusals.find((c) => exampleRule(c) !== null) ?? refusals[0];
  if (refusal) {
    const rule = exampleRule(refusal);
    const detail = rule ? `The request is refused by rule ${rule}.` : 'The request is refused; `code` says why.';
    return { type: typeOf(refusal), title: titleOf(REFUSAL_STATUS), status: REFUSAL_STATUS, detail, code: refusal, ...(rule ? { rule, ruleUrl: ruleUrlOf(rule) } : {}), instance };
  }
  const shown = codes.find((c) => isHttpCode(c) && statusOf(c) === status && EXAMPLE_DETAIL[c] !== undefined) as ErrorCode | undefined;
  const code = shown ?? DEFAULT_CODE[status] ?? ErrorCode.INTERNAL_ERROR;
  const example: Record<string, unknown> = { type: typeOf(code), title: titleOf(status), status, detail: EXAMPLE_DETAIL[code] ?? titleOf(status), code, instance };
  if (code === ErrorCode.VALIDATION_FAILED) {
    example.errors = [{ field: 'target', message: 'target must be an integer number' }];
    example.errorCount = 1;
  }
  if (code === ErrorCode.NOT_READY) example.missing = ['migration:TableListIndexes1796518800000'];
  return example;
}

const typeOf = (code: string) => `urn:bgclub:problem:${code.toLowerCase().replace(/_/g, '-')}`;
