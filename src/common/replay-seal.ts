import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Stored idempotent answers are sealed so that no usable token rests in the database
 * (a created club or API key answers its token once, and its replay is kept for a day).
 *
 * The key is derived from what only the genuine caller holds: HKDF-SHA256 over the
 * caller's bearer token, salted with the Idempotency-Key and the request's method and
 * path. The server keeps no key of its own, so whoever reads the database (or a backup
 * of it) cannot open a stored answer; the caller retrying with the same token, key and
 * route can. AES-256-GCM with a random IV; the stored status and request hash are its
 * associated data, so a row edited in place no longer opens.
 *
 * Stored form: `aes256gcm:` + base64(iv ‖ tag ‖ ciphertext). A JSON text never starts
 * with `a`, so answers stored in the clear before sealing existed are still told apart.
 */
const PREFIX = 'aes256gcm:';
const INFO = 'bgclub idempotent replay v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The sealing key of one caller's answer under one Idempotency-Key on one route. */
export function replayKey(bearerToken: string, idempotencyKey: string, method: string, path: string): Buffer {
  const salt = `${method} ${path}\n${idempotencyKey}`;
  return Buffer.from(hkdfSync('sha256', bearerToken, salt, INFO, 32));
}

const aad = (status: number, requestHash: string) => Buffer.from(`${status}\n${requestHash}`);

export function sealReplay(key: Buffer, status: number, requestHash: string, body: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(status, requestHash));
  const ct = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

/**
 * The answer as first sent, or null when this key cannot open it (another credential,
 * or a row changed in place). An answer stored in the clear is answered as it is.
 */
export function openReplay(key: Buffer, status: number, requestHash: string, stored: string): string | null {
  if (!stored.startsWith(PREFIX)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(aad(status, requestHash));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
