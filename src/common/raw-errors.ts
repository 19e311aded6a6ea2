import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, FieldError, fieldErrors, notFound } from './api-error';
import { NUL, nulMessage } from './body-limits';
import { ErrorCode } from './error-codes';
import { sendProblem } from './problem.filter';
import { PROBLEM_CONTENT_TYPE, render } from './problem';

/**
 * Query parameters (cursor, filters) holding U+0000, which PostgreSQL text cannot store:
 * answered 400 VALIDATION_FAILED naming each parameter, before anything reads them.
 * Answers true when it has answered.
 */
export function refuseNulInQuery(req: FastifyRequest, reply: FastifyReply): boolean {
  const query = req.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object' || !req.url.includes('%00')) return false;
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (name.includes(NUL) || (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.includes(NUL))) {
      errors.push({ field: name, message: nulMessage(name) });
    }
  }
  if (!errors.length) return false;
  sendProblem(fieldErrors(ErrorCode.VALIDATION_FAILED, errors), req, reply);
  return true;
}

/**
 * Errors Fastify's router raises before any route runs: a path that is not valid
 * percent-encoding (400 MALFORMED_URL) and a path segment too long to be an id (404).
 */
export function frameworkErrors(error: { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  const e = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? notFound('Resource') : new ApiError(ErrorCode.MALFORMED_URL, 'The URL is not valid percent-encoding (RFC 3986).');
  sendProblem(e, req, reply);
}

/**
 * Errors of the HTTP parser itself (headers too large, a malformed request line, a request
 * that did not arrive within HEADERS_TIMEOUT_SECONDS / REQUEST_TIMEOUT_SECONDS): answered as
 * problem+json on the raw socket, which is then closed, whatever the client still sends.
 */
export function clientErrorHandler(error: { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const e =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(ErrorCode.HEADERS_TOO_LARGE, 'The request line or headers are larger than the server accepts.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(ErrorCode.REQUEST_TIMEOUT, 'The request did not arrive in time; send it again, all at once.')
        : new ApiError(ErrorCode.MALFORMED_URL, 'The request could not be parsed as HTTP.');
  const { problem } = render(e);
  const body = JSON.stringify(problem);
  socket.end(`HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, () =>
    socket.destroy(),
  );
}
