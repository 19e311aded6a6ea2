import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE_URL } from '../config.provider';
import { Db } from '../db/db.service';
import { cols, Decoder, Row } from '../db/decode';
import { poolConfig } from '../db/pool';
import { UnitOfWork } from '../db/unit-of-work';

/** Requests this instance may answer for a key in the current window without asking the database. */
interface Lease {
  /** When the window ends, on this instance's clock. */
  endsAt: number;
  granted: number;
  used: number;
  /** The shared counter after this lease was taken. */
  hits: number;
  /** Nothing granted: the key is over its limit until the window ends. */
  limited: boolean;
  /** The limit and the policy's name in the RateLimit fields. */
  limit: number;
  policy: string;
}

/** The shared counter after a lease was taken, and the time left in its window. */
type Taken = { hits: number; leftMs: number };

const decodeTaken: Decoder<Taken> = (r: Row) => {
  const c = cols(r);
  return { hits: c.int('hits'), leftMs: c.int('left_ms') };
};

export interface RateVerdict {
  limited: boolean;
  headers: Record<string, string>;
}

/**
 * Rate limits per API key (the HTTP contract: 429 with Retry-After), counted in PostgreSQL so
 * every app instance shares one count: fixed windows of RATE_LIMIT_WINDOW_SECONDS on
 * the database's clock, one upserted counter row per key and window. An instance takes
 * hits from the shared counter in leases (1 % of the limit, at most 1,000, at least 1)
 * and counts them down in memory, so a busy key costs one upsert per lease, not one
 * per request, and with a small limit (under 200) every request is still counted in
 * the database. Losing an instance loses only its unused lease.
 *
 * Answers carry the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "per-key";q=<limit>;w=<window>` and
 * `RateLimit: "per-key";r=<remaining>;t=<seconds to reset>`.
 *
 * Two more counts work the same way, in `auth_rate_counters` (keyed by a subject, not
 * a key): failed authentications per client address (`ip:<address>`,
 * AUTH_FAILURE_LIMIT) and the operator token (`operator`, OPERATOR_RATE_LIMIT).
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  /**
   * Counting runs on its own small pool with synchronous_commit off: a counter is not
   * money, so its commit need not wait for the WAL flush (a crash may forget a few
   * hits of the current window, never a game or a payment).
   */
  private counters: UnitOfWork | null = null;
  private readonly leases = new Map<string, Lease>();
  private readonly leasing = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
  ) {}

  /**
   * The counters' pool, made on first use with the app pool's bounds (pool.ts). In session
   * mode synchronous_commit is off for the whole connection (a startup setting); a pooler
   * in transaction mode refuses startup settings, so there it is set in each counter
   * statement's own transaction (`counted`).
   */
  private counterDb(): UnitOfWork {
    if (!this.counters) {
      const mode = this.config.databasePoolMode;
      const pool = new Pool({
        ...poolConfig({ url: this.databaseUrl, size: 4, mode, timeoutMs: this.config.dbTimeoutMs, applicationName: 'bg-club-scorekeeping-limits' }),
        ...(mode === 'session' ? { options: '-c synchronous_commit=off' } : {}),
      });
      // An idle connection the server dropped: the next query reconnects. One that fails
      // under a statement fails that statement (and is discarded); its event must not end the process.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      this.counters = new UnitOfWork(pool, mode, this.config.dbTimeoutMs);
    }
    return this.counters;
  }

  /**
   * The rows of one counter statement, on the counters' pool: on its own, as a named
   * statement, in session mode; in transaction mode in a transaction of its own that
   * turns synchronous_commit off first (SET LOCAL).
   */
  private counted<T>(text: string, values: readonly unknown[], decode: Decoder<T>): Promise<T[]> {
    const counters = this.counterDb();
    if (counters.mode === 'session') return counters.once.rows(text, values, decode, { prepare: true });
    return counters.transaction(async (tx) => {
      await tx.write({ text: 'SET LOCAL synchronous_commit = off', values: [] });
      return tx.rows(text, values, decode);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.counters?.end().catch(() => undefined);
  }

  get enabled(): boolean {
    return this.config.rateLimit > 0;
  }

  /**
   * Counts one request of the key; null when limiting is off. Most requests are counted
   * against a lease this instance holds (no database round trip); a new lease is taken
   * when it runs out or its window ends.
   */
  async count(clubId: string, apiKeyId: string): Promise<RateVerdict | null> {
    if (!this.enabled) return null;
    return this.draw(`${clubId}/${apiKeyId}`, this.config.rateLimit, 'per-key', (chunk) => this.takeForKey(clubId, apiKeyId, chunk));
  }

  /** Counts one request with the operator token (OPERATOR_RATE_LIMIT); null when that limit is off. */
  async countOperator(): Promise<RateVerdict | null> {
    const limit = this.config.operatorRateLimit;
    return limit > 0 ? this.draw('#operator', limit, 'operator', (chunk) => this.takeForSubject('operator', chunk)) : null;
  }

  /**
   * Counts one failed authentication from a client address (AUTH_FAILURE_LIMIT); limited
   * once the address has failed more often than that in the window. Null when off.
   */
  async countFailure(address: string): Promise<RateVerdict | null> {
    const limit = this.config.authFailureLimit;
    const subject = `ip:${address}`;
    return limit > 0 ? this.draw(`#${subject}`, limit, 'auth-failures', (chunk) => this.takeForSubject(subject, chunk)) : null;
  }

  /**
   * Whether an address has used up its failed authentications in the current window
   * (a limited verdict) or not (null), without counting anything. Read from the shared
   * counter unless this instance already knows the address is limited.
   */
  async failuresExhausted(address: string): Promise<RateVerdict | null> {
    const limit = this.config.authFailureLimit;
    if (limit <= 0) return null;
    const subject = `ip:${address}`;
    const known = this.leases.get(`#${subject}`);
    const now = Date.now();
    if (known && known.endsAt > now && known.limited) return this.verdict(known, now);
    const [row] = await this.counted(
      `SELECT hits, floor(extract(epoch FROM (window_start + make_interval(secs => $2) - now())) * 1000)::int AS left_ms
         FROM auth_rate_counters WHERE subject = $1 AND window_start = to_timestamp(floor(extract(epoch FROM now()) / $2) * $2)`,
      [subject, this.config.rateLimitWindowSeconds],
      decodeTaken,
    );
    if (!row || row.hits < limit) return null;
    const lease: Lease = { endsAt: now + Math.max(0, row.leftMs), granted: 0, used: 0, hits: row.hits, limited: true, limit, policy: 'auth-failures' };
    return this.verdict(lease, now);
  }

  /** Takes one hit of `id` from this instance's lease, leasing more from the shared counter when needed. */
  private async draw(id: string, limit: number, policy: string, take: (chunk: number) => Promise<Taken>): Promise<RateVerdict> {
    for (;;) {
      const lease = this.leases.get(id);
      const now = Date.now();
      if (lease && lease.endsAt > now) {
        if (lease.used < lease.granted) {
          lease.used++;
          return this.verdict(lease, now);
        }
        if (lease.limited) return this.verdict(lease, now);
      }
      let pending = this.leasing.get(id);
      if (!pending) {
        pending = this.lease(id, limit, policy, take).finally(() => this.leasing.delete(id));
        this.leasing.set(id, pending);
      }
      await pending;
    }
  }

  /**
   * Takes a lease of up to `chunk` requests in the key's current window: one upsert that
   * adds them to the shared counter, granted only as far as the limit allows. Every
   * instance draws from the same counter, so all instances together never answer more
   * than the limit in a window; hits leased but not used by the window's end are lost
   * (at most one lease per instance, 1 % of the limit each).
   */
  private async lease(id: string, limit: number, policy: string, take: (chunk: number) => Promise<Taken>): Promise<void> {
    const chunk = Math.max(1, Math.min(1000, Math.floor(limit / 100)));
    const { hits, leftMs } = await take(chunk);
    const before = hits - chunk;
    const granted = Math.max(0, Math.min(chunk, limit - before));
    this.leases.set(id, { endsAt: Date.now() + Math.max(0, leftMs), granted, used: 0, hits, limited: granted === 0, limit, policy });
  }

  /** Adds `chunk` hits to a key's counter in the current window. */
  private async takeForKey(clubId: string, apiKeyId: string, chunk: number): Promise<Taken> {
    const [taken] = await this.counted(
      `INSERT INTO rate_limit_counters (club_id, api_key_id, window_start, hits)
       VALUES ($1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), $4)
       ON CONFLICT (club_id, api_key_id, window_start) DO UPDATE SET hits = rate_limit_counters.hits + $4
       RETURNING hits, floor(extract(epoch FROM (window_start + make_interval(secs => $3) - now())) * 1000)::int AS left_ms`,
      [clubId, apiKeyId, this.config.rateLimitWindowSeconds, chunk],
      decodeTaken,
    );
    return taken;
  }

  /** The same for a subject of `auth_rate_counters` (`operator`, `ip:<address>`). */
  private async takeForSubject(subject: string, chunk: number): Promise<Taken> {
    const [taken] = await this.counted(
      `INSERT INTO auth_rate_counters (subject, window_start, hits)
       VALUES ($1, to_timestamp(floor(extract(epoch FROM now()) / $2) * $2), $3)
       ON CONFLICT (subject, window_start) DO UPDATE SET hits = auth_rate_counters.hits + $3
       RETURNING hits, floor(extract(epoch FROM (window_start + make_interval(secs => $2) - now())) * 1000)::int AS left_ms`,
      [subject, this.config.rateLimitWindowSeconds, chunk],
      decodeTaken,
    );
    return taken;
  }

  private verdict(lease: Lease, now: number): RateVerdict {
    const limit = lease.limit;
    const window = this.config.rateLimitWindowSeconds;
    const reset = Math.max(1, Math.ceil((lease.endsAt - now) / 1000));
    // Used by every instance: the shared count, less what this instance leased and has not used.
    const remaining = Math.max(0, limit - (lease.hits - (lease.granted - lease.used)));
    const headers: Record<string, string> = {
      'ratelimit-policy': `"${lease.policy}";q=${limit};w=${window}`,
      ratelimit: `"${lease.policy}";r=${remaining};t=${reset}`,
    };
    if (lease.limited) headers['retry-after'] = String(reset);
    return { limited: lease.limited, headers };
  }

  /** Forgets windows that ended more than an hour ago. */
  async purge(): Promise<void> {
    const now = Date.now();
    for (const [id, lease] of this.leases) if (lease.endsAt <= now) this.leases.delete(id);
    await this.db.once.write({ text: `DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`, values: [] });
    await this.db.once.write({ text: `DELETE FROM auth_rate_counters WHERE window_start < now() - interval '1 hour'`, values: [] });
  }
}
