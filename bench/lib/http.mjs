// A small HTTP/1.1 keep-alive client that times every response itself, and a load
// runner: N connections, each a loop with one request in flight, a warm-up, then
// a fixed measured window. Latencies are kept exactly (no rounded histogram).

import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { log, now, percentile, sleep } from './util.mjs';

/** A request that gets no complete answer within this long fails the run. */
const REQUEST_TIMEOUT_MS = 60_000;

/** One answer, with how long it took from sending the request to its last byte. */
export class Reply {
  /**
   * @param {number} status
   * @param {http.IncomingHttpHeaders} headers
   * @param {Buffer} body
   * @param {number} ms
   * @param {string} label  `METHOD path`, for error messages
   */
  constructor(status, headers, body, ms, label) {
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.ms = ms;
    this.label = label;
  }

  get ok() {
    return this.status >= 200 && this.status < 300;
  }

  text() {
    return this.body.toString('utf8');
  }

  /** @returns {any} */
  json() {
    return JSON.parse(this.text());
  }
}

export class HttpClient {
  /**
   * @param {string} baseUrl  `http://host:port`
   * @param {{ connections?: number, token?: string }} [opts]  at most `connections` sockets, kept alive
   */
  constructor(baseUrl, { connections = 16, token } = {}) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.token = token;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  /**
   * Sends one request; a JSON `body` is serialised (pass a string to send it as is).
   * Resolves with every answer, whatever its status; rejects on network errors.
   * @param {string} method
   * @param {string} path
   * @param {{ body?: unknown, headers?: Record<string, string>, token?: string }} [opts]
   * @returns {Promise<Reply>}
   */
  request(method, path, { body, headers = {}, token = this.token } = {}) {
    /** @type {Record<string, string | number>} */
    const h = { accept: 'application/json', ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    /** @type {Buffer | undefined} */
    let payload;
    if (body !== undefined) {
      payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      h['content-type'] = 'application/json';
      h['content-length'] = payload.length;
    }
    const label = `${method} ${path}`;
    return new Promise((resolve, reject) => {
      const started = now();
      const req = http.request({ agent: this.agent, host: this.host, port: this.port, method, path, headers: h }, (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(new Reply(res.statusCode ?? 0, res.headers, Buffer.concat(chunks), now() - started, label)));
        res.on('error', reject);
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${label}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** @param {string} path @param {unknown} [body] @param {{ headers?: Record<string, string>, token?: string }} [opts] */
  post(path, body, opts = {}) {
    return this.request('POST', path, { ...opts, body });
  }

  /** @param {string} path @param {{ headers?: Record<string, string>, token?: string }} [opts] */
  get(path, opts = {}) {
    return this.request('GET', path, opts);
  }

  /** Closes the kept-alive sockets. */
  close() {
    this.agent.destroy();
  }
}

/**
 * Collects latencies and failures. `add` is given every answer worth counting.
 */
export class Recorder {
  constructor() {
    /** @type {number[]} */
    this.latencies = [];
    this.non2xx = 0;
    /** @type {Map<number, number>} */
    this.byStatus = new Map();
    /** @type {string[]} a few failing answers, for the report */
    this.samples = [];
  }

  /**
   * @param {Reply} reply
   * @param {boolean} [timed=true]  false: count its status only (a helper request, not the one measured)
   */
  add(reply, timed = true) {
    if (timed) this.latencies.push(reply.ms);
    this.byStatus.set(reply.status, (this.byStatus.get(reply.status) ?? 0) + 1);
    if (!reply.ok) {
      this.non2xx += 1;
      if (this.samples.length < 5) this.samples.push(`${reply.label} → ${reply.status} ${reply.text().slice(0, 500)}`);
    }
  }

  /** Adds what another recorder collected. @param {Recorder} other */
  merge(other) {
    for (const ms of other.latencies) this.latencies.push(ms);
    this.non2xx += other.non2xx;
    for (const [status, n] of other.byStatus) this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + n);
    for (const sample of other.samples) if (this.samples.length < 5) this.samples.push(sample);
  }

  /**
   * @param {number} seconds  the window the answers were collected in
   * @returns {LoadSummary}
   */
  summary(seconds) {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      count: sorted.length,
      seconds,
      rps: sorted.length / seconds,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1] : NaN,
      non2xx: this.non2xx,
      byStatus: Object.fromEntries(this.byStatus),
      samples: this.samples,
    };
  }
}

/**
 * @typedef {object} LoadSummary
 * @property {number} count    timed answers counted
 * @property {number} seconds  the measured window
 * @property {number} rps
 * @property {number} p50      ms
 * @property {number} p90      ms
 * @property {number} p99      ms
 * @property {number} max      ms
 * @property {number} non2xx
 * @property {Record<string, number>} byStatus
 * @property {string[]} samples  a few non-2xx answers
 * @property {number} [warmupNon2xx]
 * @property {number} [cpuMsPerAnswer]  the server process's CPU time (user + system) per timed answer
 * @property {number} [postgresCpuMsPerAnswer]  the same for every postgres process of the machine
 * @property {Recorder} [recorder]  the window's answers (for interleave)
 * @property {number} [cpuUsedMs]  the server's CPU time in the window
 * @property {number} [postgresCpuUsedMs]  PostgreSQL's in the window
 */

/**
 * A process's name and CPU times in ms from /proc/<pid>/stat (Linux; clock ticks of
 * 10 ms): its own (user + system) and that of its children it has reaped; null when it
 * cannot be read (gone).
 * @param {number | string} pid
 * @returns {{ comm: string, ownMs: number, userMs: number, sysMs: number, reapedMs: number } | null}
 */
export function cpuTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // utime, stime, cutime, cstime: fields 14–17 of stat(5), after the name in parentheses.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const userMs = Number(f[11]) * 10;
    const sysMs = Number(f[12]) * 10;
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ownMs: userMs + sysMs, userMs, sysMs, reapedMs: (Number(f[13]) + Number(f[14])) * 10 };
  } catch {
    return null;
  }
}

