import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { appUrlFor, bearer, MAIN, newClub, startApp, startProcess, TestApp } from './support/app';
import { freePort } from './support/concurrency';

const ROOT = join(__dirname, '..');
/** The group role the migrations grant the app's privileges to. */
const GROUP = 'bgclub_app';
/** Tables whose rows, once written, are never changed or removed. */
const APPEND_ONLY = ['ledger_entries', 'payments', 'audit_log'];

async function connect(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  await c.connect();
  return c;
}

/** The PostgreSQL error code a statement fails with, or 'ok'. */
async function outcome(c: Client, sql: string): Promise<string> {
  try {
    await c.query(sql);
    return 'ok';
  } catch (e) {
    return String((e as { code?: string }).code);
  }
}

/** The login names of the app's own backends on a database, seen from an owner connection. */
async function appBackendUsers(owner: Client, database: string): Promise<string[]> {
  const rows = await owner.query(
    `SELECT DISTINCT usename FROM pg_stat_activity
      WHERE datname = $1 AND application_name = 'bg-club-scorekeeping' AND pid <> pg_backend_pid()`,
    [database],
  );
  return rows.rows.map((r) => r.usename as string).sort();
}

describe('the app connects as a role that cannot rewrite the books', () => {
  let t: TestApp;
  let owner: Client;
  let asApp: Client;
  let role: string;

  beforeAll(async () => {
    t = await startApp();
    owner = await connect(t.dbUrl);
    // Some traffic, so the pool holds connections (and the key cache listens).
    const c = await newClub(t);
    expect((await t.http().post('/v1/players').set(bearer(c.owner)).send({ name: 'Anna' })).status).toBe(201);
    const users = await appBackendUsers(owner, new URL(t.dbUrl).pathname.slice(1));
    expect(users).toHaveLength(1);
    role = users[0];
    asApp = await connect(t.appDbUrl);
    expect((await asApp.query('SELECT current_user AS u')).rows[0].u).toBe(role);
  });

  afterAll(async () => {
    await asApp?.end().catch(() => undefined);
    await owner?.end().catch(() => undefined);
    await t?.close();
  });

  it('is neither superuser nor replication, cannot bypass row security or create roles, and is a member of bgclub_app', async () => {
    const r = await owner.query(
      `SELECT rolsuper, rolreplication, rolbypassrls, rolcreaterole, rolcreatedb, pg_has_role(rolname, $2, 'MEMBER') AS member
         FROM pg_roles WHERE rolname = $1`,
      [role, GROUP],
    );
    expect(r.rows).toEqual([{ rolsuper: false, rolreplication: false, rolbypassrls: false, rolcreaterole: false, rolcreatedb: false, member: true }]);
  });

  it('cannot truncate, delete or update the ledger, the payments or the audit record (42501)', async () => {
    const refused: Record<string, string> = {};
    for (const table of APPEND_ONLY) {
      refused[`TRUNCATE ${table}`] = await outcome(asApp, `TRUNCATE ${table}`);
      refused[`DELETE FROM ${table}`] = await outcome(asApp, `DELETE FROM ${table}`);
      refused[`UPDATE ${table}`] = await outcome(asApp, `UPDATE ${table} SET created_at = now()`);
      refused[`ALTER TABLE ${table} DISABLE TRIGGER ALL`] = await outcome(asApp, `ALTER TABLE ${table} DISABLE TRIGGER ALL`);
    }
    const expected = Object.fromEntries(Object.keys(refused).map((k) => [k, '42501']));
    expect(refused).toEqual(expected);
  });

  it('cannot switch the append-only triggers off with session_replication_role (42501)', async () => {
    expect(await outcome(asApp, `SET session_replication_role = replica`)).toBe('42501');
    expect(await outcome(asApp, `SELECT set_config('session_replication_role', 'replica', false)`)).toBe('42501');
  });

  it('can still read and append what the app needs', async () => {
    expect(await outcome(asApp, 'SELECT count(*) FROM audit_log')).toBe('ok');
    expect(await outcome(asApp, 'SELECT bg_expect_rows(1, 1, $$check$$)')).toBe('ok');
  });

  it('grants come from the migrations: every table to bgclub_app, never TRUNCATE, no change to the append-only ones, none owned by the app', async () => {
    const rows = (
      await owner.query(
        `SELECT c.relname AS table,
                has_table_privilege($1, c.oid, 'SELECT') AS "select",
                has_table_privilege($1, c.oid, 'INSERT') AS "insert",
                has_table_privilege($1, c.oid, 'UPDATE') AS "update",
                has_table_privilege($1, c.oid, 'DELETE') AS "delete",
                has_table_privilege($1, c.oid, 'TRUNCATE') AS "truncate",
                has_table_privilege($1, c.oid, 'TRIGGER') AS "trigger",
                pg_has_role($2, c.relowner, 'MEMBER') AS owned
           FROM pg_class c
          WHERE c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace AND c.relname <> 'migrations'
          ORDER BY 1`,
        [GROUP, role],
      )
    ).rows;
    expect(rows.length).toBeGreaterThanOrEqual(16);
    for (const r of rows) {
      const appendOnly = APPEND_ONLY.includes(r.table);
      // The event log: appended to and purged after 30 days, never changed.
      const log = r.table === 'events';
      expect(r).toEqual({ table: r.table, select: true, insert: true, update: !appendOnly && !log, delete: !appendOnly, truncate: false, trigger: false, owned: false });
    }
  });
});

