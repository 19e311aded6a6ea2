// The measured workloads. Each sets up its own players, sessions and tables in the
// club it is given, runs its load, and answers its figures.

import { double, expectOk, finish, take } from './api.mjs';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { join } from 'node:path';
import { ROOT, sampleRss } from './app.mjs';
import { onCleanup } from './cleanup.mjs';
import { HttpClient, Recorder, runLoad } from './http.mjs';
import { chouetteTable, seedSettlementSession } from './seed.mjs';
import { log } from './util.mjs';

/**
 * @typedef {object} LoadOptions
 * @property {import('./api.mjs').Api} api  the club's owner key
 * @property {number} warmupMs
 * @property {number} durationMs
 */

/**
 * `record_game`: whole money games, one request each (double, take, finish), from
 * 16 connections over 64 tables in 8 sessions. Connection c owns tables c, c+16,
 * c+32, c+48 and plays them in turn, so no two requests for one table are ever in
 * flight. Answers the load, set up (players, sessions, tables, one key per connection).
 * @param {{ api: import('./api.mjs').Api, pid: number, connections?: number }} o
 * @returns {Promise<import('./http.mjs').Load & { sessions: string[] }>}
 */
export async function recordGameLoad({ api, pid, connections = 16 }) {
  const { tables, sessions } = await moneyTablesWithAGame(api, 'Record game');
  const tokens = await api.tabletKeys('Record game tablet', connections);
  const next = inTurn(tables, connections);
  return {
    name: 'record_game',
    pid,
    connections,
    sessions,
    step: async (c, record) => {
      const t = next(c);
      record(await api.client.post(`/v1/money-games/${t.id}/games`, t.body, { token: tokens[c] }));
    },
  };
}

/**
 * 64 money tables in 8 new sessions among 32 new players (table t: players 2t and 2t + 1),
 * named after `prefix`, each with the whole game a load records at it again and again
 * (double, take, finish), serialised once.
 * @param {import('./api.mjs').Api} api
 * @param {string} prefix
 * @returns {Promise<{ tables: Array<{ id: string, body: string }>, sessions: string[] }>}
 */
async function moneyTablesWithAGame(api, prefix) {
  const players = await api.players(`${prefix} player`, 32);
  const sessions = [];
  for (let s = 0; s < 8; s++) sessions.push(await api.session(`${prefix} ${s + 1}`));
  const tables = [];
  for (let t = 0; t < 64; t++) {
    const a = players[(2 * t) % players.length];
    const b = players[(2 * t + 1) % players.length];
    const id = await api.moneyTable(sessions[Math.floor(t / 8)], a, b);
    tables.push({ id, body: JSON.stringify({ actions: [double(a), take(b), finish(a)] }) });
  }
  return { tables, sessions };
}

/**
 * Connection c's next item: its own are items c, c + n, c + 2n, … (n connections), taken
 * in turn, so no two connections ever use one item at once.
 * @template T
 * @param {T[]} items
 * @param {number} connections
 * @returns {(c: number) => T}
 */
function inTurn(items, connections) {
  const turn = new Array(connections).fill(0);
  const mine = Math.floor(items.length / connections);
  return (c) => items[c + connections * (turn[c]++ % mine)];
}

/**
 * record_game on its own, the app's VmRSS sampled throughout (warm-up included).
 * @param {LoadOptions & { pid: number, connections?: number }} o
 */
export async function recordGame({ api, pid, warmupMs, durationMs, connections = 16 }) {
  const load = await recordGameLoad({ api, pid, connections });
  const rss = sampleRss(pid);
  let rssMiB = NaN;
  let s;
  try {
    s = await runLoad({ ...load, warmupMs, durationMs });
  } finally {
    rssMiB = rss.stop();
  }
  return { ...s, rssMiB };
}

/**
 * `record_action`: one action per request on live games. Each of 16 connections
 * drives two money tables of its own in turn: start a game (`{}`), then double,
 * take and finish, one request each. Only the three action requests are timed and
 * counted in the rate; the start request is not (its status is still checked).
 * A refused request is counted, then any game left in progress is abandoned.
 * @param {LoadOptions & { connections?: number }} o
 */
