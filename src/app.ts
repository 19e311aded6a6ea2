import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module';
import { StrictValidationPipe } from './common/validation';
import type { AppConfig } from './config';
import { registerCors } from './common/cors';
import { createLogger, logRequests, nestLogger } from './common/logging';
import { registerConsistencyToken, registerResponseHooks } from './common/response-hooks';
import { Db } from './db/db.service';
import { registerConditionalGet } from './common/conditional-get';
import { Metrics, registerMetrics } from './metrics';
import { findNul, scanJson } from './common/body-limits';
import { clientErrorHandler, frameworkErrors, refuseNulInQuery } from './common/raw-errors';
import { buildOpenApi } from './openapi/document';
import { RULE_BOOK_PATH } from './common/rule-book';
import { RouteMethods } from './common/route-methods';
import { ApiError } from './common/api-error';
import { ErrorCode } from './common/error-codes';
import { sendProblem } from './common/problem.filter';
import { renderRuleBook } from './common/rule-book-page';

const BODY_LIMIT = 1024 * 1024;

/** Builds the HTTP application; `offline` builds it without a database (OpenAPI generation). */
export async function createApp(config: AppConfig, databaseUrl: string, opts: { offline?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    // A board page's path holds its whole token (/board/{token}, about 110 characters).
    maxParamLength: 256,
    // Slow clients are cut (config.ts): headers, then the whole request, must arrive in
    // time; an idle keep-alive connection is closed; a socket silent for as long as a whole
    // request may take is closed too.
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: config.requestTimeoutSeconds * 1000,
    http: {
      headersTimeout: config.headersTimeoutSeconds * 1000,
      requestTimeout: config.requestTimeoutSeconds * 1000,
      // Node looks for late requests this often (30 s by default, longer than the timeouts).
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutSeconds * 250),
    },
    trustProxy: false,
    return503OnClosing: true,
    requestIdHeader: false,
    frameworkErrors,
    clientErrorHandler,
    // The server's own id for every request; a caller's X-Request-Id is kept beside it
    // (logs, audit record: clientRequestIdOf), never in its place.
    genReqId: () => randomUUID(),
  });
  // Every route's path and method, as registered (Nest registers its routes when the app starts).
  const routes = new RouteMethods();
  adapter.getInstance().addHook('onRoute', (r) => routes.add(r.method, r.url ?? r.path));
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register({ config, databaseUrl, logger, offline: opts.offline }), adapter, {
    logger: false,
    bodyParser: false,
    abortOnError: false,
  });
  app.useLogger(nestLogger(logger));
  app.useGlobalPipes(new StrictValidationPipe());

  const fastify = app.getHttpAdapter().getInstance();
  // JSON bodies: an empty body counts as none; prototype poisoning is refused; a body
  // beyond the limits of body-limits.ts is refused before it is parsed, and one holding
  // U+0000 right after, so validation only ever sees bounded bodies PostgreSQL can store.
  const json = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  const parseJson = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (bytes.length === 0) return done(null, undefined);
    const tooComplex = scanJson(bytes);
    if (tooComplex) return done(tooComplex);
    return json(req, bytes.toString('utf8'), (err: Error | null, value?: unknown) => {
      if (err) return done(err);
      const nul = findNul(bytes, value);
      return nul ? done(nul) : done(null, value);
    });
  };
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, parseJson);
  fastify.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, parseJson);
  fastify.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (refuseNulInQuery(req, reply)) return reply;
    // No route for this method: 405 with Allow when the path has routes for others, else the
    // 404 that follows. OPTIONS is left to CORS (a preflight) and, without it, to the 404.
    if (req.routeOptions.url === undefined && req.method !== 'OPTIONS') {
      const allow = routes.allowed(req.url.split('?')[0]);
      if (allow.length > 0) {
        const headers = { allow: allow.join(', ') };
        sendProblem(new ApiError(ErrorCode.METHOD_NOT_ALLOWED, `${req.method} is not answered here; this path answers ${headers.allow}.`, { headers }), req, reply);
        return reply;
      }
    }
  });
  registerCors(fastify, config.corsOrigins);
  logRequests(fastify, logger);
  registerMetrics(fastify, app.get(Metrics));
  registerResponseHooks(fastify);
  registerConditionalGet(fastify);
  registerConsistencyToken(fastify, app.get(Db));
  fastify.addHook('onSend', async (_req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  const doc = buildOpenApi(app);
  fastify.get('/openapi.json', (_req: FastifyRequest, reply: FastifyReply) => {
    reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(doc));
  });
  // The rule book every refusal links to (`ruleUrl`), public like the API docs and, like
  // them, outside the OpenAPI document; rendered once, when the app is built.
  const ruleBook = renderRuleBook();
  fastify.get(RULE_BOOK_PATH, (_req: FastifyRequest, reply: FastifyReply) => {
    reply.header('content-type', 'text/html; charset=utf-8').send(ruleBook);
  });
  SwaggerModule.setup('docs', app, doc, { raw: false, swaggerOptions: { url: '/openapi.json' }, customSiteTitle: 'Backgammon club API' });
  return app;
}
