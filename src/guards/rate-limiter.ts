import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE_URL } from '../config.provider';
import { preparedOnPool } from '../db/prepared';

export interface RateVerdict {
  limited: boolean;
  headers: Record<string, string>;
}

/**
 * Rate limits per API key (API.md: 429 with Retry-After), counted in PostgreSQL so
 * every app instance shares one count: fixed windows of RATE_LIMIT_WINDOW_SECONDS on
 * the database's clock, one upserted counter row per key and window.
 *
 * Answers carry the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "per-key";q=<limit>;w=<window>` and
 * `RateLimit: "per-key";r=<remaining>;t=<seconds to reset>`.
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  /**
   * Counting runs on its own small pool with synchronous_commit off: a counter is not
   * money, so its commit need not wait for the WAL flush (a crash may forget a few
   * hits of the current window, never a game or a payment).
   */
  private pool: Pool | null = null;

  constructor(
    private readonly ds: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_URL) private readonly databaseUrl: string,
  ) {}

  private counterPool(): Pool {
    if (!this.pool) {
      this.pool = new Pool({
        connectionString: this.databaseUrl,
        max: 4,
        options: '-c synchronous_commit=off',
        connectionTimeoutMillis: 3000,
        idleTimeoutMillis: 30000,
        query_timeout: 15000,
        application_name: 'bg-club-scorekeeping-limits',
      });
      // An idle connection the server dropped: the next query reconnects.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
  }

  get enabled(): boolean {
    return this.config.rateLimit > 0;
  }

  /**
   * The key's auth record and, when limiting is on and the key is not revoked, its
   * count in the current window, in one round trip.
   */
  async authenticate(clubId: string, apiKeyId: string): Promise<{ role: string; secretHash: Buffer; revokedAt: Date | null; verdict: RateVerdict | null } | null> {
    const rows: Array<Record<string, unknown>> = this.enabled
      ? await preparedOnPool(
          this.counterPool(),
          `WITH k AS (SELECT role, secret_hash, revoked_at FROM api_keys WHERE club_id = $1 AND id = $2),
                c AS (INSERT INTO rate_limit_counters (club_id, api_key_id, window_start, hits)
                      SELECT $1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), 1 FROM k WHERE k.revoked_at IS NULL
                      ON CONFLICT (club_id, api_key_id, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
                      RETURNING hits, ceil(extract(epoch FROM (window_start + make_interval(secs => $3) - now())))::int AS reset)
           SELECT k.role, k.secret_hash, k.revoked_at, c.hits, c.reset FROM k LEFT JOIN c ON true`,
          [clubId, apiKeyId, this.config.rateLimitWindowSeconds],
        )
      : await this.ds.query('SELECT role, secret_hash, revoked_at FROM api_keys WHERE club_id = $1 AND id = $2', [clubId, apiKeyId]);
    if (rows.length === 0) return null;
    const r = rows[0];
    const hits = r.hits as number | null | undefined;
    return {
      role: r.role as string,
      secretHash: r.secret_hash as Buffer,
      revokedAt: (r.revoked_at as Date | null) ?? null,
      verdict: hits === null || hits === undefined ? null : this.verdict(hits, r.reset as number),
    };
  }

  private verdict(hits: number, resetSeconds: number): RateVerdict {
    const limit = this.config.rateLimit;
    const window = this.config.rateLimitWindowSeconds;
    const reset = Math.max(1, resetSeconds);
    const remaining = Math.max(0, limit - hits);
    const headers: Record<string, string> = {
      'ratelimit-policy': `"per-key";q=${limit};w=${window}`,
      ratelimit: `"per-key";r=${remaining};t=${reset}`,
    };
    if (hits > limit) headers['retry-after'] = String(reset);
    return { limited: hits > limit, headers };
  }

  /** Forgets windows that ended more than an hour ago. */
  async purge(): Promise<void> {
    await this.ds.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 hour'`);
  }
}