export async function recordAction({ api, warmupMs, durationMs, connections = 16 }) {
  const players = await api.players('Action player', 16);
  const session = await api.session('Record action');
  /** @type {Array<{ id: string, a: string, b: string }>} */
  const tables = [];
  for (let t = 0; t < 2 * connections; t++) {
    const a = players[(2 * t) % players.length];
    const b = players[(2 * t + 1) % players.length];
    tables.push({ id: await api.moneyTable(session, a, b), a, b });
  }
  const tokens = await api.tabletKeys('Record action tablet', connections);
  const next = inTurn(tables, connections);
  return runLoad({
    name: 'record_action',
    connections,
    warmupMs,
    durationMs,
    step: async (c, record) => {
      const t = next(c);
      const base = `/v1/money-games/${t.id}/games`;
      const started = await api.client.post(base, {}, { token: tokens[c] });
      record(started, false);
      if (started.ok) {
        const gameNo = started.json().gameNo;
        let ok = true;
        for (const action of [double(t.a), take(t.b), finish(t.a)]) {
          const r = await api.client.post(`${base}/${gameNo}/actions`, action, { token: tokens[c] });
          record(r);
          if (!r.ok) {
            ok = false;
            break;
          }
        }
        if (ok) return;
      }
      // Something was refused: end whatever game is left so the table can go on.
      const state = await api.get(`/v1/money-games/${t.id}`);
      if (state.currentGameNo !== null) await api.post(`${base}/${state.currentGameNo}/abandon`);
    },
  });
}

/**
 * `chouette_game`: whole 8-player per-member chouette games, one request each:
 * the box doubles every member, each member takes, then the box and the captain
 * win in turn. One chouette per connection (16 chouettes over 16 players), so the
 * seats are always known: they rotate as R5.7 says, and are checked against the
 * server at the end.
 * @param {LoadOptions & { connections?: number }} o
 */
export async function chouetteGame({ api, warmupMs, durationMs, connections = 16 }) {
  const players = await api.players('Chouette player', 16);
  const session = await api.session('Chouette');
  const chouettes = [];
  for (let c = 0; c < connections; c++) {
    const order = Array.from({ length: 8 }, (_, i) => players[(c + i) % players.length]);
    chouettes.push(await api.chouette(session, order));
  }
  const tables = chouettes.map(chouetteTable);
  const games = new Array(connections).fill(0);
  const tokens = await api.tabletKeys('Chouette tablet', connections);
  const s = await runLoad({
    name: 'chouette_game',
    connections,
    warmupMs,
    durationMs,
    step: async (c, record) => {
      const { path, body, ok } = tables[c].next(games[c]++);
      const r = await api.client.post(path, body, { token: tokens[c] });
      record(r);
      if (r.ok) ok?.();
      else await chouettes[c].resync(api);
    },
  });
  for (const seats of chouettes) await seats.verify(api);
  log(`chouette_game: the seats of all ${chouettes.length} chouettes match the R5.7 rotation`);
  return s;
}

/**
 * `settlement`: a session of `games` finished games among 12 players (every pair
 * at a money table plus two chouettes, rake 2.5 %), seeded through the API; its
 * statement checked (12 players, total 0, games add up); then the JSON statement
 * under load from 4 connections, and one CSV and one PDF request.
 * @param {LoadOptions & { games: number, baseUrl: string }} o
 */
