import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrate } from '../../src/data-source';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { ensureAppLogin, withCredentials } from '../../src/db/roles';

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
 * The run's app login gets through PgBouncer (TEST_PGBOUNCER_URL) to this run's server:
 * a harness that does not work fails here, before any app is started. (It logs in to the
 * `postgres` database: a pooled connection to the template would keep it from being cloned.)
 */
async function checkPooler(poolerUrl: string, adminUrl: string, appUser: string, appPassword: string): Promise<void> {
  const u = new URL(adminUrl);
  const p = new URL(poolerUrl);
  u.hostname = p.hostname;
  u.port = p.port;
  u.pathname = '/postgres';
  const through = new Client({ connectionString: withCredentials(u.toString(), appUser, appPassword) });
  try {
    await through.connect();
    const { rows } = await through.query<{ user: string; port: number }>('SELECT current_user AS user, inet_server_port() AS port');
    console.log(`[tests] apps connect through PgBouncer at ${p.host} (transaction pooling) as ${rows[0].user}, to port ${rows[0].port}`);
  } catch (e) {
    throw new Error(`the app login does not get through PgBouncer at ${p.host}: ${(e as Error).message}`, { cause: e });
  } finally {
    await through.end().catch(() => undefined);
  }
}

/**
 * One PostgreSQL for the whole run (embedded by default, DATABASE_URL when set),
 * and one migrated template database that every test file clones.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  let adminUrl: string;
  if (process.env.TEST_PGBOUNCER_URL && !process.env.DATABASE_URL) {
    throw new Error('TEST_PGBOUNCER_URL needs DATABASE_URL: the server PgBouncer stands in front of (test/support/pgbouncer.mjs sets both)');
  }
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

  if (process.env.TEST_PGBOUNCER_URL) await checkPooler(process.env.TEST_PGBOUNCER_URL, adminUrl, appUser, appPassword);

  process.env.TEST_PG_ADMIN_URL = adminUrl;
  process.env.TEST_PG_TEMPLATE = template;
  process.env.TEST_RUN_ID = runId;
  process.env.TEST_PG_APP_USER = appUser;
  process.env.TEST_PG_APP_PASSWORD = appPassword;
}
