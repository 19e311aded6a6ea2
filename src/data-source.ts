import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../migrations';
import { ENTITIES } from './entities';
import { boundedWaits } from './db/timeouts';

export interface DbOptions {
  url: string;
  poolSize?: number;
  /** ms to wait for a connection before the request fails with 503. */
  connectTimeoutMs?: number;
  /** The app's bound on every database wait (timeouts.ts); migrations run without it. */
  timeoutMs?: number;
}

/** TypeORM options: migrations only, never synchronize. */
export function dataSourceOptions(o: DbOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: o.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    poolSize: o.poolSize ?? 10,
    extra: {
      connectionTimeoutMillis: o.connectTimeoutMs ?? 3000,
      idleTimeoutMillis: 30000,
      query_timeout: 15000,
      application_name: 'bg-club-scorekeeping',
      ...(o.timeoutMs ? boundedWaits(o.timeoutMs) : {}),
    },
  };
}

/** Runs every pending migration, each in its own transaction. */
export async function migrate(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await ds.initialize();
  try {
    const done = await ds.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
