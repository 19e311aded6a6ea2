import { EVENT_VISIBLE_WITHIN_MS } from './concurrency';
import http, { IncomingHttpHeaders } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The event JSON. */
  json: { id: string; type: string; occurredAt: string; sessionId: string | null; subject: { kind: string; id: string }; data: unknown };
  webhookId: string;
  attempt: number;
  /** Whether the signature verified with the path's secret (Webhook.verify); null: no secret known for the path. */
  verified: boolean | null;
  /** The status answered. */
  status: number;
}

/** How a path answers: the status for this request (its number among the path's requests, from 1); 0 for none. */
export type Answer = (r: Omit<Received, 'status'>, n: number) => number;

/**
 * A webhook receiver on 127.0.0.1 for the tests: every request is recorded, its signature
 * verified with `standardwebhooks` against the secret registered for its path, and
 * answered by the path's rule (200 unless told otherwise).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets.get(path);
      let verified: boolean | null = null;
      if (secret !== undefined) {
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const r = {
        path,
        headers: req.headers,
        body,
        json: JSON.parse(body) as Received['json'],
        webhookId: String(req.headers['webhook-id']),
        attempt: Number(req.headers['webhook-attempt']),
        verified,
      };
      const status = (answers.get(path) ?? (() => 200))(r, n);
      received.push({ ...r, status });
      // 0: no answer at all (the connection stays open until the receiver closes).
      if (status === 0) return;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status >= 300 ? `refused by the test receiver (${status})` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    /** The requests to one path, in the order they came. */
    at: (path: string) => received.filter((r) => r.path === path),
    /** Registers the secret a path's signatures are verified with, and how it answers. */
    expect: (path: string, secret: string, answer?: Answer) => {
      secrets.set(path, secret);
      if (answer) answers.set(path, answer);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` answers true (polled every 50 ms), or fails after `timeoutMs` saying what it waited for. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = EVENT_VISIBLE_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
