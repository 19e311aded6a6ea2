import type { FastifyInstance } from 'fastify';

const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-Match, X-Request-Id, Accept, Last-Event-ID';
const EXPOSED_HEADERS = 'ETag, Location, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, Idempotent-Replayed, Content-Disposition';

/**
 * CORS for browser apps, off unless CORS_ORIGINS names the origins (or "*"). No
 * cookies are used (keys travel in Authorization), so credentials are never allowed.
 * A preflight from an allowed origin is answered 204 here; from any other origin the
 * request goes on without CORS headers, and the browser blocks it.
 */
export function registerCors(fastify: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  fastify.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return;
    reply.header('vary', 'Origin');
    if (!any && !allowed.has(origin.toLowerCase())) return;
    reply.header('access-control-allow-origin', any ? '*' : origin);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      reply.header('access-control-allow-methods', ALLOWED_METHODS).header('access-control-allow-headers', ALLOWED_HEADERS).header('access-control-max-age', '600').status(204).send();
      return reply;
    }
  });
}
