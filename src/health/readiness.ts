import { Injectable } from '@nestjs/common';
import { MIGRATIONS } from '../../migrations';
import { Db } from '../db/db.service';

/** What GET /ready found: nothing missing, or what the instance still waits for. */
export interface Readiness {
  /** `database` when it did not answer in time; `migration:<name>` per migration of this build not applied. */
  missing: string[];
}

/** How long one readiness check may take, end to end (PostgreSQL cancels the statement a little earlier). */
export const READY_TIMEOUT_MS = 1000;

/** The name TypeORM records a migration under in the `migrations` table: its `name`, else its class name. */
function recordedName(migration: (typeof MIGRATIONS)[number]): string {
  const named = (new migration() as { name?: unknown }).name;
  return typeof named === 'string' && named !== '' ? named : migration.name;
}

/**
 * Whether this instance may take traffic: the database answers, and every migration this
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
    try {
      const rows = await this.db.probe('SELECT name FROM migrations', READY_TIMEOUT_MS - 250);
      applied = new Set(rows.map((r) => String(r.name)));
    } catch (e) {
      // No migrations table yet: nothing is applied. Anything else: the database did not answer.
      if ((e as { code?: unknown }).code !== '42P01') return { missing: ['database'] };
      applied = new Set();
    }
    return { missing: this.expected.filter((name) => !applied.has(name)).map((name) => `migration:${name}`) };
  }
}
