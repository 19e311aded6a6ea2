// Small helpers shared by the benchmark modules: logging, figures, ports, timing.

import net from 'node:net';

/**
 * A progress message. Progress goes to stderr so that stdout carries nothing but
 * the `name value unit` figures.
 * @param {...unknown} parts
 */
export function log(...parts) {
  const t = new Date().toISOString().slice(11, 19);
  process.stderr.write(`[bench ${t}] ${parts.join(' ')}\n`);
}

/**
 * Prints one figure on stdout as `name value unit`.
 * @param {string} name   e.g. `record_game_rps`
 * @param {number} value
 * @param {string} unit   e.g. `req/s`, `ms`, `s`, `MB`
 * @param {number} [decimals=1]
 */
export function emit(name, value, unit, decimals = 1) {
  const shown = Number.isFinite(value) ? value.toFixed(decimals) : String(value);
  process.stdout.write(`${name} ${shown} ${unit}\n`);
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for `promise` at most `ms`; true when it settled in time. The timer is
 * cleared either way, so it never keeps the process alive.
 * @param {Promise<unknown>} promise
 * @param {number} ms
 * @returns {Promise<boolean>}
 */
export function within(promise, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}

/** Milliseconds from an arbitrary origin, sub-millisecond resolution. */
export const now = () => performance.now();

/**
 * A TCP port that was free a moment ago on 127.0.0.1 (the OS picks it).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The p-th percentile of already sorted values, nearest-rank method.
 * @param {Float64Array | number[]} sorted  ascending
 * @param {number} p  0 < p ≤ 100
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * A whole number of seconds from the environment, or the fallback.
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 */
export function envNumber(name, fallback, min, max) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new Error(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}
