import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets at rest. The secret is shown once, when the subscription is
 * created; the worker needs it again for every delivery, so it is kept, but sealed with
 * the server's key (WEBHOOK_SECRET_KEY, config.ts): a database dump or backup does not
 * reveal it. AES-256-GCM with a random IV; the subscription's club and id are its
 * associated data, so a sealed secret copied onto another subscription does not open.
 *
 * Stored form: `aes256gcm:` + base64(iv ‖ tag ‖ ciphertext).
 */
const PREFIX = 'aes256gcm:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Random bytes of a secret (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

const aad = (clubId: string, webhookId: string) => Buffer.from(`webhook secret\n${clubId}\n${webhookId}`);

export function sealSecret(key: Buffer, clubId: string, webhookId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(clubId, webhookId));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

/** The secret, or null when this key cannot open it (another server key, another subscription, or a changed row). */
export function openSecret(key: Buffer, clubId: string, webhookId: string, sealed: string): string | null {
  if (!sealed.startsWith(PREFIX)) return null;
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(aad(clubId, webhookId));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
