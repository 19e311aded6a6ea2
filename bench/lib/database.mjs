// Where the app under test keeps its data: a fresh embedded cluster in a temporary
// folder (the default), or a fresh database on the server named by DATABASE_URL.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onCleanup } from './cleanup.mjs';
import { freePort, log } from './util.mjs';

/**
 * @typedef {object} Store
 * @property {string} description     for progress messages
 * @property {Record<string, string>} env  what the app needs to use it
 * @property {string} [dataDir]       the DATA_DIR, embedded mode only
 * @property {() => Promise<void>} dispose  removes it (after the app has stopped)
 */

/**
 * A fresh, empty DATA_DIR and a free port for the app's embedded PostgreSQL.
 * The folder is removed on dispose (and on cleanup).
 * @returns {Promise<Store>}
 */
export async function embeddedStore() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bgclub-bench-'));
  const port = await freePort();
  const dispose = onCleanup(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
  return {
    description: `embedded PostgreSQL in ${dataDir}, port ${port}`,
    env: { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) },
    dataDir,
    dispose,
  };
}

/**
 * A fresh database `bench_<timestamp>` on the server of `adminUrl`, dropped on
 * dispose (and on cleanup). The app must be stopped first.
 * @param {string} adminUrl  a postgres:// URL the benchmark may create databases with
 * @returns {Promise<Store>}
 */
export async function serverStore(adminUrl) {
  const name = `bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dispose = onCleanup(`drop database ${name}`, async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      log(`dropped database ${name}`);
    } finally {
      await client.end();
    }
  });
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  // A scratch database on an administrator's URL: the app may serve as that role here
  // (the embedded default runs it as its unprivileged bgclub_app_login).
  const env = { DATABASE_URL: url.toString(), ALLOW_PRIVILEGED_DATABASE_ROLE: '1' };
  return { description: `database ${name} on ${shown.host} (${shown})`, env, dispose };
}
