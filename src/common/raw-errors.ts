import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound } from './api-error';
import { ErrorCode } from './error-codes';
import { sendProblem } from './problem.filter';
import { PROBLEM_CONTENT_TYPE, render } from './problem';

/** JSON nested deeper than this is refused before anything walks it (recursion). */
export const MAX_JSON_DEPTH = 32;

/** True when `value` nests objects/arrays more than `max` levels deep; iterative, so it cannot overflow. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export const tooDeep = () =>
  new ApiError(ErrorCode.MALFORMED_JSON, `The request body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep.`);

/**
 * Errors Fastify's router raises before any route runs: a path that is not valid
 * percent-encoding (400 MALFORMED_URL) and a path segment too long to be an id (404).
 */
export function frameworkErrors(error: { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  const e =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? notFound('Resource')
      : new ApiError(ErrorCode.MALFORMED_URL, 'The URL is not valid percent-encoding (RFC 3986).');
  sendProblem(e, req, reply);
}

/**
 * Errors of the HTTP parser itself (headers too large, a malformed request line):
 * answered as problem+json on the raw socket, which is then closed.
 */
export function clientErrorHandler(error: { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const { problem } = render(
    tooLarge
      ? new ApiError(ErrorCode.HEADERS_TOO_LARGE, 'The request line or headers are larger than the server accepts.')
      : new ApiError(ErrorCode.MALFORMED_URL, 'The request could not be parsed as HTTP.'),
  );
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
