// The consumers of the event log that the `record_game_with_events` figure attaches:
// one live stream client (GET /v1/events/stream) and one webhook subscription whose
// receiver, on 127.0.0.1, answers 204 at once. Both count what they get, so the figure
// can show they really kept up.

import http from 'node:http';
import { expectOk } from './api.mjs';
import { onSseFrames } from './http.mjs';
import { log } from './util.mjs';

/**
 * Opens a stream as `token` and counts the events it reads (parsed frame by frame).
 * @param {string} baseUrl
 * @param {string} token
 */
function openStream(baseUrl, token) {
  const u = new URL('/v1/events/stream', baseUrl);
  let events = 0;
  let closed = false;
  const req = http.get(u, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } });
  const opened = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`the event stream answered ${res.statusCode}`));
        res.resume();
        return;
      }
      onSseFrames(res, (frame) => {
        if (/^id: /m.test(frame)) events++;
      });
      res.on('end', () => {
        if (!closed) log('the event stream ended before the figure did');
      });
      resolve(undefined);
    });
    req.on('error', (e) => {
      if (!closed) reject(e);
    });
  });
  return {
    opened,
    get events() {
      return events;
    },
    close() {
      closed = true;
      req.destroy();
    },
  };
}

/**
 * A webhook receiver on 127.0.0.1 that answers 204 to every POST and counts them.
 * @returns {Promise<{ url: string, received: () => number, close: () => Promise<void> }>}
 */
async function startReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * Attaches one stream client and one webhook subscription to the club of `api` (its
 * owner key). The app must run with WEBHOOK_ALLOW_PRIVATE=true (the receiver is local).
 * @param {import('./api.mjs').Api} api
 * @param {string} baseUrl
 */
export async function attachConsumers(api, baseUrl) {
  const receiver = await startReceiver();
  const hook = await api.post('/v1/webhooks', { url: receiver.url, description: 'benchmark receiver' });
  const viewer = (await api.post('/v1/api-keys', { name: 'Benchmark screen', role: 'viewer' })).token;
  const stream = openStream(baseUrl, viewer);
  await stream.opened;
  return {
    streamed: () => stream.events,
    delivered: () => receiver.received(),
    /** Detaches both: the subscription is deleted, the stream closed, the receiver stopped. */
    async detach() {
      stream.close();
      expectOk(await api.client.request('DELETE', `/v1/webhooks/${hook.id}`, { token: api.token }));
      await receiver.close();
    },
  };
}
