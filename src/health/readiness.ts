import { Injectable } from '@nestjs/common';
import { MIGRATIONS } from '../../migrations';
import { Db } from '../db/db.service';

/** What GET /ready found: nothing missing, or what the instance still waits for. */
export interface Readiness {
  /** `database` when it did not answer in time; `primary` when it answered as a standby; `migration:<name>` per migration of this build not applied. */
  missing: string[];
}

/**
 * Whether the server is a standby (in recovery: it takes no write), and the migrations
 * applied. A standby answers where the primary should (a failover in progress, a proxy
 * not yet moved): the instance is not ready, since every command would be refused.
 */
const READY_SQL = 'SELECT pg_is_in_recovery() AS standby, ARRAY(SELECT name::text FROM migrations) AS names';

/** How long one readiness check may take, end to end (PostgreSQL cancels the statement a little earlier). */
export const READY_TIMEOUT_MS = 1000;

/** The name TypeORM records a migration under in the `migrations` table: its `name`, else its class name. */
function recordedName(migration: (typeof MIGRATIONS)[number]): string {
  const named = (new migration() as { name?: unknown }).name;
  return typeof named === 'string' && named !== '' ? named : migration.name;
}

/**
 * Whether this instance may take traffic: the database answers as a primary, and every migration this
 * build carries (migrations/index.ts) is recorded as applied in its `migrations` table.
 *
 * Bounded: one cheap statement, cancelled by PostgreSQL after READY_TIMEOUT_MS − 250 ms,
 * and the answer given after READY_TIMEOUT_MS whatever happens. No pile-up: callers that
 * ask while a check is running share it, so at most one check (one connection) is in
 * flight however often a load balancer asks.
 */
@Injectable()
export class ReadinessCheck {
  private readonly expected = MIGRATIONS.map(recordedName);

  /** How many migrations this build carries. */
  get expectedCount(): number {
    return this.expected.length;
  }
  private running: Promise<Readiness> | null = null;

  constructor(private readonly db: Db) {}

  check(): Promise<Readiness> {
    if (this.running === null) {
      const run = this.look().finally(() => {
        if (this.running === run) this.running = null;
      });
      this.running = run;
    }
    const shared = this.running;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>((resolve) => (timer = setTimeout(() => resolve({ missing: ['database'] }), READY_TIMEOUT_MS).unref()));
    return Promise.race([shared, late]).finally(() => clearTimeout(timer));
  }

  private async look(): Promise<Readiness> {
    let applied: Set<string>;
    let standby = false;
    try {
      const [row] = await this.db.probe(READY_SQL, READY_TIMEOUT_MS - 250);
      standby = row.standby === true;
      applied = new Set((row.names as unknown[]).map(String));
    } catch (e) {
      // No migrations table yet: nothing is applied. Anything else: the database did not answer.
      if ((e as { code?: unknown }).code !== '42P01') return { missing: ['database'] };
      applied = new Set();
    }
    const migrations = this.expected.filter((name) => !applied.has(name)).map((name) => `migration:${name}`);
    return { missing: standby ? ['primary', ...migrations] : migrations };
  }
}
