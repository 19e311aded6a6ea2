import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrate } from '../../src/data-source';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { ensureAppLogin } from '../../src/db/roles';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * One PostgreSQL for the whole run (embedded by default, DATABASE_URL when set),
 * and one migrated template database that every test file clones.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
    console.log(`\n[tests] using DATABASE_URL ${adminUrl.replace(/:[^:@/]*@/, ':***@')}`);
  } else {
    const dir = join(mkdtempSync(join(tmpdir(), 'bgclub-test-')), 'pg');
    const port = await freePort();
    const server = await startEmbeddedPostgres(dir, port);
    (globalThis as Record<string, unknown>).__BG_EMBEDDED__ = { server, dir };
    adminUrl = server.url('postgres');
    console.log(`\n[tests] embedded PostgreSQL on port ${port}`);
  }
  const template = `bgtest_${runId}_tpl`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const version = await admin.query('SHOW server_version');
  console.log(`[tests] PostgreSQL ${version.rows[0].server_version}`);
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${template}`;
  await migrate(u.toString());
  // The apps under test log in as a member of bgclub_app (made by the migrations), as in
  // production; the tests' own connections stay the owner's.
  const appUser = `bgtest_${runId}_app`;
  const appPassword = randomBytes(18).toString('base64url');
  await ensureAppLogin(u.toString(), appUser, appPassword);

  process.env.TEST_PG_ADMIN_URL = adminUrl;
  process.env.TEST_PG_TEMPLATE = template;
  process.env.TEST_RUN_ID = runId;
  process.env.TEST_PG_APP_USER = appUser;
  process.env.TEST_PG_APP_PASSWORD = appPassword;
}
