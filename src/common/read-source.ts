import type { FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import { ErrorCode } from './error-codes';

/** A WAL position as PostgreSQL prints it (and as a write's Consistency-Token carries it). */
const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

type HeaderValue = string | string[] | undefined;

/**
 * A read the client accepts from a standby (`Prefer: replica`), never older than its own
 * last write: `atLeast` is the Consistency-Token its last write answered (a WAL position),
 * or null when it has none. `servedBy` says afterwards where the read ran.
 */
export interface ReadSource {
  atLeast: string | null;
  servedBy?: 'replica' | 'primary';
}

/** The request headers a read from a standby is chosen by (with Accept, which the routes negotiate). */
export interface ReadHeaders {
  accept?: string;
  prefer?: HeaderValue;
  'consistency-token'?: HeaderValue;
}

/** Whether `Prefer` (RFC 7240: comma-separated preferences, each `name[=value][; params]`) names `replica`. */
export function prefersReplica(prefer: HeaderValue): boolean {
  const values = Array.isArray(prefer) ? prefer : prefer === undefined ? [] : [prefer];
  return values.some((v) =>
    v
      .split(',')
      .map((p) => p.split(/[=;]/)[0].trim().toLowerCase())
      .includes('replica'),
  );
}

/**
 * The read a client accepts from a standby: `Prefer: replica`, no older than its
 * `Consistency-Token` when it sends one. Null when it did not ask (the primary answers).
 * A token that is not a WAL position is refused (400 VALIDATION_FAILED).
 */
export function readSource(headers: ReadHeaders): ReadSource | null {
  if (!prefersReplica(headers.prefer)) return null;
  const raw = headers['consistency-token'];
  const token = (Array.isArray(raw) ? raw[raw.length - 1] : raw)?.trim() ?? '';
  if (token === '') return { atLeast: null };
  if (!LSN.test(token)) {
    throw new ApiError(ErrorCode.VALIDATION_FAILED, 'Consistency-Token must be the token a write answered (a WAL position such as 0/16B3748).');
  }
  return { atLeast: token.toUpperCase() };
}

/** After the read: `Preference-Applied: replica` when a standby answered, and the headers that chose it in Vary. */
export function markReadSource(reply: FastifyReply, source: ReadSource | null, negotiated = true): void {
  reply.header('vary', `${negotiated ? 'Accept, ' : ''}Prefer, Consistency-Token`);
  if (source?.servedBy === 'replica') reply.header('preference-applied', 'replica');
}
