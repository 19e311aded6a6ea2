// Starting and stopping the real app (`node dist/src/main.js`) as a child process.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.mjs';
import { log, now, sleep, within } from './util.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = join(ROOT, 'dist', 'src', 'main.js');

/** How much of the app's output is kept for error messages. */
const OUTPUT_TAIL = 64 * 1024;

/**
 * @typedef {object} RunningApp
 * @property {string} url          e.g. `http://127.0.0.1:41234`
 * @property {number} pid          the app's (node) process id
 * @property {number} readySeconds from spawn to the first `GET /health` answering 200
 * @property {() => string} output the tail of the app's stdout and stderr
 * @property {() => Promise<void>} stop  SIGTERM, wait for exit (SIGKILL after a grace period)
 */

/**
 * Is a process with this id alive (and, when `name` is given, running a command
 * whose line contains it)?
 * @param {number} pid
 * @param {string} [name]
 */
function alive(pid, name) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!name) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name);
  } catch {
    return false;
  }
}

/** Sends a signal to a process group; false when the group is gone. */
export function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Is any process of the group still alive? */
export const groupAlive = (pgid) => signalGroup(pgid, 0);

/**
 * After the app has gone: if its embedded PostgreSQL is still up (the app was
 * killed before it could stop it), stop that server by the pid in its
 * postmaster.pid, fast shutdown first.
 * @param {string} pgDir  the cluster directory (`DATA_DIR/pg`)
 */
async function stopStrayPostgres(pgDir) {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid, 'postgres')) return;
  log(`the embedded PostgreSQL (pid ${pid}) outlived the app: stopping it`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 150 && alive(pid, 'postgres'); i++) await sleep(100);
  if (alive(pid, 'postgres')) process.kill(pid, 'SIGKILL');
}

/**
 * `GET /health` once; resolves to the status code, or 0 when nothing answers.
 * @param {string} url
 * @returns {Promise<number>}
 */
function healthStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(`${url}/health`, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/**
 * Spawns the app and waits until `GET /health` answers 200. The app gets only
 * PATH, HOME and `env` (PORT=0 and HOST=127.0.0.1 unless given); its URL is read
 * from its "listening on" line. It runs in its own process group so that a
 * Ctrl-C at the terminal reaches only the benchmark, which then stops the app
 * in order. Stopping is registered for cleanup at once.
 * @param {object} opts
 * @param {Record<string, string>} opts.env   DATABASE_URL / DATA_DIR, ADMIN_TOKEN, LOG_LEVEL…
 * @param {string} [opts.dataDir]            the DATA_DIR, when the app runs embedded PostgreSQL
 * @param {string} [opts.label]              for progress messages
 * @param {number} [opts.timeoutMs]
 * @param {boolean} [opts.npmStart]          run `npm start` (its build check included) instead of node itself
 * @returns {Promise<RunningApp>}
 */
export async function startApp({ env, dataDir, label = 'app', timeoutMs = 120_000, npmStart = false }) {
  let out = '';
  const spawnedAt = now();
  // BENCH_NODE_ARGS: extra Node flags for the app, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The same V8 flag as `npm start` (package.json): a smaller young generation keeps the
  // resident memory near 150 MB under load at no cost in throughput.
  const [command, args] = npmStart ? [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start', '--silent']] : [process.execPath, ['--max-semi-space-size=8', ...nodeArgs, MAIN]];
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  /** @type {number | null} */
  let exitCode = null;
  let exited = false;
  const exit = new Promise((resolve) => {
    proc.once('exit', (code, signal) => {
      exited = true;
      exitCode = code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : null);
      resolve(undefined);
    });
  });
  // Always drain both pipes: a child blocked on a full pipe would stall the benchmark.
  const keep = (/** @type {Buffer} */ chunk) => {
    out += chunk.toString();
    if (out.length > OUTPUT_TAIL) out = out.slice(-OUTPUT_TAIL);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);

  const pid = /** @type {number} */ (proc.pid);
  /** Set once an error carrying the app's output has been thrown, so it is not shown twice. */
  let outputShown = false;
  const stop = onCleanup(`stop ${label} (pid ${pid})`, async () => {
    const crashed = exited && !outputShown;
    if (!exited) {
      // npm start: the whole group (npm, its shell and the app) gets the signal.
      if (npmStart) signalGroup(pid, 'SIGTERM');
      else proc.kill('SIGTERM');
      if (!(await within(exit, 30_000))) {
        log(`${label} (pid ${pid}) did not stop within 30 s of SIGTERM: killing its process group`);
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await within(exit, 5_000);
      }
    }
    // npm may exit before the app has finished stopping: wait for the whole group.
    if (npmStart) {
      for (let i = 0; i < 300 && groupAlive(pid); i++) await sleep(100);
      if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
    }
    if (crashed) log(`${label} had exited by itself (status ${exitCode}); its last output:\n${out.slice(-4000)}`);
    else if (exitCode !== 0 && !outputShown && !npmStart) log(`${label} exited with status ${exitCode} on SIGTERM (main.ts's own handler would exit 0)`);
    if (dataDir) await stopStrayPostgres(join(dataDir, 'pg'));
  });

  try {
    const deadline = spawnedAt + timeoutMs;
    let url = null;
    while (url === null) {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) url = m[1];
      else if (exited) throw new Error(`${label} exited with ${exitCode} before listening:\n${out}`);
      else if (now() > deadline) throw new Error(`${label} did not listen within ${timeoutMs} ms:\n${out}`);
      else await sleep(10);
    }
    while ((await healthStatus(url)) !== 200) {
      if (exited) throw new Error(`${label} exited with ${exitCode} before it was healthy:\n${out}`);
      if (now() > deadline) throw new Error(`${label} was not healthy within ${timeoutMs} ms:\n${out}`);
      await sleep(10);
    }
    const readySeconds = (now() - spawnedAt) / 1000;
    return { url, pid, readySeconds, output: () => out, stop };
  } catch (e) {
    outputShown = true;
    await stop();
    throw e;
  }
}

/**
 * The resident memory of a process in MiB (VmRSS), or NaN when it cannot be read.
 * @param {number} pid
 */
export function rssMiB(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Samples a process's VmRSS every `everyMs` until stopped; answers the maximum.
 * @param {number} pid
 * @param {number} [everyMs=200]
 * @returns {{ stop: () => number }}
 */
export function sampleRss(pid, everyMs = 200) {
  let max = NaN;
  const sample = () => {
    const v = rssMiB(pid);
    // NaN (unreadable) never wins; anything beats a NaN maximum.
    if (!Number.isNaN(v) && !(v <= max)) max = v;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return max;
    },
  };
}
