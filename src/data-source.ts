import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../migrations';
import { ENTITIES } from './entities';

export interface DbOptions {
  url: string;
  poolSize?: number;
}

/**
 * TypeORM options: migrations only, never synchronize. The app itself runs on its own
 * node-postgres pool (src/db/pool.ts); TypeORM only applies the migrations.
 */
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
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30000,
      query_timeout: 15000,
      application_name: 'bg-club-scorekeeping',
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
