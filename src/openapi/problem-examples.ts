import { ErrorCode, statusOf, titleOf } from '../common/error-codes';
import type { DomainErrorCode } from '../domain/error-codes';
import { ruleUrlOf } from '../common/rule-book';

/**
 * The rule id shown in the example of a refusal with this code (the first rule it is
 * raised with; null for the refusals that cite none). Every code needs one, so a new
 * code does not compile until its example is decided.
 */
const EXAMPLE_RULE: Record<DomainErrorCode, string | null> = {
  INVALID_ACTION: null,
  INVALID_RESULT: 'R1.1',
  INVALID_BACKGAMMON_MULTIPLIER: 'R1.2',
  CUBE_NOT_IN_PLAY: 'R1.1',
  NOT_IN_GAME: 'R3.7',
  NOTHING_TO_UNDO: null,
  GAME_FINISHED: 'R1.1',
  GAME_NOT_IN_PROGRESS: 'R6.3',
  GAME_NOT_FINISHED: 'R3.8',
  GAME_IN_PROGRESS: 'R3.6',
  NOT_LATEST_GAME: 'R6.3',
  NOTHING_TO_VOID: 'R6.3',
  INVALID_RESIGNATION: 'R3.10',
  NOT_CUBE_OWNER: 'R2.2',
  CUBE_LIMIT_EXCEEDED: 'R2.2',
  INVALID_CUBE_LIMIT: 'R2.2',
  NO_OFFER_PENDING: 'R2.3',
  OFFER_PENDING: 'R2.6',
  NOT_DOUBLED_PARTY: 'R2.6',
  WRONG_INSTANT_REDOUBLE: 'R2.4',
  BEAVERS_NOT_ALLOWED: 'R2.4',
  RACCOONS_NOT_ALLOWED: 'R2.5',
  RACCOONS_NEED_BEAVERS: 'R2.5',
  INVALID_AUTOMATIC_DOUBLES: 'R2.7',
  TOO_MANY_AUTOMATIC_DOUBLES: 'R2.7',
  AUTOMATIC_DOUBLES_NOT_ALLOWED: 'R2.8',
  MONEY_ONLY_SETTING: 'R2.8',
  INVALID_SETTING: 'R2.8',
  UNKNOWN_SETTING: 'R2.8',
  INVALID_TARGET: 'R3.1',
  TARGET_EVEN: 'R3.1',
  TARGET_OUT_OF_RANGE: 'R3.1',
  MATCH_FINISHED: 'R3.2',
  INVALID_MATCH_EVENT: 'R3.2',
  INVALID_GAME_POINTS: 'R3.2',
  INVALID_PENALTY: 'R3.6',
  NO_CUBE_IN_ONE_POINT_MATCH: 'R3.3',
  CRAWFORD_NO_DOUBLE: 'R3.4',
  DEAD_CUBE: 'R3.5',
  INVALID_SIDES: 'R3.7',
  DUPLICATE_PLAYER: 'R3.7',
  TEAMS_UNEQUAL: 'R3.7',
  BOARDS_EVEN: 'R3.7',
  INVALID_TEAMS: 'R3.7',
  TOO_MANY_BOARDS: 'R3.7',
  STAKE_NEEDS_SESSION: 'R3.8',
  INVALID_STAKE: 'R3.8',
  CHOUETTE_PLAYER_COUNT: 'R5.1',
  CHOUETTE_FULL: 'R5.1',
  INVALID_SEATING: 'R5.1',
  INVALID_ROLL: 'R5.1',
  ROLL_OFF_TIE: 'R5.1',
  INVALID_SEATS: 'R5.1',
  INVALID_PLAYER: 'R5.1',
  INVALID_CUBE_MODE: 'R5.3',
  SINGLE_TEAM_CUBE: 'R5.3',
  NO_MEMBER_CUBES: 'R5.3',
  NOT_ACTING_CAPTAIN: 'R5.3',
  NOT_OWN_CUBE: 'R5.3',
  UNKNOWN_CUBE: 'R5.3',
  DUPLICATE_CUBE: 'R5.3',
  CUBE_NOT_NAMED: 'R5.3',
  NO_CUBES_NAMED: 'R5.3',
  NO_BEAVER_ALONE: 'R5.3',
  NO_CUBE_TO_DOUBLE: 'R2.2',
  MEMBER_OUT: 'R5.4',
  INVALID_OUTCOME: 'R5.7',
  NO_CAPTAIN: 'R5.7',
  ALREADY_SEATED: 'R5.8',
  NOT_SEATED: 'R5.8',
  LAST_PLAYER: 'R5.8',
  TOO_FEW_PLAYERS: 'R5.8',
  INVALID_PARTNER_FROM: 'R5.9',
  INVALID_PARTNER_SHARE: 'R5.9',
  DUPLICATE_STAKE: 'R5.11',
  AMOUNT_OUT_OF_RANGE: 'R6.2',
  INVALID_RAKE_PERCENT: 'R6.4',
  INVALID_PARTY: 'R6.5',
  DUPLICATE_PARTY: 'R6.5',
  UNBALANCED: 'R6.5',
  SAME_PARTY: 'R6.6',
  SESSION_CLOSED: 'R6.7',
  GAMES_IN_PROGRESS: 'R6.7',
  RESULT_NOT_IN_VARIANT: 'R8.10',
  NO_CUBE_IN_VARIANT: 'R8.10',
  SETTING_NOT_IN_VARIANT: 'R8.10',
  TABLE_FINISHED: 'R4.4',
  INVALID_RATING_INPUT: 'R7.1',
  EXPORT_UNSUPPORTED_VARIANT: 'R8.9',
  INVALID_TOURNAMENT: 'R9.1',
  TOURNAMENT_NOT_OPEN: 'R9.2',
  TOURNAMENT_NOT_RUNNING: 'R9.5',
  ALREADY_ENTERED: 'R9.2',
  FLIGHT_FULL: 'R9.2',
  NOT_ENTERED: 'R9.2',
  UNKNOWN_FLIGHT: 'R9.1',
  TOO_FEW_ENTRIES: 'R9.2',
  INVALID_SEEDS: 'R9.3',
  INVALID_PAYOUTS: 'R9.9',
  ALREADY_OUT: 'R9.8',
  NOT_SCHEDULED: 'R9.6',
  CORRECTION_CLOSED: 'R9.10',
  UNKNOWN_PLAYER: null,
};

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

