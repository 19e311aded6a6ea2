import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE_URL } from '../config.provider';
import { createPool } from './pool';
import { UnitOfWork } from './unit-of-work';

/** The unit of work (unit-of-work.ts) on the app's own pool, injectable. The pool connects on first use. */
@Injectable()
export class Db extends UnitOfWork implements OnApplicationShutdown {
  constructor(@Inject(CONFIG) config: AppConfig, @Inject(DATABASE_URL) url: string) {
    const mode = config.databasePoolMode;
    super(createPool({ url, size: config.dbPoolSize, mode, timeoutMs: config.dbTimeoutMs }), mode, config.dbTimeoutMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.end().catch(() => undefined);
  }
}