/** The CPU time (user + system) a process has used so far, in ms; NaN when it cannot be read. @param {number} pid */
const cpuMs = (pid) => cpuTimes(pid)?.ownMs ?? NaN;

/**
 * The CPU time, in ms, of PostgreSQL on the machine: every live process named postgres
 * (the server and its backends), plus what its ended backends used (the server reaps
 * them, so their time is in its children's fields). Without the latter a backend that
 * ended inside a window (a pool closing an idle connection) would take its whole life's
 * time off the window's figure.
 */
function postgresCpuMs() {
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const t = cpuTimes(entry);
    // One that is gone in between: its time is in its parent's children fields from now on.
    if (t?.comm === 'postgres') sum += t.ownMs + t.reapedMs;
  }
  return sum;
}

/**
 * Runs `step` in `connections` concurrent loops: a warm-up of `warmupMs` whose
 * answers are not counted, then `durationMs` during which every answer passed to
 * `record` is counted (an answer counts when it arrives inside the window). The
 * loops then finish their iteration and stop. A step that throws stops the run
 * and the error is rethrown.
 * @param {object} o
 * @param {string} o.name
 * @param {number} o.connections
 * @param {number} o.warmupMs
 * @param {number} o.durationMs
 * @param {(conn: number, record: (reply: Reply, timed?: boolean) => void) => Promise<void>} o.step  one iteration of loop `conn`
 * @param {number} [o.pid]  the server's process: its CPU time in the window is reported per answer
 * @returns {Promise<LoadSummary>}
 */
export async function runLoad({ name, connections, warmupMs, durationMs, step, pid }) {
  /** @type {'warmup' | 'measure' | 'done'} */
  let phase = 'warmup';
  const measured = new Recorder();
  const warmup = new Recorder();
  /** @type {unknown} */
  let failure = null;
  const record = (/** @type {Reply} */ reply, timed = true) => {
    if (phase === 'measure') measured.add(reply, timed);
    else if (phase === 'warmup') warmup.add(reply, timed);
  };
  const loop = async (/** @type {number} */ conn) => {
    try {
      while (phase !== 'done') await step(conn, record);
    } catch (e) {
      if (failure === null) failure = e;
      phase = 'done';
    }
  };
  log(`${name}: ${connections} connections, ${warmupMs / 1000} s warm-up, ${durationMs / 1000} s measured`);
  const loops = Array.from({ length: connections }, (_, i) => loop(i));
  await waitUnlessDone(warmupMs, () => phase === 'done');
  const started = now();
  const cpuBefore = pid ? cpuMs(pid) : NaN;
  const sysBefore = pid ? (cpuTimes(pid)?.sysMs ?? NaN) : NaN;
  const pgBefore = pid ? postgresCpuMs() : NaN;
  if (phase !== 'done') phase = 'measure';
  await waitUnlessDone(durationMs, () => phase === 'done');
  const seconds = (now() - started) / 1000;
  phase = 'done';
  const cpuUsed = pid ? cpuMs(pid) - cpuBefore : NaN;
  const sysUsed = pid ? (cpuTimes(pid)?.sysMs ?? NaN) - sysBefore : NaN;
  const pgUsed = pid ? postgresCpuMs() - pgBefore : NaN;
  await Promise.all(loops);
  if (failure !== null) throw failure;
  const s = measured.summary(seconds);
  s.recorder = measured;
  s.cpuUsedMs = cpuUsed;
  s.postgresCpuUsedMs = pgUsed;
  s.warmupNon2xx = warmup.non2xx;
  s.cpuMsPerAnswer = cpuUsed / s.count;
  s.postgresCpuMsPerAnswer = pgUsed / s.count;
  if (warmup.non2xx > 0) {
    log(`${name}: ${warmup.non2xx} non-2xx answers during warm-up, e.g.\n  ${warmup.samples.join('\n  ')}`);
  }
  log(
    `${name}: ${s.count} answers in ${s.seconds.toFixed(2)} s = ${s.rps.toFixed(1)}/s; ` +
      `p50 ${s.p50.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; ` +
      `status ${JSON.stringify(s.byStatus)}` +
      (pid
        ? `; CPU per answer: server ${s.cpuMsPerAnswer.toFixed(3)} ms (${((100 * cpuUsed) / 1000 / seconds).toFixed(0)} % of a core; ` +
          `${(sysUsed / s.count).toFixed(3)} ms of it in the kernel), ` +
          `PostgreSQL ${s.postgresCpuMsPerAnswer.toFixed(3)} ms (${((100 * pgUsed) / 1000 / seconds).toFixed(0)} %)`
        : ''),
  );
  if (s.non2xx > 0) log(`${name}: ${s.non2xx} non-2xx answers, e.g.\n  ${s.samples.join('\n  ')}`);
  return s;
}

