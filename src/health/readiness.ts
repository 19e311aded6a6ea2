import { Injectable } from '@nestjs/common';
import { MIGRATIONS } from '../../migrations';
import { Db } from '../db/db.service';
import { lookReady, Readiness } from './readiness-probe';

export type { Readiness } from './readiness-probe';

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

  private look(): Promise<Readiness> {
    return lookReady(this.expected, (sql) => this.db.probe(sql, READY_TIMEOUT_MS - 250));
  }
}
