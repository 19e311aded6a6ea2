import { createServer } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { bearer, RunningApp, startProcess } from './app';

/** Helpers for the race and fault suites: extra app instances, tagged connections, polling. */

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it answers something truthy; fails with `what` after `timeoutMs`. */
/**
 * How long a test waits for an event to show in the log. The log shows an event once every
 * older transaction of the whole server has ended (the visibility rule), and test files
 * share a server: another file's transaction held open (a lock test, a migration) can hold
 * the horizon back for some seconds on a busy machine. Latency, never loss.
 */
export const EVENT_VISIBLE_WITHIN_MS = 45_000;

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 10000, everyMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await sleep(everyMs);
  }
}

/**
 * The same database URL with an `application_name`, so that pg_stat_activity tells one
 * instance's backends from another's (node-pg lets the URL's parameters win over the
 * app's own `application_name`).
 */
export function tagged(url: string, applicationName: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', applicationName);
  return u.toString();
}

/** Another instance of the app (its own process) on an existing database. */
export function instance(dbUrl: string, adminToken: string, extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  return startProcess({
    DATABASE_URL: dbUrl,
    ADMIN_TOKEN: adminToken,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT: '0',
    ...extraEnv,
  });
}

/** A connected pg client that never crashes the test process when the server goes away. */
export async function pgClient(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

/** Short-hands for one API key against one app instance. */
export function as(baseUrl: string, token: string) {
  return {
    post: (path: string, body?: object, headers: Record<string, string> = {}) =>
      request(baseUrl)
        .post(path)
        .set(bearer(token))
        .set(headers)
        .send(body ?? {}),
    get: (path: string) => request(baseUrl).get(path).set(bearer(token)),
  };
}

/** A send that never rejects: the response, or the error that took its place. */
export async function settle<T>(p: PromiseLike<T>): Promise<{ res?: T; error?: Error }> {
  try {
    return { res: await p };
  } catch (e) {
    return { error: e as Error };
  }
}
