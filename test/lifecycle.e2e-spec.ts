import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { MAIN, RunningApp, startProcess } from './support/app';
import { freePort } from './support/concurrency';

// Starting and stopping the app on its embedded PostgreSQL, the way an operator or a
// supervisor does it: folders that do not exist yet, a crash (SIGKILL), SIGTERM sent to
// `npm start`, a second start on a folder in use, and a start that cannot succeed.

const ROOT = join(__dirname, '..');

/** Alive and not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Pids of the PostgreSQL processes started with `-D <pgDir>` (the server and its workers' parent). */
function postgresOf(pgDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const d = args.indexOf('-D');
      if (d >= 0 && args[d + 1] === pgDir && /postgres$/.test(args[0]) && alive(Number(entry))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

function exited(proc: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve({ code: proc.exitCode, signal: proc.signalCode });
    proc.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Runs the app to its end (a start expected to fail), with everything it printed. */
function runToEnd(env: Record<string, string>, timeoutMs = 90000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`still running after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    proc.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** `npm start` itself, in the repository, until it prints the URL it listens on. */
function npmStart(env: Record<string, string>, detached = false, timeoutMs = 120000): Promise<{ proc: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn('npm', ['start'], {
      cwd: ROOT,
      detached,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', npm_config_update_notifier: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`npm start did not listen within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1], output: () => out });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before listening:\n${out}`));
    });
  });
}

/** The postmaster of a data folder, from its lock file. */
const postmasterOf = (pgDir: string) => Number(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('starting and stopping on the embedded PostgreSQL', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanup.splice(0)) c();
  });
  /** A temporary base folder; anything still running in it is killed after the test. */
  const tempBase = () => {
    const base = mkdtempSync(join(tmpdir(), 'bgclub-life-'));
    cleanup.push(() => {
      for (const pid of postgresOf(join(base, 'data', 'pg')).concat(postgresOf(join(base, 'a', 'b', 'data', 'pg')))) {
        try {
          process.kill(pid, 'SIGQUIT');
        } catch {
          // already gone
        }
      }
      rmSync(base, { recursive: true, force: true });
    });
    return base;
  };
  const env = (dataDir: string, pgPort: number, extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  });
  const running: RunningApp[] = [];
  afterEach(async () => {
    for (const a of running.splice(0)) await a.stop('SIGTERM');
  });

  it('creates a data folder that does not exist yet (nested) when ADMIN_TOKEN is given, and a second start on that folder is refused without harming the first', async () => {
    const dataDir = join(tempBase(), 'a', 'b', 'data');
    const pgDir = join(dataDir, 'pg');
    const operator = 'operator-token-given-in-the-environment';
    const app = await startProcess(env(dataDir, await freePort(), { ADMIN_TOKEN: operator }), 90000);
    running.push(app);
    expect((await request(app.url).get('/health')).body).toEqual({ status: 'ok', database: 'up' });
    expect((await request(app.url).post('/v1/clubs').set('authorization', `Bearer ${operator}`).send({ name: 'Nested' })).status).toBe(201);
    // A token given in the environment is never printed, and no file is made for it.
    expect(app.output()).not.toContain(operator);
    expect(existsSync(join(dataDir, 'admin-token'))).toBe(false);

    // Another start on the same folder: its PostgreSQL belongs to a live instance, so it is left alone.
    const postmaster = postmasterOf(pgDir);
    const second = await runToEnd(env(dataDir, await freePort(), { ADMIN_TOKEN: operator }));
    expect(second.code).toBe(1);
    const failure = /^Failed to start: ([\s\S]*)$/m.exec(second.out);
    expect(failure).not.toBeNull();
    expect(failure![1]).toContain(String(app.proc.pid));
    expect(failure![1]).not.toMatch(/undefined/);
    expect(alive(postmaster)).toBe(true);
    expect(postmasterOf(pgDir)).toBe(postmaster);
    expect((await request(app.url).get('/health')).body).toEqual({ status: 'ok', database: 'up' });

    // A signal repeated while shutting down (a supervisor and npm both sending it) changes nothing.
    const stopped = exited(app.proc);
    app.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 50));
    app.proc.kill('SIGTERM');
    expect(await stopped).toEqual({ code: 0, signal: null });
    expect(postgresOf(pgDir)).toEqual([]);
  });

  it('after the app is killed with SIGKILL, the next start stops the PostgreSQL left running, starts, and the data is still there', async () => {
    const dataDir = join(tempBase(), 'data');
    const pgDir = join(dataDir, 'pg');
    const pgPort = await freePort();
    const first = await startProcess(env(dataDir, pgPort), 90000);
    running.push(first);
    const operator = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const club = await request(first.url).post('/v1/clubs').set('authorization', `Bearer ${operator}`).send({ name: 'Survivors' });
    expect(club.status).toBe(201);

    first.proc.kill('SIGKILL');
    await exited(first.proc);
    const leftover = postmasterOf(pgDir);
    expect(alive(leftover)).toBe(true);
    expect(postgresOf(pgDir)).toContain(leftover);

    const again = await startProcess(env(dataDir, pgPort), 90000);
    running.push(again);
    expect(alive(leftover)).toBe(false);
    expect((await request(again.url).get('/health')).body).toEqual({ status: 'ok', database: 'up' });
    const read = await request(again.url).get('/v1/club').set('authorization', `Bearer ${club.body.apiKey.token}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Survivors');

    expect(await again.stop('SIGTERM')).toBe(0);
    expect(postgresOf(pgDir)).toEqual([]);
  });

  it('SIGTERM sent to the `npm start` process stops the app and its PostgreSQL, promptly; so does the death of npm itself', async () => {
    const dataDir = join(tempBase(), 'data');
    const pgDir = join(dataDir, 'pg');
    const pgPort = await freePort();

    const npm = await npmStart(env(dataDir, pgPort));
    cleanup.unshift(() => npm.proc.kill('SIGKILL'));
    expect((await request(npm.url).get('/health')).status).toBe(200);
    const postmaster = postmasterOf(pgDir);
    const app = parentOf(postmaster);
    cleanup.unshift(() => alive(app) && process.kill(app, 'SIGKILL'));
    expect(app).not.toBe(process.pid);
    const sent = Date.now();
    npm.proc.kill('SIGTERM');
    const end = await exited(npm.proc);
    expect(Date.now() - sent).toBeLessThan(15000);
    expect(end.code).toBe(0);
    expect(await until(() => !alive(app) && !alive(postmaster), 2000)).toBe(true);
    expect(postgresOf(pgDir)).toEqual([]);
    // The app closed its connections before stopping PostgreSQL: no session was cut.
    expect(npm.output()).not.toMatch(/FATAL/);

    // A supervisor that kills npm outright: the app notices it is orphaned and stops too.
    const npm2 = await npmStart(env(dataDir, pgPort));
    cleanup.unshift(() => npm2.proc.kill('SIGKILL'));
    const postmaster2 = postmasterOf(pgDir);
    const app2 = parentOf(postmaster2);
    cleanup.unshift(() => alive(app2) && process.kill(app2, 'SIGKILL'));
    npm2.proc.kill('SIGKILL');
    await exited(npm2.proc);
    expect(await until(() => !alive(app2) && !alive(postmaster2), 15000)).toBe(true);
    expect(postgresOf(pgDir)).toEqual([]);

    // A supervisor that signals the whole process group (SIGTERM), and Ctrl-C in a terminal
    // (SIGINT to the foreground group): npm and the app get it, the app twice (npm forwards
    // it), PostgreSQL not at all (a group of its own): still one clean stop, in which
    // PostgreSQL terminates no session (no FATAL line) because the app closed them first.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const npm3 = await npmStart(env(dataDir, pgPort), true);
      cleanup.unshift(() => alive(npm3.proc.pid!) && process.kill(-npm3.proc.pid!, 'SIGKILL'));
      const postmaster3 = postmasterOf(pgDir);
      const app3 = parentOf(postmaster3);
      // Connections in use: the pool's, the LISTEN connection (API key cache) and the rate limiter's.
      const operator = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      expect((await request(npm3.url).post('/v1/clubs').set('authorization', `Bearer ${operator}`).send({ name: 'Clean stop' })).status).toBe(201);
      process.kill(-npm3.proc.pid!, signal);
      const end3 = await exited(npm3.proc);
      expect(end3.code).toBe(0);
      expect(await until(() => !alive(app3) && !alive(postmaster3), 2000)).toBe(true);
      expect(npm3.output()).toMatch(new RegExp(`${signal}: shutting down`));
      expect(npm3.output()).not.toMatch(/FATAL/);
      expect(postgresOf(pgDir)).toEqual([]);
    }
  });

  it('a start that fails says why (the PostgreSQL port is taken), never "undefined"', async () => {
    const dataDir = join(tempBase(), 'data');
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    cleanup.push(() => taken.close());
    const pgPort = (taken.address() as { port: number }).port;
    const r = await runToEnd(env(dataDir, pgPort));
    expect(r.code).toBe(1);
    const failure = /^Failed to start: ([\s\S]*)$/m.exec(r.out);
    expect(failure).not.toBeNull();
    expect(failure![1]).not.toMatch(/undefined/);
    expect(failure![1]).toMatch(/Address already in use/);
    expect(postgresOf(join(dataDir, 'pg'))).toEqual([]);
  });

  it('a start that fails after its PostgreSQL is up (the HTTP port is taken) stops that PostgreSQL before exiting', async () => {
    const dataDir = join(tempBase(), 'data');
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    cleanup.push(() => taken.close());
    const httpPort = (taken.address() as { port: number }).port;
    const r = await runToEnd(env(dataDir, await freePort(), { PORT: String(httpPort) }));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Failed to start: .*EADDRINUSE/m);
    // The database had started (it migrated) and is gone with the app.
    expect(r.out).toMatch(/Applied migrations/);
    expect(postgresOf(join(dataDir, 'pg'))).toEqual([]);
  });
});