describe('starting with a privileged database role', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => t?.close());

  it('refuses to serve as the superuser/owner, naming the problem, unless ALLOW_PRIVILEGED_DATABASE_ROLE=1', async () => {
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: t.dbUrl, ADMIN_TOKEN: t.adminToken, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const r = spawnSync(process.execPath, [MAIN], { cwd: ROOT, env, encoding: 'utf8', timeout: 30000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refusing to serve: the database role "[^"]+" of DATABASE_URL is a superuser/);
    expect(r.stderr).toMatch(/may TRUNCATE, UPDATE or DELETE audit_log, ledger_entries, payments/);
    expect(r.stderr).toMatch(/ALLOW_PRIVILEGED_DATABASE_ROLE=1/);

    const allowed = await startProcess({ ...env, ALLOW_PRIVILEGED_DATABASE_ROLE: '1' });
    try {
      expect(allowed.output()).toMatch(/ALLOW_PRIVILEGED_DATABASE_ROLE=1/);
      expect((await request(allowed.url).get('/health')).status).toBe(200);
    } finally {
      await allowed.stop();
    }
  });
});

describe('MIGRATION_DATABASE_URL: the owner migrates, the app role serves', () => {
  /** An empty database of this run (dropped with the others at the end). */
  async function emptyDatabase(): Promise<{ owner: string; app: string; name: string }> {
    const name = `bgtest_${process.env.TEST_RUN_ID}_${randomBytes(5).toString('hex')}`;
    const admin = await connect(process.env.TEST_PG_ADMIN_URL!);
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const owner = new URL(process.env.TEST_PG_ADMIN_URL!);
    owner.pathname = `/${name}`;
    return { owner: owner.toString(), app: appUrlFor(owner.toString()), name };
  }

  it('applies the migrations as the owner and serves as the app role', async () => {
    const db = await emptyDatabase();
    const adminToken = `roles-operator-${randomBytes(8).toString('hex')}`;
    const app = await startProcess({ DATABASE_URL: db.app, MIGRATION_DATABASE_URL: db.owner, ADMIN_TOKEN: adminToken, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    const owner = await connect(db.owner);
    try {
      expect(app.output()).toMatch(/Applied migrations: /);
      const club = await request(app.url).post('/v1/clubs').set(bearer(adminToken)).send({ name: 'Two roles' });
      expect(club.status).toBe(201);
      const appUser = new URL(db.app).username;
      expect(await appBackendUsers(owner, db.name)).toEqual([appUser]);
      const tables = await owner.query(`SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = current_schema()`);
      expect(tables.rows.map((r) => r.tableowner)).toEqual([new URL(db.owner).username || 'postgres']);
    } finally {
      await owner.end();
      await app.stop();
    }
  });

  it('without it, an app role facing pending migrations refuses to start and says to set MIGRATION_DATABASE_URL', async () => {
    const db = await emptyDatabase();
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: db.app, ADMIN_TOKEN: 'roles-operator-token-1', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const r = spawnSync(process.execPath, [MAIN], { cwd: ROOT, env, encoding: 'utf8', timeout: 30000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/MIGRATION_DATABASE_URL/);
  });
});

describe('the embedded default', () => {
  it('migrates as the embedded superuser and serves as a login role of bgclub_app, its password kept under the data folder (0600)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bgclub-roles-'));
    const pgPort = await freePort();
    const app = await startProcess({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, 90000);
    let observer: Client | null = null;
    try {
      const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      expect((await request(app.url).post('/v1/clubs').set(bearer(token)).send({ name: 'Embedded roles' })).status).toBe(201);
      // pg_stat_activity and pg_roles are readable by any role: look as the app's login itself.
      const password = readFileSync(join(dataDir, 'db-app-password'), 'utf8').trim();
      observer = await connect(`postgres://bgclub_app_login:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/bgclub`);
      const users = await appBackendUsers(observer, 'bgclub');
      expect(users).toEqual(['bgclub_app_login']);
      const r = await observer.query(`SELECT rolsuper, rolreplication, rolbypassrls, pg_has_role(rolname, 'bgclub_app', 'MEMBER') AS member FROM pg_roles WHERE rolname = $1`, [users[0]]);
      expect(r.rows).toEqual([{ rolsuper: false, rolreplication: false, rolbypassrls: false, member: true }]);
      expect(statSync(join(dataDir, 'db-app-password')).mode & 0o777).toBe(0o600);
    } finally {
      await observer?.end().catch(() => undefined);
      await app.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
