import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../config';
import { nameOf, statementLabel } from './sql-names';
import type { Auth } from './auth';
import { clientRequestIdOf } from './request-id';

const clientId = (req: FastifyRequest) => {
  const id = clientRequestIdOf(req);
  return id === null ? {} : { clientRequestId: id };
};

/** Injection token of the app's pino logger. */
export const APP_LOGGER = Symbol('APP_LOGGER');

export type AppLogger = Logger;

/**
 * The app's one logger: JSON lines on stdout. Tokens, cookies and Idempotency-Keys are
 * never written (only the fields below are logged of a request, and the redaction is a
 * second guard for anything logged by hand).
 */
export function createLogger(level: LogLevel): AppLogger {
  return pino({
    level,
    serializers: { err: loggableError },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["idempotency-key"]', 'headers.authorization'], censor: '[redacted]' },
  });
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * What the log says of an error (pino's `err`), without any value it carries. A database
 * error is its SQLSTATE, the statement it came from (statementLabel, and the name its
 * prepared statement has) and the names of the table, column or constraint PostgreSQL
 * gives; never the parameters, the SQL text (values travel in it as literals,
 * src/db/sql.ts), nor PostgreSQL's message, detail or context, which may quote a value.
 * Any other error is its type, message and stack; its cause is described the same way.
 */
export function loggableError(e: unknown, depth = 0): Record<string, unknown> {
  if (e === null || typeof e !== 'object') return { type: typeof e };
  const err = e as Error & { query?: unknown; driverError?: unknown; code?: unknown; cause?: unknown };
  const driver = (err.driverError ?? err) as { code?: unknown; table?: unknown; column?: unknown; constraint?: unknown; routine?: unknown; severity?: unknown; message?: unknown };
  const sqlState = typeof driver.code === 'string' && SQLSTATE.test(driver.code) ? driver.code : undefined;
  const frames = typeof err.stack === 'string' ? err.stack.split('\n').slice(1).join('\n') : undefined;
  if (sqlState !== undefined || typeof err.query === 'string') {
    const out: Record<string, unknown> = { type: err.name ?? 'Error' };
    if (sqlState !== undefined) {
      out.sqlState = sqlState;
      for (const k of ['severity', 'table', 'column', 'constraint', 'routine'] as const) if (typeof driver[k] === 'string') out[k] = driver[k];
    } else if (typeof driver.message === 'string') {
      // Not PostgreSQL's answer: the driver's own fixed message (a lost connection, a timeout).
      out.message = driver.message;
    }
    if (typeof err.query === 'string') {
      out.statement = statementLabel(err.query);
      out.statementId = nameOf(err.query, 'bg');
    }
    if (frames) out.stack = frames;
    return out;
  }
  const out: Record<string, unknown> = { type: err.name ?? 'Error', message: String(err.message ?? '') };
  if (frames) out.stack = frames;
  if (err.cause !== undefined && depth < 3) out.cause = loggableError(err.cause, depth + 1);
  return out;
}

/**
 * The path and query as logged: a board link's token (in `/board/{token}` and in the
 * `token` query parameter) is a credential and never written.
 */
export function loggableUrl(url: string): string {
  return url.replace(/^\/board\/[^/?#]+/, '/board/[redacted]').replace(/([?&]token=)[^&#]*/g, '$1[redacted]');
}

/** Paths asked every few seconds by supervisors and scrapers: not logged. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

/**
 * One line per answered request (not /health, /ready nor /metrics): the request id, method, path and query,
 * status, time taken and who asked (club and key, or the operator), at info level;
 * 5xx answers at error level. A Fastify hook after the answer has gone, so it adds no
 * work in front of the request and keeps no per-request context.
 */
export function logRequests(fastify: FastifyInstance, logger: AppLogger): void {
  if (!logger.isLevelEnabled('error')) return;
  fastify.addHook('onResponse', (req: FastifyRequest & { auth?: Auth }, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (!PROBES.has(req.url) && logger.isLevelEnabled(level)) {
      const auth = req.auth;
      logger[level](
        {
          req: { id: req.id, method: req.method, url: loggableUrl(req.url), ...clientId(req) },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
          ...(auth?.kind === 'key' ? { clubId: auth.clubId, apiKeyId: auth.keyId } : auth ? { operator: true } : {}),
        },
        status >= 500 ? 'request errored' : 'request completed',
      );
    }
    done();
  });
}

/**
 * Nest's own messages through the same logger: route mapping and the like only at
 * debug level; warnings and errors always.
 */
export function nestLogger(logger: AppLogger): LoggerService {
  const line =
    (level: 'debug' | 'warn' | 'error' | 'fatal') =>
    (message: unknown, ...rest: unknown[]) => {
      const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
      if (message instanceof Error) logger[level]({ err: message, context }, message.message);
      else logger[level]({ context }, typeof message === 'string' ? message : JSON.stringify(message));
    };
  return { log: line('debug'), debug: line('debug'), verbose: line('debug'), warn: line('warn'), error: line('error'), fatal: line('fatal') };
}
