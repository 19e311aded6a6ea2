import { ApiError } from '../common/api-error';
import { CommandContext, ReplayedAnswer } from '../common/command';
import { ErrorCode } from '../common/error-codes';
import { openReplay, sealReplay } from '../common/replay-seal';
import { cols } from '../db/decode';
import type { Tx } from '../db/tx';

type Idempotency = NonNullable<CommandContext['idempotency']>;

const decodeStored = (r: Readonly<Record<string, unknown>>) => {
  const c = cols(r);
  return { requestHash: c.text('request_hash'), status: c.int('status_code'), body: c.text('body') };
};

/** The advisory lock's key: one Idempotency-Key of one caller. */
function lockKey(ctx: CommandContext, idem: Idempotency): string {
  const scope = ctx.auth.kind === 'key' ? `${ctx.auth.clubId}/${ctx.auth.keyId}` : 'operator';
  return `idem/${scope}/${idem.key}`;
}

/**
 * Claims the Idempotency-Key for this transaction (an advisory lock held until it ends)
 * and answers the stored response when the key was used before with the same request.
 * Either way it writes nothing (the lock goes with the transaction).
 */
export async function claim(tx: Tx, ctx: CommandContext, idem: Idempotency): Promise<ReplayedAnswer | null> {
  const ok = await tx.maybeOne('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [lockKey(ctx, idem)], (r) => cols(r).bool('ok'));
  if (!ok) {
    throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT, 'A request with this Idempotency-Key is still being processed; retry when it has finished.');
  }
  const prior =
    ctx.auth.kind === 'key'
      ? await tx.maybeOne(
          'SELECT request_hash, status_code, body FROM idempotency_keys WHERE club_id = $1 AND api_key_id = $2 AND key = $3',
          [ctx.auth.clubId, ctx.auth.keyId, idem.key],
          decodeStored,
        )
      : await tx.maybeOne('SELECT request_hash, status_code, body FROM operator_idempotency_keys WHERE key = $1', [idem.key], decodeStored);
  if (!prior) return null;
  if (prior.requestHash !== idem.requestHash) {
    throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was already used with a different request; use a new key for a new request.');
  }
  const body = openReplay(idem.sealKey, prior.status, idem.requestHash, prior.body);
  if (body === null) {
    throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_REUSED, 'This Idempotency-Key was used with another credential; use a new key for a new request.');
  }
  return new ReplayedAnswer(prior.status, body);
}

/** Stores the response for replay, sealed (only ciphertext is kept: an answer may carry a token). */
export function remember(tx: Tx, ctx: CommandContext, idem: Idempotency, status: number, answer: string): void {
  const body = sealReplay(idem.sealKey, status, idem.requestHash, answer);
  if (ctx.auth.kind === 'key') {
    tx.defer({
      what: 'idempotency record',
      text: 'INSERT INTO idempotency_keys (club_id, api_key_id, key, request_hash, status_code, body) VALUES ($1, $2, $3, $4, $5, $6)',
      values: [ctx.auth.clubId, ctx.auth.keyId, idem.key, idem.requestHash, status, body],
    });
  } else {
    tx.defer({
      what: 'idempotency record',
      text: 'INSERT INTO operator_idempotency_keys (key, request_hash, status_code, body) VALUES ($1, $2, $3, $4)',
      values: [idem.key, idem.requestHash, status, body],
    });
  }
}
