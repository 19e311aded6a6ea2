import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { cols, Row } from './decode';
import { quote, quoteIdentifier } from './sql';

/**
 * The group role the migrations grant the app's privileges to. The app logs in as a
 * member of it; the owner of the tables (who runs the migrations) stays out of request
 * traffic, so the app cannot TRUNCATE the books, change or delete a ledger entry, a
 * payment or an audit row, or switch their triggers off.
 */
export const APP_GROUP_ROLE = 'bgclub_app';
/** The login role the embedded default creates for the app. */
export const EMBEDDED_APP_LOGIN = 'bgclub_app_login';
/** Tables the app may only read and append to. */
export const APPEND_ONLY_TABLES = ['ledger_entries', 'payments', 'audit_log'];

/** `url` with another user and password (same server, database and parameters). */
export function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * Creates (or resets) a login role for the app, with no privilege of its own but its
 * membership in bgclub_app. Run as a role that may create roles (the owner of an
 * embedded server, or a test's administrator), after the migrations made bgclub_app.
 */
export async function ensureAppLogin(ownerUrl: string, login: string, password: string): Promise<void> {
  const c = new Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    const name = quoteIdentifier(login);
    const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT PASSWORD ${quote(password)}`;
    const found = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [login]);
    await c.query(found.rowCount === 0 ? `CREATE ROLE ${name} ${attributes}` : `ALTER ROLE ${name} ${attributes}`);
    await c.query(`GRANT ${APP_GROUP_ROLE} TO ${name}`);
  } finally {
    await c.end();
  }
}

/**
 * The embedded default: the app's login role with a password generated once and kept
 * in `<dataDir>/db-app-password` (0600), like the operator token. Answers the app's URL.
 */
export async function embeddedAppUrl(ownerUrl: string, dataDir: string): Promise<string> {
  const file = join(dataDir, 'db-app-password');
  let password: string;
  if (existsSync(file)) {
    password = readFileSync(file, 'utf8').trim();
  } else {
    mkdirSync(dataDir, { recursive: true });
    password = randomBytes(24).toString('base64url');
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
  }
  await ensureAppLogin(ownerUrl, EMBEDDED_APP_LOGIN, password);
  return withCredentials(ownerUrl, EMBEDDED_APP_LOGIN, password);
}

/**
 * What makes the role behind `url` unfit to serve requests: superuser, replication,
 * BYPASSRLS or CREATEROLE, ownership of (or TRUNCATE, UPDATE or DELETE on) an
 * append-only table. Empty when the role is what the app should run as.
 */
export async function appRoleProblems(url: string): Promise<{ role: string; problems: string[] }> {
  const c = new Client({ connectionString: url, application_name: 'bg-club-scorekeeping-check' });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT r.rolname, r.rolsuper, r.rolreplication, r.rolbypassrls, r.rolcreaterole,
              (SELECT coalesce(array_agg(t.relname::text ORDER BY t.relname), '{}'::text[])
                 FROM pg_class t
                WHERE t.relname = ANY($1) AND t.relnamespace = current_schema()::regnamespace
                  AND (pg_has_role(t.relowner, 'MEMBER') OR has_table_privilege(t.oid, 'TRUNCATE, UPDATE, DELETE'))) AS writable
         FROM pg_roles r WHERE r.rolname = current_user`,
      [APPEND_ONLY_TABLES],
    );
    const c0 = cols(rows[0] as Row);
    const r = {
      rolname: c0.text('rolname'),
      rolsuper: c0.bool('rolsuper'),
      rolreplication: c0.bool('rolreplication'),
      rolbypassrls: c0.bool('rolbypassrls'),
      rolcreaterole: c0.bool('rolcreaterole'),
      writable: c0.textArray('writable'),
    };
    const problems: string[] = [];
    if (r.rolsuper) problems.push('is a superuser');
    if (r.rolreplication) problems.push('has REPLICATION');
    if (r.rolbypassrls) problems.push('has BYPASSRLS');
    if (r.rolcreaterole) problems.push('has CREATEROLE');
    if (r.writable.length > 0) problems.push(`may TRUNCATE, UPDATE or DELETE ${r.writable.join(', ')} (or owns it)`);
    return { role: r.rolname, problems };
  } finally {
    await c.end();
  }
}

/**
 * Refuses (throws) when the app's role is privileged, unless the operator allowed it;
 * then answers the warning to print. Answers null when all is well.
 */
export async function checkAppRole(url: string, allowPrivileged: boolean, urlName: string): Promise<string | null> {
  const { role, problems } = await appRoleProblems(url);
  if (problems.length === 0) return null;
  const what = `the database role "${role}" of ${urlName} ${problems.join('; ')}`;
  if (allowPrivileged) return `Warning: ${what}; serving anyway (ALLOW_PRIVILEGED_DATABASE_ROLE=1).`;
  throw new Error(
    `refusing to serve: ${what}. Connect the app as a login role that is a member of ${APP_GROUP_ROLE} and nothing else, ` +
      `and give the owner's connection (which runs the migrations) in MIGRATION_DATABASE_URL (docs/operations.md: Database roles); ` +
      `or set ALLOW_PRIVILEGED_DATABASE_ROLE=1 to serve anyway.`,
  );
}

/** A migration failure explained: an app role cannot migrate, the owner must. */
export function explainMigrationFailure(e: unknown, ownerUrlGiven: boolean): Error {
  const code = (e as { code?: string; driverError?: { code?: string } }).code ?? (e as { driverError?: { code?: string } }).driverError?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === '42501' && !ownerUrlGiven) {
    return new Error(`the migrations could not run as DATABASE_URL's role (${message}). ` + `Set MIGRATION_DATABASE_URL to the owner's connection (docs/operations.md: Database roles).`);
  }
  return new Error(`the migrations failed: ${message}`);
}
