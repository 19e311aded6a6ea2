/**
 * An event's id: its place in the log, (tx, seq), as one opaque string that sorts like
 * the place (32 lowercase hex digits: 16 for the transaction id, 16 for the sequence).
 * Clients only compare and resume with it.
 */
export interface LogPosition {
  /** The inserting transaction's id (xid8, kept as bigint), as a decimal string. */
  tx: string;
  /** The event's number from the global sequence, as a decimal string. */
  seq: string;
}

const HEX = /^[0-9a-f]{32}$/;
const MAX = (1n << 64n) - 1n;

export function encodeEventId(p: LogPosition): string {
  return BigInt(p.tx).toString(16).padStart(16, '0') + BigInt(p.seq).toString(16).padStart(16, '0');
}

/** The position of an id, or null when it is not one this service gave out. */
export function decodeEventId(id: string): LogPosition | null {
  if (!HEX.test(id)) return null;
  const tx = BigInt(`0x${id.slice(0, 16)}`);
  const seq = BigInt(`0x${id.slice(16)}`);
  if (tx > MAX || seq > MAX) return null;
  return { tx: tx.toString(), seq: seq.toString() };
}
