import { HttpException } from '@nestjs/common';
import { RuleViolation } from '../domain/errors';
import { AMOUNT_OUT_OF_RANGE, MAX_MINOR } from '../domain/money';
import { ApiError, FieldError } from './api-error';
import { ErrorCode, REFUSAL_STATUS, statusOf, titleOf } from './error-codes';
import { CommitOutcomeUnknown, DatabaseBusy, isDatabaseUnavailable, StatementFailed, WriteConflict } from './db-failures';
import { isRetryable } from './retryable';
import { ruleUrlOf } from './rule-book';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  rule?: string;
  /** Where the rule is explained: a relative link into the served rule book, e.g. `/docs/rules#R3.4`. */
  ruleUrl?: string;
  errors?: FieldError[];
  /** How many field errors there were; `errors` lists at most 20 of them. */
  errorCount?: number;
  /** NOT_READY: what the instance still waits for (`database`, `primary`, or `migration:<name>` per migration not applied). */
  missing?: string[];
  instance?: string;
  requestId?: string;
}

export interface Rendered {
  problem: Problem;
  headers: Record<string, string>;
  /** The original error when it is a failure of ours (logged, never shown). */
  internal?: unknown;
  /** What lost a connection after COMMIT was sent (logged as a warning, never shown). */
  commitLost?: unknown;
}

const typeOf = (code: string) => `urn:bgclub:problem:${code.toLowerCase().replace(/_/g, '-')}`;

/** A problem citing a rule links to it in the rule book (`ruleUrl`). */
function problem(status: number, code: string, detail: string, more: Partial<Problem> = {}): Problem {
  const { rule, ...rest } = more;
  return { type: typeOf(code), title: titleOf(status), status, detail, code, ...(rule ? { rule, ruleUrl: ruleUrlOf(rule) } : {}), ...rest };
}

/** 40001 serialization failure, 40P01 deadlock: the whole unit of work may be retried. */

/** The CHECK that keeps each party's gross money within 2^53 − 1 (R6.2, migrations/…-PartyVolumes). */
const MONEY_BOUND_CONSTRAINT = 'party_volumes_bound_ck';

