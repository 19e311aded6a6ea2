import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Whether an If-None-Match header names `etag`: `*`, or a list of entity tags compared weakly (W/ ignored). */
export function noneMatchHit(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const wanted = opaque(etag);
  // Entity tags may hold commas, so the list is read tag by tag, not split on commas.
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === wanted);
}

/**
 * Conditional GETs. A JSON answer of a GET (or HEAD) carries an ETag: its version
 * (`"<version>"`, set in response-hooks.ts, the one If-Match reads) when it has one, else
 * a weak one, `W/"<sha-1 of the body>"`. When the request's If-None-Match names the
 * answer's ETag, the answer is 304 Not Modified with no body.
 *
 * A version ETag stands for the body: every change a versioned resource's answer shows
 * bumps its version (a player's statistics and money included: src/db/player-rows.ts).
 */
export function registerConditionalGet(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200) return done(null, payload);
    let etag = reply.getHeader('etag');
    if (typeof etag !== 'string') {
      const type = reply.getHeader('content-type');
      if (typeof payload !== 'string' || typeof type !== 'string' || !JSON_TYPE.test(type)) return done(null, payload);
      etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
      reply.header('etag', etag);
    }
    const header = req.headers['if-none-match'];
    if (!noneMatchHit(Array.isArray(header) ? header.join(', ') : header, etag)) return done(null, payload);
    reply.code(304).removeHeader('content-type').removeHeader('content-length');
    done(null, null);
  });
}
