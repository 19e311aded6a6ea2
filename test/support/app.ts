import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { withCredentials } from '../../src/db/roles';

const ROOT = join(__dirname, '..', '..');
export const MAIN = join(ROOT, 'dist', 'src', 'main.js');

/** The same database as the owner's `url`, as the run's app login (a member of bgclub_app). */
export function appUrlFor(url: string): string {
  return withCredentials(url, process.env.TEST_PG_APP_USER!, process.env.TEST_PG_APP_PASSWORD!);
}

/**
 * A fresh database cloned from the migrated template (retried while the template is busy):
 * `url` is the owner's connection (for tests' setup and checks), `appUrl` the app's.
 */
export async function cloneDatabase(): Promise<{ name: string; url: string; appUrl: string }> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL!;
  const name = `bgtest_${process.env.TEST_RUN_ID}_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${process.env.TEST_PG_TEMPLATE}"`);
        break;
      } catch (e) {
        if ((e as { code?: string }).code !== '55006' || attempt > 50) throw e;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { name, url: u.toString(), appUrl: appUrlFor(u.toString()) };
}

/** host:port of a postgres URL (5432 when it names none). */
const serverOf = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}`;
};

/**
 * With TEST_PGBOUNCER_URL (a PgBouncer in transaction pooling mode, test/support/pgbouncer.mjs,
 * in front of this run's server), the environment of an app whose DATABASE_URL is on this
 * run's server: DATABASE_URL goes through PgBouncer instead (same user, password, database
 * and parameters), DATABASE_POOL_MODE=transaction, and the direct URL serves LISTEN
 * (DATABASE_LISTEN_URL) and the migrations the app runs at start (MIGRATION_DATABASE_URL),
 * unless the test set those itself. Any other environment is answered as it is, and so is
 * every environment without TEST_PGBOUNCER_URL. The tests' own connections stay direct.
 */
export function throughPooler(env: Record<string, string>): Record<string, string> {
  const pooler = process.env.TEST_PGBOUNCER_URL;
  const direct = env.DATABASE_URL;
  const runServer = process.env.TEST_PG_ADMIN_URL;
  if (!pooler || !direct || !runServer || serverOf(direct) !== serverOf(runServer)) return env;
  const via = new URL(direct);
  const p = new URL(pooler);
  via.hostname = p.hostname;
  via.port = p.port;
  return { DATABASE_POOL_MODE: 'transaction', DATABASE_LISTEN_URL: direct, MIGRATION_DATABASE_URL: direct, ...env, DATABASE_URL: via.toString() };
}

export interface RunningApp {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts `node dist/src/main.js` and waits until it prints the URL it listens on
 * (through PgBouncer when the run has one: throughPooler).
 */
export function startProcess(env: Record<string, string>, timeoutMs = 30000): Promise<RunningApp> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...throughPooler(env) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the app did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          proc,
          output: () => out,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (proc.exitCode !== null || proc.signalCode !== null) return done(proc.exitCode);
              proc.once('exit', (code) => done(code));
              proc.kill(signal);
            }),
        });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code} before listening:\n${out}`));
    });
  });
}

export interface TestApp {
  url: string;
  adminToken: string;
  /** The owner's connection (the tests' own queries). */
  dbUrl: string;
  /** The app's connection (DATABASE_URL): a login role in bgclub_app. */
  appDbUrl: string;
  http: () => ReturnType<typeof request>;
  sql: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
  app: RunningApp;
  close: () => Promise<void>;
}

/** The real app, in its own process, on its own database. */
export async function startApp(extraEnv: Record<string, string> = {}): Promise<TestApp> {
  const db = await cloneDatabase();
  const adminToken = `test-operator-${randomBytes(12).toString('hex')}`;
  const app = await startProcess({
    DATABASE_URL: db.appUrl,
    ADMIN_TOKEN: adminToken,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Suites send bursts of requests with one key, and the model-based suite creates a club
    // per run; the suites that test these limits turn them on.
    RATE_LIMIT: '0',
    OPERATOR_RATE_LIMIT: '0',
    ...extraEnv,
  });
  const client = new Client({ connectionString: db.url });
  await client.connect();
  return {
    url: app.url,
    adminToken,
    dbUrl: db.url,
    appDbUrl: db.appUrl,
    http: () => request(app.url),
    sql: async (text, params) => (await client.query(text, params as unknown[])).rows,
    app,
    close: async () => {
      await client.end().catch(() => undefined);
      await app.stop();
    },
  };
}

/** A second instance of the app on the same database and operator token (each with its own env). */
export function anotherInstance(t: TestApp, env: Record<string, string> = {}): Promise<RunningApp> {
  return startProcess({ DATABASE_URL: t.appDbUrl, ADMIN_TOKEN: t.adminToken, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
}

/** Creates a club through the API and answers its id and owner token. */
export async function newClub(t: TestApp, name = 'Test club', currency = 'USD'): Promise<{ clubId: string; owner: string }> {
  const res = await t.http().post('/v1/clubs').set('authorization', `Bearer ${t.adminToken}`).send({ name, currency });
  if (res.status !== 201) throw new Error(`club creation failed: ${res.status} ${res.text}`);
  return { clubId: res.body.club.id, owner: res.body.apiKey.token };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
