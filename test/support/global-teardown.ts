import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import type { EmbeddedServer } from '../../src/db/embedded';

/** Drops this run's databases and app login (a shared DATABASE_URL server stays clean) and stops the embedded server. */
export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  const runId = process.env.TEST_RUN_ID;
  if (runId) {
    // Each test file adds how many answers it held against the OpenAPI document (contract-setup.ts).
    const counts = join(tmpdir(), `bgclub-contract-${runId}.count`);
    if (existsSync(counts)) {
      const lines = readFileSync(counts, 'utf8').split('\n').filter(Boolean);
      const total = lines.reduce((sum, n) => sum + Number(n), 0);
      console.log(`[tests] ${total} answers in ${lines.length} files checked against openapi/openapi.json`);
      rmSync(counts, { force: true });
    }
  }
  if (adminUrl && runId) {
    const admin = new Client({ connectionString: adminUrl });
    try {
      await admin.connect();
      const dbs = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`bgtest_${runId}_%`]);
      for (const { datname } of dbs.rows) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
      }
      if (process.env.TEST_PG_APP_USER) await admin.query(`DROP ROLE IF EXISTS "${process.env.TEST_PG_APP_USER}"`).catch(() => undefined);
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
  const embedded = (globalThis as Record<string, unknown>).__BG_EMBEDDED__ as { server: EmbeddedServer; dir: string } | undefined;
  if (embedded) {
    await embedded.server.stop();
    rmSync(dirname(embedded.dir), { recursive: true, force: true });
  }
}
