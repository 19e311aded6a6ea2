#!/usr/bin/env node
// `npm run probe`: the hostile-client probes of docs/reliability.md, re-run against the
// real app on a fresh embedded PostgreSQL. Figures go to stdout as `name value unit`
// lines, progress to stderr; it leaves nothing running and exits non-zero when a probe
// fails its bound.
//
//   oversized   PROBE_OVERSIZED concurrent bodies (default 20) of 60,000 unknown fields each,
//               while /health is polled: the slowest /health answer, the slowest oversized
//               answer, the largest answer body, the app's peak memory, and any 5xx.
//   slow        PROBE_SLOW sockets (default 200) that send their headers one byte a second:
//               how long until the server has closed every one of them.
//   kill9       the app killed with SIGKILL (its embedded PostgreSQL left behind), then
//               started again on the same data folder: whether it comes up, in how long,
//               and whether what was written before is still there.
//
// Bad inputs are probed by the fuzzer (test/fuzz.e2e-spec.ts, FUZZ_RUNS sets its size).

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { MAIN, sampleRss, startApp } from './lib/app.mjs';
import { runMain } from './lib/cleanup.mjs';
import { embeddedStore } from './lib/database.mjs';
import { emit, envNumber, log, now, sleep } from './lib/util.mjs';

/** One request over a fresh connection; resolves to { status, ms, bytes } (status 0: no answer). */
function send(url, method, path, { token, body, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const started = now();
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      `${url}${path}`,
      {
        method,
        agent: false,
        timeout: timeoutMs,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, ms: now() - started, bytes: Buffer.byteLength(text), text });
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: now() - started, bytes: 0, text: '' }));
    req.end(payload);
  });
}