export async function settlement({ api, warmupMs, durationMs, games, baseUrl }) {
  log(`settlement: seeding a session with ${games} games…`);
  const seeded = await seedSettlementSession(api, { games, workers: 16 });
  log(`settlement: seeded ${seeded.money} money and ${seeded.chouette} chouette games in ${seeded.seconds.toFixed(1)} s`);
  const path = `/v1/sessions/${seeded.sessionId}/settlement`;

  const statement = await api.get(path);
  const problems = [];
  if (statement.players?.length !== 12) problems.push(`${statement.players?.length} players, not 12`);
  if (statement.totalMinor !== 0) problems.push(`totalMinor ${statement.totalMinor}, not 0`);
  const gameSeats = (statement.players ?? []).reduce((n, p) => n + p.games, 0);
  const expectedSeats = 2 * seeded.money + 6 * seeded.chouette;
  if (gameSeats !== expectedSeats) problems.push(`the players' games add up to ${gameSeats}, not ${expectedSeats}`);
  const nets = (statement.players ?? []).reduce((n, p) => n + p.netMinor, 0) + statement.houseMinor;
  if (nets !== 0) problems.push(`the players' nets and the house add up to ${nets}, not 0`);
  if (problems.length) throw new Error(`the settlement statement is wrong: ${problems.join('; ')}\n${JSON.stringify(statement).slice(0, 2000)}`);
  log(`settlement: statement checked: 12 players, totalMinor 0, house ${statement.houseMinor}, ${statement.transfers.length} transfers`);

  const client = new HttpClient(baseUrl, { connections: 4, token: api.token });
  try {
    const s = await runLoad({
      name: 'settlement',
      connections: 4,
      warmupMs,
      durationMs,
      step: async (_c, record) => record(await client.get(path)),
    });
    const csv = await client.get(path, { headers: { accept: 'text/csv' } });
    expectOk(csv);
    if (!String(csv.headers['content-type']).startsWith('text/csv')) throw new Error(`the CSV statement came as ${csv.headers['content-type']}`);
    const pdf = await client.get(path, { headers: { accept: 'application/pdf' } });
    expectOk(pdf);
    if (pdf.body.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('the PDF statement does not start with %PDF-');
    log(`settlement: CSV ${csv.body.length} bytes in ${csv.ms.toFixed(1)} ms, PDF ${pdf.body.length} bytes in ${pdf.ms.toFixed(1)} ms`);
    return { ...s, seedSeconds: seeded.seconds, csvMs: csv.ms, pdfMs: pdf.ms };
  } finally {
    client.close();
  }
}

/**
 * The baselines (bench/baseline-server.mjs, a bare Fastify + pg server on the same
 * database server), each the same load as record_game (16 connections, 64 tables, a
 * whole game per request), served by one process:
 *
 * - `baseline_record_game`: the same transaction as record_game, in the app's own tables
 *   (64 money tables in 8 sessions the app created in the club, each connection with a
 *   key of its own for the audit record). The ratio of the two rates is the figure the
 *   performance target is set on (docs/performance.md).
 * - `baseline_light_record_game`: the lighter transaction of earlier figures (one game
 *   row, four ledger rows, a version bump, in tables of the server's own).
 *
 * Answers the two loads and `stop`, which stops the server.
 * @param {{ api: import('./api.mjs').Api, databaseUrl: string, connections?: number }} o
 * @returns {Promise<{ same: import('./http.mjs').Load, light: import('./http.mjs').Load, stop: () => Promise<void> }>}
 */
export async function startBaselines({ api, databaseUrl, connections = 16 }) {
  // The app's rows for the same-transaction baseline, made through the API as record_game's are.
  const clubId = await api.clubId();
  const { tables } = await moneyTablesWithAGame(api, 'Baseline');
  const keys = await api.tabletKeysWithIds('Baseline tablet', connections);

  const proc = spawn(process.execPath, [join(ROOT, 'bench', 'baseline-server.mjs')], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, PORT: '0', ...(process.env.BENCH_BASELINE_POOL_SIZE ? { POOL_SIZE: process.env.BENCH_BASELINE_POOL_SIZE } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stopServer = onCleanup('stop the baseline server', async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  });
  /** @type {HttpClient | null} */
  let client = null;
  const stop = async () => {
    client?.close();
    await stopServer();
  };
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const onData = (b) => {
        out += b;
        const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
        if (m) resolve(m[1]);
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      proc.once('exit', (code) => reject(new Error(`the baseline server exited with ${code}: ${out}`)));
    });
    const http = new HttpClient(url, { connections });
    client = http;
    const nextTable = inTurn(tables, connections);
    const light = [];
    for (let t = 0; t < 64; t++) light.push(expectOk(await http.post('/light/tables', '{}')).id);
    const lightBody = JSON.stringify({
      actions: [
        { type: 'double', by: 'a' },
        { type: 'take', by: 'b' },
        { type: 'finish', winner: 'a', result: 'single', resigned: false },
      ],
    });
    const nextLight = inTurn(light, connections);
    return {
      same: {
        name: 'baseline_record_game',
        pid: proc.pid,
        connections,
        step: async (c, record) => {
          const t = nextTable(c);
          record(await http.post(`/clubs/${clubId}/money-games/${t.id}/games`, t.body, { headers: { 'x-api-key-id': keys[c].id } }));
        },
      },
      light: {
        name: 'baseline_light_record_game',
        pid: proc.pid,
        connections,
        step: async (c, record) => {
          record(await http.post(`/light/${nextLight(c)}/games`, lightBody));
        },
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * `chouette_history` (opt-in): does a chouette game cost more at a table with a long
 * history? 4 connections, each at a chouette of its own of 8 players, record whole games
 * (every member doubled and taking, box and captain winning in turn). Measured by count,
 * not by time, so the history stays what it says: games 11 to 40 of each table, then
 * games 1,001 to 1,030 (the games between are recorded unmeasured, as fast as the 4
 * connections go). A warm-up on 4 other chouettes comes first. Answers both samples'
 * rate and latency, and the size of the tables' last `table.updated` event (read on `ownerUrl`).
 * @param {LoadOptions & { ownerUrl: string }} o
 */
export async function chouetteHistory({ api, warmupMs, ownerUrl }) {
  const connections = 4;
  const sample = 30;
  const players = await api.players('History chouette player', 8 * connections);
  const session = await api.session('History chouettes');
  const tokens = await api.tabletKeys('History chouette tablet', connections);
  const seat = async () => {
    const chouettes = [];
    for (let c = 0; c < connections; c++) chouettes.push(await api.chouette(session, players.slice(8 * c, 8 * c + 8)));
    return { chouettes, tables: chouettes.map(chouetteTable), played: new Array(connections).fill(0) };
  };
  const playOne = async (set, c) => {
    const { path, body, ok } = set.tables[c].next(set.played[c]++);
    const r = await api.client.post(path, body, { token: tokens[c] });
    if (r.ok) ok?.();
    else await set.chouettes[c].resync(api);
    return r;
  };
  /** Every table of `set` up to `n` games; answers the answers, when `timed`. */
  const upTo = async (set, n, timed = false) => {
    const started = performance.now();
    const recorder = new Recorder();
    await Promise.all(
      set.chouettes.map(async (_, c) => {
        while (set.played[c] < n) {
          const r = await playOne(set, c);
          if (timed) recorder.add(r);
          else expectOk(r);
        }
      }),
    );
    return recorder.summary((performance.now() - started) / 1000);
  };
  // The warm-up: other chouettes, for warmupMs.
  const warm = await seat();
  const until = performance.now() + warmupMs;
  while (performance.now() < until) await upTo(warm, warm.played[0] + 10);
  const set = await seat();
  await upTo(set, 10);
  const early = await upTo(set, 10 + sample, true);
  log(`chouette_history: games 11–${10 + sample}: p50 ${early.p50.toFixed(1)} ms, p99 ${early.p99.toFixed(1)} ms; recording up to 1,000 games per table…`);
  await upTo(set, 1000);
  const late = await upTo(set, 1000 + sample, true);
  log(`chouette_history: games 1,001–${1000 + sample}: p50 ${late.p50.toFixed(1)} ms, p99 ${late.p99.toFixed(1)} ms`);
  // The last table.updated's size, read in SQL (paging the API through thousands of them would cost more than the figure).
  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  let lastEventBytes = NaN;
  try {
    const r = await db.query("SELECT octet_length(data::text) AS n FROM events WHERE type = 'table.updated' ORDER BY tx DESC, seq DESC LIMIT 1");
    lastEventBytes = Number(r.rows[0]?.n ?? NaN);
  } finally {
    await db.end();
  }
  for (const seats of set.chouettes) await seats.verify(api);
  return { early, late, lastEventBytes };
}
