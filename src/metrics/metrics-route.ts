import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { secretMatcher } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { sendProblem } from '../common/problem.filter';
import { Metrics } from './metrics';

/** Where Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/**
 * Counts every answered request (onResponse, after the answer has gone) and serves
 * GET /metrics in Prometheus's text format, described in the OpenAPI document by src/openapi/document.ts (addMetricsPath).
 * With METRICS_TOKEN set, a scrape must send `Authorization: Bearer <token>` (compared in
 * constant time); anything else is 401 UNAUTHENTICATED.
 */
export function registerMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req, reply);
    done();
  });
  const token = metrics.config.metricsToken;
  const matches = token === null ? null : secretMatcher(token);
  fastify.get(METRICS_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    if (matches !== null) {
      const m = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '');
      if (m === null || !matches(m[1])) {
        const headers = { 'www-authenticate': 'Bearer realm="metrics"' };
        sendProblem(new ApiError(ErrorCode.UNAUTHENTICATED, 'GET /metrics needs Authorization: Bearer with the METRICS_TOKEN of this instance.', { headers }), req, reply);
        return reply;
      }
    }
    const body = await metrics.scrape();
    return reply.header('content-type', metrics.contentType).send(body);
  });
}
