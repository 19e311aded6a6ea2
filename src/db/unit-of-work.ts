import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { isRetryable } from '../common/retryable';
import { openReplay, sealReplay } from '../common/replay-seal';
import { uuid7 } from '../common/uuid';
import { CommandContext, Replayed } from '../common/command';
import { CommitOutcomeUnknown } from '../common/db-failures';
import { beginLazily, commitLazily, rollbackLazily } from './transaction';
import { defer, openBatch } from './write-batch';

export { Replayed } from '../common/command';
export type { CommandContext } from '../common/command';

const MAX_ATTEMPTS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The unit of work. `command` runs one command in one transaction: it claims the
 * Idempotency-Key (an advisory lock held until commit, then the stored response),
 * runs the work, stores the response for replay, and commits; on a serialization
 * failure or deadlock (40001, 40P01) the whole unit is run again, a bounded
 * number of times, then 503. Plain TypeScript (no Nest): Db is its injectable face.
 */
export class UnitOfWork {
  constructor(private readonly ds: DataSource) {}

  get manager(): EntityManager {
    return this.ds.manager;
  }

  /**
   * A consistent read: every query of `work` sees the same snapshot (REPEATABLE READ).
   * It writes nothing, so a connection lost at its COMMIT is only the database being unavailable.
   */
  async read<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.transaction('REPEATABLE READ', work);
    } catch (e) {
      throw e instanceof CommitOutcomeUnknown ? e.cause : e;
    }
  }

  async command<T>(ctx: CommandContext, successStatus: number, work: (m: EntityManager) => Promise<T>): Promise<T | Replayed> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transaction(undefined, async (m) => {
          openBatch(m);
          if (ctx.idempotency) {
            // A replay writes nothing: its transaction ends with the advisory lock released.
            const prior = await this.claim(m, ctx);
            if (prior) return prior;
          }
          const result = await work(m);
          await this.audit(m, ctx, successStatus);
          if (ctx.idempotency) await this.remember(m, ctx, successStatus, JSON.stringify(result));
          return result;
        });
      } catch (e) {
        if (isRetryable(e)) {
          if (attempt < MAX_ATTEMPTS) {
            await sleep(5 * attempt + Math.floor(Math.random() * 10 * attempt));
            continue;
          }
          throw new ApiError(ErrorCode.DATABASE_BUSY, 'Too many scorers changed this at once; try again.', {
            headers: { 'retry-after': '1' },
          });
        }
        throw e;
      }
    }
  }

  /**
   * One transaction on a connection of its own: BEGIN and COMMIT share round trips with
   * the statements of `work` (transaction.ts); anything thrown rolls it back.
   */
  private async transaction<T>(isolation: 'REPEATABLE READ' | undefined, work: (m: EntityManager) => Promise<T>): Promise<T> {
    const qr = this.ds.createQueryRunner();
    try {
      await qr.connect();
      beginLazily(qr, isolation);
      const result = await work(qr.manager);
      await commitLazily(qr, qr.manager);
      return result;
    } catch (e) {
      await rollbackLazily(qr, e);
      throw e;
    } finally {
      await qr.release().catch(() => undefined);
    }
  }

  /** The audit record (who did what), written in the command's own transaction. */
  private async audit(m: EntityManager, ctx: CommandContext, status: number): Promise<void> {
    const a = ctx.audit;
    const clubId = ctx.auth.kind === 'key' ? ctx.auth.clubId : a?.clubId;
    if (!a || !clubId) return;
    await defer(m, {
      what: 'audit record',
      sql: `INSERT INTO audit_log (club_id, id, actor, api_key_id, method, route, path, status, request_id, client_request_id, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      params: [
        clubId,
        uuid7(),
        ctx.auth.kind,
        ctx.auth.kind === 'key' ? ctx.auth.keyId : null,
        a.method,
        a.route,
        a.path,
        status,
        a.requestId,
        a.clientRequestId,
        a.body === undefined ? null : JSON.stringify(a.body),
      ],
    });
  }

  private lockKey(ctx: CommandContext): string {
    const scope = ctx.auth.kind === 'key' ? `${ctx.auth.clubId}/${ctx.auth.keyId}` : 'operator';
    return `idem/${scope}/${ctx.idempotency!.key}`;
  }

  private async claim(m: EntityManager, ctx: CommandContext): Promise<Replayed | null> {
    const [lock] = await m.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [this.lockKey(ctx)]);
    if (!lock.ok) {
      throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT, 'A request with this Idempotency-Key is still being processed; retry when it has finished.');
    }
    const idem = ctx.idempotency!;
    const rows: Array<{ request_hash: string; status_code: number; body: string }> =
      ctx.auth.kind === 'key'
        ? await m.query('SELECT request_hash, status_code, body FROM idempotency_keys WHERE club_id = $1 AND api_key_id = $2 AND key = $3', [ctx.auth.clubId, ctx.auth.keyId, idem.key])
        : await m.query('SELECT request_hash, status_code, body FROM operator_idempotency_keys WHERE key = $1', [idem.key]);
    if (rows.length === 0) return null;
    if (rows[0].request_hash !== idem.requestHash) {
      throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was already used with a different request; use a new key for a new request.');
    }
    const body = openReplay(idem.sealKey, rows[0].status_code, idem.requestHash, rows[0].body);
    if (body === null) {
      throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was used with another credential; use a new key for a new request.');
    }
    return new Replayed(rows[0].status_code, body);
  }

  private async remember(m: EntityManager, ctx: CommandContext, status: number, answer: string): Promise<void> {
    const idem = ctx.idempotency!;
    // Only ciphertext is stored: an answer may carry a token (a new club's or key's).
    const body = sealReplay(idem.sealKey, status, idem.requestHash, answer);
    if (ctx.auth.kind === 'key') {
      await defer(m, {
        what: 'idempotency record',
        sql: 'INSERT INTO idempotency_keys (club_id, api_key_id, key, request_hash, status_code, body) VALUES ($1, $2, $3, $4, $5, $6)',
        params: [ctx.auth.clubId, ctx.auth.keyId, idem.key, idem.requestHash, status, body],
      });
    } else {
      await defer(m, {
        what: 'idempotency record',
        sql: 'INSERT INTO operator_idempotency_keys (key, request_hash, status_code, body) VALUES ($1, $2, $3, $4)',
        params: [idem.key, idem.requestHash, status, body],
      });
    }
  }

  /** Forgets idempotency records older than the window (at least 24 h). */
  async purgeIdempotency(ttlHours: number): Promise<number> {
    const a = await this.ds.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`, [ttlHours]);
    const b = await this.ds.query(`DELETE FROM operator_idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`, [ttlHours]);
    return Number(a?.[1] ?? 0) + Number(b?.[1] ?? 0);
  }
}
