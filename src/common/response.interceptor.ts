import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, Observable } from 'rxjs';
import { Replayed } from '../db/db.service';

/**
 * Sets `ETag: "<version>"` on every answer that carries a version, and answers a
 * replayed idempotent request with the stored status and body, byte for byte.
 */
@Injectable()
export class ResponseInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((out) => {
        if (out instanceof Replayed) {
          reply.status(out.status).header('idempotent-replayed', 'true').header('content-type', 'application/json; charset=utf-8');
          const version = (JSON.parse(out.body) as { version?: unknown } | null)?.version;
          if (Number.isInteger(version)) reply.header('etag', `"${version}"`);
          return out.status === 204 ? undefined : out.body;
        }
        if (out && typeof out === 'object' && Number.isInteger((out as { version?: unknown }).version)) {
          reply.header('etag', `"${(out as { version: number }).version}"`);
        }
        return out;
      }),
    );
  }
}
