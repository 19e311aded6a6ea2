import type { FastifyRequest } from 'fastify';

const REQUEST_ID_RE = /^[\w.:-]{1,128}$/;

/** The caller's own X-Request-Id when it is sane (kept beside the server's id), else null. */
export function clientRequestIdOf(req: Pick<FastifyRequest, 'headers'>): string | null {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : null;
}