/**
 * Sleeps `ms`, waking early once `done()` is true (checked every 50 ms).
 * @param {number} ms
 * @param {() => boolean} done
 */
async function waitUnlessDone(ms, done) {
  const end = now() + ms;
  while (!done() && now() < end) await sleep(Math.min(50, end - now()));
}

/**
 * @typedef {object} Load
 * @property {string} name
 * @property {number} connections
 * @property {number} [pid]  the server's process
 * @property {(conn: number, record: (reply: Reply, timed?: boolean) => void) => Promise<void>} step
 */

/**
 * Runs loads taking turns, so that a machine whose speed drifts from minute to minute
 * (a shared VM) weighs on each alike and their ratio means something: each load warms
 * up (`warmupMs`), then `rounds` rounds give each in turn `durationMs / rounds` measured
 * (after a re-warm of `rewarmMs` its connections spend unmeasured). Answers each load's
 * summary over its slices, in the order given.
 * @param {Load[]} loads
 * @param {{ warmupMs: number, durationMs: number, rounds: number, rewarmMs?: number }} o
 * @returns {Promise<LoadSummary[]>}
 */
export async function interleave(loads, { warmupMs, durationMs, rounds, rewarmMs = 1000 }) {
  /** @type {LoadSummary[][]} */
  const slices = loads.map(() => []);
  const slice = durationMs / rounds;
  for (let r = 0; r < rounds; r++) {
    for (const [i, load] of loads.entries()) {
      slices[i].push(await runLoad({ ...load, name: `${load.name} (round ${r + 1}/${rounds})`, warmupMs: r === 0 ? warmupMs : rewarmMs, durationMs: slice }));
    }
  }
  return loads.map((load, i) => {
    const parts = slices[i];
    const all = new Recorder();
    for (const p of parts) all.merge(/** @type {Recorder} */ (p.recorder));
    const seconds = parts.reduce((t, p) => t + p.seconds, 0);
    const s = all.summary(seconds);
    s.warmupNon2xx = parts.reduce((t, p) => t + (p.warmupNon2xx ?? 0), 0);
    const cpu = parts.reduce((t, p) => t + (p.cpuUsedMs ?? NaN), 0);
    const pg = parts.reduce((t, p) => t + (p.postgresCpuUsedMs ?? NaN), 0);
    s.cpuMsPerAnswer = cpu / s.count;
    s.postgresCpuMsPerAnswer = pg / s.count;
    log(
      `${load.name}: ${s.count} answers in ${rounds} slices, ${seconds.toFixed(2)} s = ${s.rps.toFixed(1)}/s ` +
        `(slices ${parts.map((p) => p.rps.toFixed(0)).join(', ')}); p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms` +
        (load.pid ? `; CPU per answer: server ${s.cpuMsPerAnswer.toFixed(3)} ms, PostgreSQL ${s.postgresCpuMsPerAnswer.toFixed(3)} ms` : ''),
    );
    return s;
  });
}

/**
 * Reads a server-sent event stream's response frame by frame (frames end at a blank line)
 * and hands each frame's text to `onFrame`.
 * @param {import('node:http').IncomingMessage} res
 * @param {(frame: string) => void} onFrame
 */
export function onSseFrames(res, onFrame) {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      onFrame(frame);
    }
  });
}
