import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE_URL } from '../config.provider';
import { createPool } from './pool';
import type { ReadSource } from '../common/read-source';
import { CommitPosition, ReplicaReads } from './replica-reads';
import type { Reads } from './tx';
import { UnitOfWork } from './unit-of-work';

/**
 * The unit of work (unit-of-work.ts) on the app's own pool, injectable. The pool connects
 * on first use. With DATABASE_REPLICA_URL, a second pool on the standby serves the reads a
 * client accepts from it (readFrom) and writes answer their Consistency-Token (commitPosition).
 */
@Injectable()
export class Db extends UnitOfWork implements OnApplicationShutdown {
  private readonly replica: UnitOfWork | null;
  private readonly replicaReads: ReplicaReads | null;
  private readonly position: CommitPosition | null;

  constructor(@Inject(CONFIG) config: AppConfig, @Inject(DATABASE_URL) url: string) {
    const mode = config.databasePoolMode;
    super(createPool({ url, size: config.dbPoolSize, mode, timeoutMs: config.dbTimeoutMs }), mode, config.dbTimeoutMs);
    if (config.databaseReplicaUrl) {
      const size = Math.max(2, Math.ceil(config.dbPoolSize / 2));
      this.replica = new UnitOfWork(
        createPool({ url: config.databaseReplicaUrl, size, mode, timeoutMs: config.dbTimeoutMs, applicationName: 'bg-club-scorekeeping-replica' }),
        mode,
        config.dbTimeoutMs,
      );
      this.replicaReads = new ReplicaReads(this.replica, this);
      this.position = new CommitPosition(this.once);
    } else {
      this.replica = null;
      this.replicaReads = null;
      this.position = null;
    }
  }

  /** Whether a standby is configured (DATABASE_REPLICA_URL). */
  get hasReplica(): boolean {
    return this.replica !== null;
  }

  /** A consistent read: on the standby when `source` accepts it and one is configured (replica-reads.ts), else on the primary. */
  readFrom<T>(source: ReadSource | null, work: (tx: Reads) => Promise<T>): Promise<T> {
    if (source === null || this.replicaReads === null) return this.read(work);
    return this.replicaReads.read(source, work);
  }

  /** The Consistency-Token of the writes that returned so far; null without a standby or when the primary did not answer. */
  async commitPosition(): Promise<string | null> {
    return this.position === null ? null : this.position.read();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.end().catch(() => undefined), this.replica?.end().catch(() => undefined)]);
  }
}
