import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_LOGGER, AppLogger } from './logging';
import { PROBLEM_CONTENT_TYPE, render } from './problem';

function requestIdOf(req: FastifyRequest): string | undefined {
  return req.id;
}

export function sendProblem(e: unknown, req: FastifyRequest, reply: FastifyReply, logger?: AppLogger): void {
  const requestId = requestIdOf(req);
  const { problem, headers, internal, commitLost } = render(e, requestId);
  if (internal !== undefined) {
    logger?.error({ err: internal, requestId }, 'unhandled failure');
  }
  if (commitLost !== undefined) {
    logger?.warn({ err: commitLost, requestId }, 'commit outcome unknown: the connection was lost after COMMIT was sent');
  }
  problem.instance = req.url.split('?')[0];
  if (reply.sent) return;
  reply.headers(headers).header('content-type', PROBLEM_CONTENT_TYPE).status(problem.status).send(JSON.stringify(problem));
}

/** The one global filter: everything leaves as application/problem+json. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  catch(e: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(e, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}
