import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/data-source';
import { GLOBAL_TABLES } from '../src/entities';
import { cloneDatabase } from './support/app';

/**
 * The schema as the migrations build it, read from the catalog: tenancy (every
 * tenant table keyed by club_id), types (timestamptz, BIGINT money), and agreement
 * with the TypeORM entities.
 */
describe('schema', () => {
  let ds: DataSource;

  beforeAll(async () => {
    const db = await cloneDatabase();
    ds = new DataSource(dataSourceOptions({ url: db.url, poolSize: 1 }));
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  const tables = async (): Promise<string[]> =>
    (await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`)).map(
      (r: { table_name: string }) => r.table_name,
    );

  it('applies every migration and nothing else (synchronize is off)', async () => {
    expect(ds.options.synchronize).toBe(false);
    const applied = await ds.query('SELECT name FROM migrations ORDER BY id');
    expect(applied.map((r: { name: string }) => r.name)).toEqual(ds.migrations.map((m) => m.name));
    expect(await ds.showMigrations()).toBe(false);
  });

  it('gives every tenant table a NOT NULL club_id in its primary key, unique constraints and foreign keys', async () => {
    const tenant = (await tables()).filter((t) => !GLOBAL_TABLES.includes(t));
    expect(tenant.length).toBeGreaterThan(0);
    for (const table of tenant) {
      const col = await ds.query(`SELECT is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND column_name = 'club_id'`, [table]);
      expect({ table, club_id: col[0]?.is_nullable }).toEqual({ table, club_id: 'NO' });
      const constraints: Array<{ conname: string; contype: string; cols: string[]; refcols: string[] | null }> = await ds.query(
        `SELECT c.conname, c.contype,
                array(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k) AS cols,
                CASE WHEN c.contype = 'f' THEN array(SELECT a.attname::text FROM unnest(c.confkey) k JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k) END AS refcols
           FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'u', 'f')`,
        [table],
      );
      expect(constraints.some((c) => c.contype === 'p')).toBe(true);
      for (const c of constraints) {
        expect({ table, constraint: c.conname, hasClubId: c.cols.includes('club_id') }).toEqual({ table, constraint: c.conname, hasClubId: true });
        if (c.refcols) expect({ constraint: c.conname, refHasClubId: c.refcols.includes('club_id') }).toEqual({ constraint: c.conname, refHasClubId: true });
      }
      const uniqueIdx: Array<{ indexname: string; indexdef: string }> = await ds.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1 AND indexdef LIKE 'CREATE UNIQUE%'`,
        [table],
      );
      for (const i of uniqueIdx) expect({ index: i.indexname, hasClubId: i.indexdef.includes('club_id') }).toEqual({ index: i.indexname, hasClubId: true });
    }
  });

  it('uses timestamptz for every time and BIGINT for every money column', async () => {
    const cols: Array<{ table_name: string; column_name: string; data_type: string }> = await ds.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    for (const c of cols) {
      if (c.data_type.startsWith('timestamp')) expect(`${c.table_name}.${c.column_name}: ${c.data_type}`).toMatch(/with time zone$/);
      if (c.column_name.endsWith('_minor')) expect(`${c.table_name}.${c.column_name}: ${c.data_type}`).toMatch(/: bigint$/);
    }
  });

  it('agrees with the entities: same tables, columns, types, nullability and primary keys', async () => {
    const live = await tables();
    const entityTables = ds.entityMetadatas.map((m) => m.tableName).sort();
    expect(entityTables).toEqual(live.filter((t) => t !== 'migrations'));
    for (const meta of ds.entityMetadatas) {
      const cols: Array<{ column_name: string; data_type: string; is_nullable: string; udt_name: string }> = await ds.query(
        `SELECT column_name, data_type, is_nullable, udt_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY column_name`,
        [meta.tableName],
      );
      const fromDb = cols.map((c) => ({
        column: c.column_name,
        type: c.data_type === 'ARRAY' ? `${normalise(c.udt_name.slice(1))}[]` : normalise(c.data_type),
        nullable: c.is_nullable === 'YES',
      }));
      const fromEntity = meta.columns
        .map((c) => ({ column: c.databaseName, type: normalise(ds.driver.normalizeType(c)) + (c.isArray ? '[]' : ''), nullable: c.isNullable }))
        .sort((a, b) => a.column.localeCompare(b.column));
      expect({ table: meta.tableName, columns: fromEntity }).toEqual({ table: meta.tableName, columns: fromDb.sort((a, b) => a.column.localeCompare(b.column)) });

      const pk: Array<{ attname: string }> = await ds.query(
        `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary`,
        [meta.tableName],
      );
      expect(pk.map((r) => r.attname).sort()).toEqual(meta.primaryColumns.map((c) => c.databaseName).sort());
    }
  });
});

/** information_schema and TypeORM spell some types differently. */
function normalise(type: string): string {
  const t = type.toLowerCase();
  const map: Record<string, string> = {
    'timestamp with time zone': 'timestamptz',
    character: 'char',
    'character varying': 'varchar',
    int: 'integer',
    int4: 'integer',
    int8: 'bigint',
    float8: 'double precision',
  };
  return map[t] ?? t;
}
