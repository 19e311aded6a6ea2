import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const SCRIPT = join(__dirname, 'pg-server.mjs');

/** An embedded PostgreSQL of the test's own, which the test may stop and start again. */
export interface OwnPostgres {
  url: (database?: string) => string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops the server and ends its controlling process; safe to call twice. */
  close: () => Promise<void>;
  /** The server's log so far (for failure messages). */
  log: () => string;
}

/**
 * Starts `startEmbeddedPostgres(dir, port)` in a child process (pg-server.mjs: the package
 * is ESM only, which Jest cannot load here) and drives it over stdin/stdout.
 */
export function ownPostgres(dir: string, port: number, timeoutMs = 60000): Promise<OwnPostgres> {
  return new Promise((resolve, reject) => {
    const proc: ChildProcess = spawn(process.execPath, [SCRIPT, dir, String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let log = '';
    proc.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    const waiting: Array<{ cmd: string; done: (e?: Error) => void }> = [];
    let base: string | null = null;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the embedded PostgreSQL did not start within ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);

    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      const e = new Error(`pg-server exited (${code ?? signal}):\n${log}`);
      if (base === null) reject(e);
      for (const w of waiting.splice(0)) w.done(e);
    });
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { ready?: string; done?: string; failed?: string; error?: string };
      if (msg.ready) {
        clearTimeout(timer);
        base = msg.ready;
        const send = (cmd: string) =>
          new Promise<void>((ok, fail) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return cmd === 'exit' ? ok() : fail(new Error('pg-server is gone'));
            waiting.push({ cmd, done: (e) => (e && cmd !== 'exit' ? fail(e) : ok()) });
            proc.stdin!.write(`${cmd}\n`);
          });
        resolve({
          url: (database = 'postgres') => {
            const u = new URL(base!);
            u.pathname = `/${database}`;
            return u.toString();
          },
          stop: () => send('stop'),
          start: () => send('start'),
          close: async () => {
            await send('exit');
            if (proc.exitCode === null && proc.signalCode === null) await new Promise((r) => proc.once('exit', r));
          },
          log: () => log,
        });
        return;
      }
      const w = waiting.shift();
      if (!w) return;
      if (msg.failed) w.done(new Error(`${msg.failed} failed: ${msg.error}\n${log}`));
      else w.done();
    });
  });
}
