// Runs PgBouncer in transaction pooling mode in front of a PostgreSQL server, for the
// e2e suites' pass behind a connection pooler (Debian's `pgbouncer`, 1.18 on bookworm).
//
// Usage:
//   node test/support/pgbouncer.mjs [--server URL] -- <command> [args...]
//     starts PgBouncer, runs the command with TEST_PGBOUNCER_URL=postgres://127.0.0.1:<port>
//     and DATABASE_URL=the server (the run's own connection) in its environment, stops PgBouncer
//     and exits with the command's status.
//   node test/support/pgbouncer.mjs [--server URL]
//     starts PgBouncer, prints TEST_PGBOUNCER_URL=..., and runs until SIGINT or SIGTERM.
//
// The server is --server, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
// PgBouncer checks each client's password with its auth_query, run as that URL's user (who
// must be able to read pg_shadow, e.g. the superuser), so any login role of the server gets
// through with its own password and nothing has to be written down per role.
// PgBouncer refuses to run as root: as root it is started with `-u postgres` (PGBOUNCER_USER
// to choose another user). PGBOUNCER names the binary when it is not on PATH nor /usr/sbin.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const log = (line) => process.stderr.write(`[pgbouncer] ${line}\n`);

function parseArgs(argv) {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  for (let i = 0; i < own.length; i++) {
    if (own[i] === '--server' && own[i + 1]) server = own[++i];
    else throw new Error(`unknown argument ${own[i]} (usage: pgbouncer.mjs [--server URL] [-- command args...])`);
  }
  return { server, command };
}

function findBinary() {
  if (process.env.PGBOUNCER) return process.env.PGBOUNCER;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  const found = dirs
    .filter(Boolean)
    .map((d) => join(d, 'pgbouncer'))
    .find((p) => existsSync(p));
  if (!found) throw new Error('pgbouncer is not installed (Debian: apt-get install -y pgbouncer)');
  return found;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const accepts = (port) =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** The uid and gid of `user` (PgBouncer's files must be its own once it drops root). */
function idsOf(user) {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`PgBouncer refuses to run as root, and there is no user "${user}" to run it as (set PGBOUNCER_USER)`);
  }
}

/** A double-quoted value of PgBouncer's auth_file. */
const quoted = (s) => `"${s.replace(/"/g, '""')}"`;

function iniFor({ dir, port, host, serverPort, authUser }) {
  return `;; Written by test/support/pgbouncer.mjs for one test run.
[databases]
;; Every database name goes to the same server, under the client's own user name.
* = host=${host} port=${serverPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
;; A server connection belongs to a client for one transaction only: no prepared statement,
;; SET or LISTEN survives from one transaction of a client to its next.
pool_mode = transaction
;; md5 here means "check the password": a SCRAM secret (what auth_query answers for a role
;; whose password was set under password_encryption = scram-sha-256) is checked with SCRAM.
auth_type = md5
auth_file = ${join(dir, 'userlist.txt')}
auth_user = ${authUser}
auth_query = SELECT usename, passwd FROM pg_shadow WHERE usename=$1
;; Startup parameters PgBouncer does not track are refused unless listed here.
ignore_startup_parameters = extra_float_digits
max_client_conn = 400
default_pool_size = 20
;; An idle server connection keeps the application_name of the last client it served:
;; closing idle ones soon lets pg_stat_activity forget an instance that went away, as it
;; does without a pooler.
server_idle_timeout = 3
`;
}

async function start(serverUrl) {
  const binary = findBinary();
  const server = new URL(serverUrl);
  const authUser = decodeURIComponent(server.username) || process.env.PGUSER || 'postgres';
  const authPassword = decodeURIComponent(server.password);
  const host = server.hostname || '127.0.0.1';
  const serverPort = Number(server.port || 5432);
  const asRoot = process.getuid?.() === 0;
  const runAs = asRoot ? (process.env.PGBOUNCER_USER ?? 'postgres') : null;
  const owner = runAs ? idsOf(runAs) : null;
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0];

  const dir = mkdtempSync(join(tmpdir(), 'bgclub-pgbouncer-'));
  starting.dir = dir;
  const logFile = join(dir, 'pgbouncer.log');
  // The auth user's own password (if the server asks for one); every other role is looked up.
  writeFileSync(join(dir, 'userlist.txt'), authPassword ? `${quoted(authUser)} ${quoted(authPassword)}\n` : '', { mode: 0o600 });
  writeFileSync(logFile, '');

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const ini = join(dir, 'pgbouncer.ini');
    writeFileSync(ini, iniFor({ dir, port, host, serverPort, authUser }));
    if (owner) for (const f of [dir, ini, join(dir, 'userlist.txt')]) chownSync(f, owner.uid, owner.gid);

    // In the foreground, logging to stderr (kept in the temp dir's pgbouncer.log).
    const proc = spawn(binary, runAs ? ['-u', runAs, ini] : [ini], { stdio: ['ignore', 'ignore', 'pipe'] });
    starting.proc = proc;
    proc.stderr.on('data', (b) => appendFileSync(logFile, b));
    let exited = null;
    proc.once('exit', (code, signal) => (exited = code ?? signal));

    const until = Date.now() + 10000;
    while (exited === null && Date.now() < until && !(await accepts(port))) await new Promise((r) => setTimeout(r, 50));
    if (exited === null && (await accepts(port))) {
      const url = `postgres://127.0.0.1:${port}`;
      log(`${version} on ${url}, transaction pooling, in front of ${host}:${serverPort} (auth_query as ${authUser}; files in ${dir})`);
      return {
        url,
        dir,
        logTail: (n = 40) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-n).join('\n'),
        stop: async () => {
          if (exited === null) {
            const gone = new Promise((r) => proc.once('exit', r));
            proc.kill('SIGTERM'); // PgBouncer's immediate shutdown
            const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
            await gone;
            clearTimeout(timer);
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    if (exited === null) proc.kill('SIGKILL');
    const output = readFileSync(logFile, 'utf8');
    // Another process may have taken the free port in between: try another one.
    if (attempt < 5 && /Address already in use/i.test(output)) continue;
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`PgBouncer did not start (${exited === null ? 'no connection accepted within 10 s' : `exited with ${exited}`}):\n${output}`);
  }
}

/** What a signal arriving while PgBouncer starts must clean up. */
const starting = { proc: null, dir: null };
const startingStopped = (signal) => {
  starting.proc?.kill('SIGKILL');
  if (starting.dir) rmSync(starting.dir, { recursive: true, force: true });
  process.exit(128 + constants.signals[signal]);
};
process.on('SIGINT', startingStopped);
process.on('SIGTERM', startingStopped);

const { server, command } = parseArgs(process.argv.slice(2));
const bouncer = await start(server);
process.off('SIGINT', startingStopped);
process.off('SIGTERM', startingStopped);

if (command.length === 0) {
  process.stdout.write(`TEST_PGBOUNCER_URL=${bouncer.url}\n`);
  const stop = () => void bouncer.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: server, TEST_PGBOUNCER_URL: bouncer.url },
  });
  // A signal to this wrapper goes to the command; PgBouncer stops once the command has.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const status = await new Promise((resolve) => {
    child.once('error', (e) => {
      log(`could not run ${command[0]}: ${e.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
  if (status !== 0) log(`the command exited with ${status}; PgBouncer's log ends with:\n${bouncer.logTail()}`);
  await bouncer.stop();
  process.exit(status);
}
