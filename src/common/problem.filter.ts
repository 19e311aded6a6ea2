import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ReplayedAnswer } from './command';
import { APP_LOGGER, AppLogger } from './logging';
import { PROBLEM_CONTENT_TYPE, render } from './problem';
import { answerReplay } from './response-hooks';

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

/**
 * The one global filter: everything thrown leaves as application/problem+json, except a
 * replayed answer (not an error: answered as it was first, neither logged nor a problem).
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  catch(e: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (e instanceof ReplayedAnswer) {
      if (!reply.sent) answerReplay(reply, e);
      return;
    }
    sendProblem(e, http.getRequest<FastifyRequest>(), reply, this.logger);
  }
}
