import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config';
import { CONFIG } from '../config.provider';

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
export class RateLimiter {
  constructor(
    private readonly ds: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  get enabled(): boolean {
    return this.config.rateLimit > 0;
  }

  async hit(clubId: string, apiKeyId: string): Promise<RateVerdict> {
    const limit = this.config.rateLimit;
    const window = this.config.rateLimitWindowSeconds;
    const [row] = await this.ds.query(
      `INSERT INTO rate_limit_counters (club_id, api_key_id, window_start, hits)
       VALUES ($1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), 1)
       ON CONFLICT (club_id, api_key_id, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING hits, ceil(extract(epoch FROM (window_start + make_interval(secs => $3) - now())))::int AS reset`,
      [clubId, apiKeyId, window],
    );
    const hits = row.hits as number;
    const reset = Math.max(1, row.reset as number);
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