async function json(url, method, path, opts) {
  const r = await send(url, method, path, opts);
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path} answered ${r.status}: ${r.text.slice(0, 500)}`);
  return JSON.parse(r.text);
}

/** A body of `n` unknown fields, as the outside review sent it. */
function manyFields(n) {
  const parts = ['"name":"Probe"'];
  for (let i = 0; i < n; i++) parts.push(`"f${i}":1`);
  return `{${parts.join(',')}}`;
}

async function oversized(app, token) {
  const count = Math.round(envNumber('PROBE_OVERSIZED', 20, 1, 100));
  const body = manyFields(60_000);
  log(`oversized: ${count} concurrent bodies of ${(body.length / 1024).toFixed(0)} KiB (60,000 unknown fields) while /health is polled`);
  const rss = sampleRss(app.pid, 50);
  let polling = true;
  const health = [];
  const poller = (async () => {
    while (polling) {
      const r = await send(app.url, 'GET', '/health', { timeoutMs: 30_000 });
      health.push(r);
      await sleep(20);
    }
  })();
  const answers = await Promise.all(Array.from({ length: count }, () => send(app.url, 'POST', '/v1/players', { token, body })));
  polling = false;
  await poller;
  const peak = rss.stop();
  // A /health poll that failed or timed out counts with the time it waited.
  const slowestHealth = Math.max(...health.map((h) => h.ms));
  const healthFailed = health.filter((h) => h.status !== 200).length;
  emit('oversized_requests', count, 'count', 0);
  emit('oversized_health_max_ms', slowestHealth, 'ms');
  emit('oversized_health_failed', healthFailed, 'count', 0);
  emit('oversized_answer_max_ms', Math.max(...answers.map((a) => a.ms)), 'ms');
  emit('oversized_answer_max_bytes', Math.max(...answers.map((a) => a.bytes)), 'bytes', 0);
  emit('oversized_5xx', answers.filter((a) => a.status >= 500 || a.status === 0).length, 'count', 0);
  emit('oversized_rss_peak_mb', peak, 'MB', 0);
  const statuses = [...new Set(answers.map((a) => a.status))].join(',');
  log(`oversized: answers ${statuses}; /health polled ${health.length} times`);
  return slowestHealth < 1000 && healthFailed === 0 && answers.every((a) => a.status >= 400 && a.status < 500);
}

async function slowClients(app) {
  const count = Math.round(envNumber('PROBE_SLOW', 200, 1, 1000));
  const { port } = new URL(app.url);
  log(`slow: ${count} sockets sending their headers one byte a second`);
  const started = now();
  const request = 'GET /health HTTP/1.1\r\nHost: probe\r\nX-Slow: ' + 'x'.repeat(200) + '\r\n\r\n';
  const closed = Array.from({ length: count }, () => {
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let i = 0;
      const timer = setInterval(() => {
        if (i < request.length && !socket.destroyed) socket.write(request[i++]);
      }, 1000);
      const done = () => {
        clearInterval(timer);
        resolve(now() - started);
      };
      socket.on('close', done);
      socket.on('error', () => undefined);
      // Our own bound: a socket still open after 120 s counts as never cut.
      setTimeout(() => {
        if (!socket.destroyed) {
          socket.destroy();
          resolve(Infinity);
        }
      }, 120_000).unref();
    });
  });
  const times = await Promise.all(closed);
  const slowest = Math.max(...times);
  emit('slow_sockets', count, 'count', 0);
  emit('slow_sockets_all_cut_s', slowest / 1000, 's');
  emit('slow_sockets_never_cut', times.filter((t) => t === Infinity).length, 'count', 0);
  const health = await send(app.url, 'GET', '/health');
  return Number.isFinite(slowest) && health.status === 200;
}

async function kill9(store, adminToken) {
  log('kill9: start, write, SIGKILL the app, start again on the same data folder');
  const env = { ...store.env, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' };
  const first = await startApp({ env, dataDir: store.dataDir, label: 'app (before kill -9)' });
  const club = await json(first.url, 'POST', '/v1/clubs', { token: adminToken, body: { name: 'Kill club', currency: 'USD' } });
  const token = club.apiKey.token;
  const player = await json(first.url, 'POST', '/v1/players', { token, body: { name: 'Survivor' } });
  process.kill(first.pid, 'SIGKILL');
  await sleep(500);
  const pidFile = join(store.dataDir, 'pg', 'postmaster.pid');
  const leftover = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
  log(`kill9: app killed; postmaster.pid ${leftover ? `names pid ${leftover}` : 'is gone'}`);
  let ok = false;
  try {
    const t0 = now();
    const second = await startApp({ env, dataDir: store.dataDir, label: 'app (after kill -9)', timeoutMs: 60_000 });
    emit('kill9_restart_s', (now() - t0) / 1000, 's', 2);
    const again = await send(second.url, 'GET', `/v1/players/${player.id}`, { token });
    ok = again.status === 200;
    await second.stop();
  } catch (e) {
    log(`kill9: the restart failed: ${e instanceof Error ? e.message.slice(0, 2000) : e}`);
  }
  await first.stop();
  emit('kill9_restart_ok', ok ? 1 : 0, 'bool', 0);
  return ok;
}

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the app first (npm run probe builds it)`);
  const adminToken = `probe-operator-${randomBytes(24).toString('hex')}`;
  const results = {};

  const store = await embeddedStore();
  const app = await startApp({ env: { ...store.env, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' }, dataDir: store.dataDir, label: 'app' });
  const club = await json(app.url, 'POST', '/v1/clubs', { token: adminToken, body: { name: 'Probe club', currency: 'USD' } });
  results.oversized = await oversized(app, club.apiKey.token);
  results.slow = await slowClients(app);
  await app.stop();
  await store.dispose();

  const store2 = await embeddedStore();
  results.kill9 = await kill9(store2, adminToken);
  await store2.dispose();

  const failed = Object.entries(results)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  if (failed.length > 0) {
    log(`FAILED: ${failed.join(', ')}`);
    process.exitCode = 1;
  } else log('every probe held its bound');
}

await runMain(main);
