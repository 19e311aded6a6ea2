import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../config';
import type { Auth } from './auth';
import { clientRequestIdOf } from './request';

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
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["idempotency-key"]', 'headers.authorization'], censor: '[redacted]' },
  });
}

/**
 * One line per answered request (not /health): the request id, method, path and query,
 * status, time taken and who asked (club and key, or the operator), at info level;
 * 5xx answers at error level. A Fastify hook after the answer has gone, so it adds no
 * work in front of the request and keeps no per-request context.
 */
export function logRequests(fastify: FastifyInstance, logger: AppLogger): void {
  if (!logger.isLevelEnabled('error')) return;
  fastify.addHook('onResponse', (req: FastifyRequest & { auth?: Auth }, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (req.url !== '/health' && logger.isLevelEnabled(level)) {
      const auth = req.auth;
      logger[level](
        {
          req: { id: req.id, method: req.method, url: req.url, ...clientId(req) },
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
  const line = (level: 'debug' | 'warn' | 'error' | 'fatal') => (message: unknown, ...rest: unknown[]) => {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message instanceof Error) logger[level]({ err: message, context }, message.message);
    else logger[level]({ context }, typeof message === 'string' ? message : JSON.stringify(message));
  };
  return { log: line('debug'), debug: line('debug'), verbose: line('debug'), warn: line('warn'), error: line('error'), fatal: line('fatal') };
}
