import http from 'node:http';
import { AddressInfo } from 'node:net';
import { sendWebhook } from '../../src/webhooks/sender';

/** A local server answering each request with `handle`, recording what came. */
async function server(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Array<{ host: string | undefined; path: string | undefined; body: string }> = [];
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ host: req.headers.host, path: req.url, body });
      handle(req, res);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

const base = { headers: { 'content-type': 'application/json' }, body: '{"id":"1"}', allowPrivate: true };

describe('sending a webhook', () => {
  it('delivers on 2xx without reading the body, and sends to the address it checked with the name in Host', async () => {
    const s = await server((_req, res) => res.writeHead(204).end());
    try {
      const lookups: string[] = [];
      const resolve = (name: string) => {
        lookups.push(name);
        return Promise.resolve(['127.0.0.1']);
      };
      const r = await sendWebhook({ ...base, url: `http://receiver.example:${s.port}/in?x=1`, resolve });
      expect(r).toEqual({ outcome: 'delivered', responseStatus: 204, error: null });
      expect(lookups).toEqual(['receiver.example']);
      expect(s.seen).toEqual([{ host: `receiver.example:${s.port}`, path: '/in?x=1', body: '{"id":"1"}' }]);
    } finally {
      await s.close();
    }
  });

  it('refuses a private address unless allowed, whether given as an address or resolved from a name', async () => {
    const s = await server((_req, res) => res.writeHead(200).end());
    try {
      const direct = await sendWebhook({ ...base, url: `http://127.0.0.1:${s.port}/`, allowPrivate: false });
      expect(direct).toEqual({ outcome: 'failed', responseStatus: null, error: 'refused: 127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE is off)' });
      const named = await sendWebhook({ ...base, url: `http://rebound.example:${s.port}/`, allowPrivate: false, resolve: () => Promise.resolve(['93.184.216.34', '10.0.0.8']) });
      expect(named.error).toBe('refused: rebound.example resolves to 10.0.0.8, a private address (WEBHOOK_ALLOW_PRIVATE is off)');
      expect(s.seen).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('keeps at most 4 KiB of a refusing answer, on one line, and 500 characters of it in the error', async () => {
    const s = await server((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`oops\n${'y'.repeat(1024 * 1024)}`);
    });
    try {
      const r = await sendWebhook({ ...base, url: `http://127.0.0.1:${s.port}/` });
      expect(r.outcome).toBe('failed');
      expect(r.responseStatus).toBe(500);
      expect(r.error!.startsWith('HTTP 500: oops yyy')).toBe(true);
      expect(r.error!.length).toBeLessThanOrEqual(500);
    } finally {
      await s.close();
    }
  });

  it('does not follow redirects, marks 410 as gone, and gives up on a silent receiver at the deadline', async () => {
    const s = await server((req, res) => {
      if (req.url === '/moved') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      else if (req.url === '/gone') res.writeHead(410).end();
      // '/silent' is never answered.
    });
    try {
      expect(await sendWebhook({ ...base, url: `http://127.0.0.1:${s.port}/moved` })).toEqual({ outcome: 'failed', responseStatus: 302, error: 'HTTP 302' });
      expect(await sendWebhook({ ...base, url: `http://127.0.0.1:${s.port}/gone` })).toEqual({ outcome: 'gone', responseStatus: 410, error: 'HTTP 410 Gone: the subscription is disabled' });
      const started = Date.now();
      const silent = await sendWebhook({ ...base, url: `http://127.0.0.1:${s.port}/silent`, timeoutMs: 300 });
      expect(silent).toEqual({ outcome: 'failed', responseStatus: null, error: 'no answer within 0.3 s' });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(s.seen.map((x) => x.path)).toEqual(['/moved', '/gone', '/silent']);
    } finally {
      await s.close();
    }
  });

  it('tries the next address when one refuses the connection, and is abandoned when the instance stops', async () => {
    const s = await server((req, res) => (req.url === '/ok' ? res.writeHead(200).end() : undefined));
    const closed = await server(() => undefined);
    await closed.close();
    try {
      const refused = await sendWebhook({ ...base, url: `http://127.0.0.1:${closed.port}/` });
      expect(refused).toEqual({ outcome: 'failed', responseStatus: null, error: `connection refused by 127.0.0.1:${closed.port}` });
      // Nothing listens on 127.0.0.2 (the server is bound to 127.0.0.1): the second address answers.
      const next = await sendWebhook({ ...base, url: `http://two.example:${s.port}/ok`, resolve: () => Promise.resolve(['127.0.0.2', '127.0.0.1']) });
      expect(next).toEqual({ outcome: 'delivered', responseStatus: 200, error: null });
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const abandoned = await sendWebhook({ ...base, url: `http://127.0.0.1:${s.port}/`, signal: stop.signal });
      expect(abandoned).toEqual({ outcome: 'failed', responseStatus: null, error: 'abandoned: the instance stopped before the answer came' });
    } finally {
      await s.close();
    }
  });
});