const HTTP_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));
const isHttpCode = (code: string): code is ErrorCode => HTTP_CODES.has(code);
const isRefusal = (code: string): code is DomainErrorCode => Object.hasOwn(EXAMPLE_RULE, code);

/** The codes an answer of `status` can carry among those a text names: refusals by the rules (422 only) and HTTP-layer codes of that status. */
export function codesOfStatus(status: number, named: readonly string[]): string[] {
  return [...new Set(named.filter((c) => (isRefusal(c) ? status === 422 : isHttpCode(c) && statusOf(c) === status)))];
}

/** The words in capitals a description names (codesOfStatus keeps those that are codes). */
export const codesNamedIn = (text: string): string[] => text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b/g) ?? [];

/**
 * A problem+json example of `status` for `instance`, showing the first of `codes` that
 * can be shown (a refusal with its rule, or an HTTP-layer code), else the status's usual code.
 */
export function problemExample(status: number, codes: readonly string[], instance: string): Record<string, unknown> {
  const refusals = status === 422 ? codes.filter(isRefusal) : [];
  const refusal = refusals.find((c) => EXAMPLE_RULE[c] !== null) ?? refusals[0];
  if (refusal) {
    const rule = EXAMPLE_RULE[refusal];
    const detail = rule ? `The request is refused by rule ${rule}.` : 'The request is refused; `code` says why.';
    return { type: typeOf(refusal), title: titleOf(422), status: 422, detail, code: refusal, ...(rule ? { rule, ruleUrl: ruleUrlOf(rule) } : {}), instance };
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
