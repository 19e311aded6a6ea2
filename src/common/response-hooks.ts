import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReplayedAnswer } from './command';

/**
 * Sets `ETag: "<version>"` on every answer that carries a version.
 *
 * A Fastify preSerialization hook (it sees the handler's object before it is turned
 * into JSON) rather than a Nest interceptor, so no request pays for an rxjs pipeline.
 */
export function registerResponseHooks(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void) => {
    if (payload && typeof payload === 'object' && Number.isInteger((payload as { version?: unknown }).version)) {
      reply.header('etag', `"${(payload as { version: number }).version}"`);
    }
    done(null, payload);
  });
}

/**
 * Answers a replayed idempotent request (thrown by Commands.run, caught by ProblemFilter)
 * as the first answer went: the stored status, the stored text itself, byte for byte (no
 * re-serialisation), as JSON, with `Idempotent-Replayed: true` and the ETag of the
 * version it carries. A 204 sends no body and no content type.
 */
export function answerReplay(reply: FastifyReply, replayed: ReplayedAnswer): void {
  reply.status(replayed.status).header('idempotent-replayed', 'true');
  const version = versionOf(replayed.body);
  if (version !== null) reply.header('etag', `"${version}"`);
  if (replayed.status === 204) {
    reply.send();
    return;
  }
  reply.header('content-type', 'application/json; charset=utf-8').send(replayed.body);
}

function versionOf(body: string): number | null {
  try {
    const version = (JSON.parse(body) as { version?: unknown } | null)?.version;
    return Number.isInteger(version) ? (version as number) : null;
  } catch {
    return null;
  }
}

/** Where a write's Consistency-Token comes from (Db.commitPosition). */
export interface CommitPositions {
  readonly hasReplica: boolean;
  commitPosition(): Promise<string | null>;
}

/**
 * With a standby configured (DATABASE_REPLICA_URL): every write answered 2xx carries
 * `Consistency-Token`, the primary's WAL position once it had committed. A read sent with
 * `Prefer: replica` and that token is served by a standby only once it has replayed that
 * far (src/db/replica-reads.ts). When the primary does not say, the write goes without
 * one (the client's reads then go to the primary).
 */
export function registerConsistencyToken(fastify: FastifyInstance, db: CommitPositions): void {
  if (!db.hasReplica) return;
  fastify.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const write = req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT' || req.method === 'DELETE';
    if (write && reply.statusCode >= 200 && reply.statusCode < 300) {
      const token = await db.commitPosition();
      if (token !== null) reply.header('consistency-token', token);
    }
    return payload;
  });
}
