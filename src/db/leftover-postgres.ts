import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * A PostgreSQL left running in our data folder by an earlier run that ended without
 * stopping it (the app killed with SIGKILL, or orphaned): PostgreSQL itself would refuse
 * to start ("lock file postmaster.pid already exists"). Before starting, the folder's
 * lock file is read:
 * - no lock file, or its pid is gone: nothing to do (PostgreSQL ignores a stale lock);
 * - its pid is a live process that is no PostgreSQL at all (a pid reused after a
 *   reboot): the stale lock file is removed;
 * - a PostgreSQL of this folder whose parent is still a live Node process: another
 *   instance of the app uses it; it is left alone and the start is refused;
 * - otherwise it is a leftover: stopped with SIGINT (fast shutdown: open transactions
 *   roll back, a checkpoint is written), then SIGQUIT if it does not stop in time.
 */
export async function stopLeftoverPostgres(dir: string, log: (line: string) => void): Promise<void> {
  const lockFile = join(dir, 'postmaster.pid');
  let lock: string;
  try {
    lock = readFileSync(lockFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(lock.split('\n')[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !alive(pid)) return;
  const args = commandOf(pid);
  if (args === null) return; // cannot tell: PostgreSQL will say what it finds
  if (!args.some((a) => a.includes('postgres'))) {
    log(`Removing the stale lock file ${lockFile} (its pid ${pid} is now another program: ${args.join(' ').slice(0, 80)})`);
    unlinkSync(lockFile);
    return;
  }
  if (!isPostgresOf(args, dir)) return; // some PostgreSQL we cannot place: it will say why it refuses
  const parent = parentOf(pid);
  if (parent !== null && parent > 1 && isNode(parent)) {
    throw new Error(`the PostgreSQL in ${dir} (pid ${pid}) belongs to another running instance of the app (pid ${parent}); ` + 'stop that instance first, or give this one another DATA_DIR');
  }
  log(`A PostgreSQL (pid ${pid}) was left running in ${dir} by an earlier run; stopping it…`);
  signal(pid, 'SIGINT');
  if (await gone(pid, 30_000)) return;
  log(`The PostgreSQL left running (pid ${pid}) did not stop within 30 s; stopping it at once (SIGQUIT)…`);
  signal(pid, 'SIGQUIT');
  if (await gone(pid, 15_000)) return;
  throw new Error(`the PostgreSQL left running in ${dir} (pid ${pid}) does not stop; stop it by hand (pg_ctl stop -D ${dir})`);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/** Alive, and not a zombie waiting for its parent. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(pid);
  return stat === null || stat.state !== 'Z';
}

async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** A process's state letter and parent, from /proc/<pid>/stat (null once it is gone, or off Linux). */
export function procStat(pid: number): { state: string; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** The process's arguments (/proc on Linux, `ps` elsewhere), or null when they cannot be read. */
function commandOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
    } catch {
      return null;
    }
  }
}

function parentOf(pid: number): number | null {
  const stat = procStat(pid);
  if (stat) return stat.ppid;
  try {
    return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim()) || null;
  } catch {
    return null;
  }
}

function isNode(pid: number): boolean {
  const args = commandOf(pid);
  return args !== null && args.length > 0 && /^node/.test(basename(args[0]));
}

/** `postgres -D <dir> …`, the way the embedded server is started. */
function isPostgresOf(args: string[], dir: string): boolean {
  if (args.length === 0 || basename(args[0]) !== 'postgres') return false;
  const d = args.indexOf('-D');
  return d >= 0 && d + 1 < args.length && samePath(args[d + 1], dir);
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
