import { randomFillSync } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids made by the
 * app sort by creation time, which keyset pagination and index locality rely on.
 * A counter in the random bits keeps ids made in the same millisecond ordered.
 */
let lastMs = 0;
let seq = 0;

/** Random bytes drawn 4 KiB at a time from the CSPRNG (one call per 256 ids, not one each). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function random16(): Buffer {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const b = Buffer.allocUnsafe(16);
  pool.copy(b, 0, poolAt, poolAt + 16);
  // Used bytes are wiped, so no id's randomness lingers in the pool.
  pool.fill(0, poolAt, poolAt + 16);
  poolAt += 16;
  return b;
}

export function uuid7(now: number = Date.now()): string {
  const b = random16();
  if (now <= lastMs) {
    seq = (seq + 1) & 0xfff;
    if (seq === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    seq = b.readUInt16BE(6) & 0x7ff;
  }
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (seq >> 8);
  b[7] = seq & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID_RE.test(s);
}