function fromStatementFailed(e: StatementFailed): Problem | null {
  const driver = e.driverError as { code?: string; constraint?: string; message?: string } | undefined;
  const code = driver?.code;
  // R6.2: a write that would take a party's money past 2^53 − 1, or a BIGINT sum of money overflowing.
  if ((code === '23514' && driver?.constraint === MONEY_BOUND_CONSTRAINT) || (code === '22003' && /bigint out of range/.test(driver?.message ?? ''))) {
    return problem(
      422,
      AMOUNT_OUT_OF_RANGE,
      `This would take a party's money (its balance, nets and totals) past ±${MAX_MINOR} minor units, which cannot be kept exactly (R6.2); nothing was written.`,
      { rule: 'R6.2' },
    );
  }
  switch (code) {
    case '23505':
      return problem(409, ErrorCode.CONFLICT, 'The request conflicts with a record that already exists.');
    case '23503':
      return problem(422, ErrorCode.REFERENCE_NOT_FOUND, 'The request refers to a record that does not exist in this club.');
    case '22P02':
    case '22003':
    case '22001':
    case '23514':
    case '23502':
      return problem(400, ErrorCode.VALIDATION_FAILED, 'A value in the request is out of range or of the wrong form.');
    // statement_timeout (or a cancel), lock_timeout: the statement failed, nothing was committed.
    case '57014':
    case '55P03':
      return problem(503, ErrorCode.DATABASE_UNAVAILABLE, 'The database did not answer in time; nothing was recorded. Try again shortly.');
    default:
      return null;
  }
}

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [ErrorCode.MALFORMED_JSON, 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [ErrorCode.MALFORMED_JSON, 'The request body is empty but says it is JSON.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the request body as application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [ErrorCode.MALFORMED_JSON, 'The Content-Length does not match the body.'],
  FST_ERR_CTP_INVALID_TYPE: [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The Content-Type header is not valid.'],
};

/**
 * Turns any thrown value into a problem+json answer. Our own failures become a
 * 500 with the request id and nothing else: no SQL, no stack, no internals.
 */
export function render(e: unknown, requestId?: string): Rendered {
  // Nest wraps Fastify's own errors (body parsing, limits) in an HttpException.
  const cause = e instanceof HttpException ? (e.cause as { code?: unknown } | undefined) : undefined;
  if ((cause && typeof cause.code === 'string' && cause.code.startsWith('FST_')) || cause instanceof ApiError) e = cause;
  const headers: Record<string, string> = {};
  let p: Problem | null = null;
  let internal: unknown;
  let commitLost: unknown;
  if (e instanceof CommitOutcomeUnknown) {
    p = problem(
      503,
      ErrorCode.COMMIT_OUTCOME_UNKNOWN,
      'The request was sent to be committed, then the database could not confirm it was kept (the connection was lost, or the synchronous standby did not confirm it): it may or may not have been recorded. ' +
        'Retry with the same Idempotency-Key: if it was recorded you get its answer again, otherwise it runs once. ' +
        'Without an Idempotency-Key, read the resource before sending the request again.',
    );
    headers['retry-after'] = '1';
    commitLost = e.cause;
  } else if (e instanceof WriteConflict) {
    // A guarded write that missed (src/db/tx.ts, src/db/connection.ts): the row moved on since it was read.
    p = problem(409, ErrorCode.CONFLICT, 'Someone else changed this at the same moment; read it again and retry.');
  } else if (e instanceof DatabaseBusy) {
    // The unit of work ran the command MAX_ATTEMPTS times, each refused as 40001/40P01 (src/db/unit-of-work.ts).
    p = problem(503, ErrorCode.DATABASE_BUSY, 'Too many scorers changed this at once; try again.');
    headers['retry-after'] = '1';
  } else if (e instanceof ApiError) {
    p = problem(e.status, e.code, e.detail, {
      rule: e.extra.rule,
      errors: e.extra.errors,
      errorCount: e.extra.errors ? (e.extra.errorCount ?? e.extra.errors.length) : undefined,
      missing: e.extra.missing,
    });
    Object.assign(headers, e.extra.headers ?? {});
  } else if (e instanceof RuleViolation) {
    p = problem(REFUSAL_STATUS, e.code, e.message, { rule: e.rule ?? undefined });
  } else if (isDatabaseUnavailable(e)) {
    p = problem(503, ErrorCode.DATABASE_UNAVAILABLE, 'The database is unavailable; try again shortly.');
    headers['retry-after'] = '1';
  } else if (isRetryable(e)) {
    p = problem(503, ErrorCode.DATABASE_BUSY, 'Too many concurrent changes; try again.');
    headers['retry-after'] = '1';
  } else if (e instanceof StatementFailed) {
    p = fromStatementFailed(e);
    if (!p) internal = e;
  } else if (e instanceof HttpException) {
    const status = e.getStatus();
    const code =
      status === 404
        ? ErrorCode.NOT_FOUND
        : status === 405
          ? ErrorCode.METHOD_NOT_ALLOWED
          : status === 413
            ? ErrorCode.PAYLOAD_TOO_LARGE
            : status === 415
              ? ErrorCode.UNSUPPORTED_MEDIA_TYPE
              : status === 401
                ? ErrorCode.UNAUTHENTICATED
                : status === 403
                  ? ErrorCode.FORBIDDEN
                  : status === 400
                    ? ErrorCode.VALIDATION_FAILED
                    : null;
    if (code) {
      const detail = code === ErrorCode.NOT_FOUND ? 'No such route or resource.' : e.message;
      p = problem(statusOf(code), code, detail);
    } else {
      internal = e;
    }
  } else {
    const fe = e as { code?: string; statusCode?: number };
    const mapped = typeof fe?.code === 'string' ? FASTIFY_CODES[fe.code] : undefined;
    if (mapped) {
      p = problem(statusOf(mapped[0]), mapped[0], mapped[1]);
    } else if (fe?.statusCode === 413) {
      p = problem(413, ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than 1 MiB.');
    } else if (fe?.statusCode === 415) {
      p = problem(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the request body as application/json.');
    } else if (fe?.statusCode === 400 && typeof fe.code === 'string' && fe.code.startsWith('FST_')) {
      p = problem(400, ErrorCode.MALFORMED_JSON, 'The request could not be read.');
    } else {
      internal = e;
    }
  }
  if (!p) {
    p = problem(500, ErrorCode.INTERNAL_ERROR, `Something went wrong on our side. Quote request id ${requestId ?? 'unknown'} when reporting it.`);
  }
  if (requestId) p.requestId = requestId;
  return { problem: p, headers, internal, commitLost };
}
