#!/usr/bin/env node
// `npm run bench`: starts the app on a fresh database, seeds a club, measures, and
// leaves nothing running. Figures go to stdout as `name value unit` lines, progress
// to stderr.
//
// Environment:
//   BENCH_SECONDS           measured seconds per load figure (default 10, at most 30)
//   BENCH_WARMUP_SECONDS    unmeasured warm-up before each (default 6: the JIT needs it)
//   BENCH_SETTLEMENT_GAMES  games in the settlement session (default 10000)
//   BENCH_RATE_LIMIT        the app's RATE_LIMIT (requests per API key per minute) during
//                           the load figures. Default 10000000: the per-key limiter still
//                           counts every request, as in production, but never answers 429
//                           (the app's own default, 3000 a minute, is 50 req/s per key).
//                           0 turns it off.
//   BENCH_REPLICA_GAMES     games in the session of settlement_pdf_replica (default 2000;
//                           that figure is opt-in: BENCH_ONLY=settlement_pdf_replica)
//   BENCH_HISTORY_COPIES    copies of the seeded history the history figure adds in SQL
//                           (default 99: ~100,000 finished games); fewer for a quick try
//   DATABASE_URL            unset: the app's embedded PostgreSQL in a temporary folder;
//                           set: a fresh database bench_<timestamp> on that server,
//                           dropped at the end. The start figures always use the
//                           embedded default.

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Api } from './lib/api.mjs';
import { attachConsumers } from './lib/consumers.mjs';
import { MAIN, sampleRss, startApp } from './lib/app.mjs';
import { onCleanup, runCleanup, runMain } from './lib/cleanup.mjs';
import { embeddedStore, serverStore } from './lib/database.mjs';
import { chouetteGame, chouetteHistory, recordAction, recordGame, recordGameLoad, settlement, startBaselines } from './lib/figures.mjs';
import { tournament } from './lib/tournament.mjs';
import { boardStreams, recordGameWithBoards } from './lib/boards.mjs';
import { history } from './lib/history.mjs';
import { settlementFromStandby } from './lib/replica.mjs';
import { HttpClient, interleave } from './lib/http.mjs';
import { emit, envNumber, log, now } from './lib/util.mjs';

/** Past this the benchmark gives up, cleans up and fails (it should take under 4 minutes). */
const WATCHDOG_MS = 10 * 60 * 1000;

/**
 * `start_fresh_s` and `start_s`: seconds from `npm start` (its build check included;
 * the build is current) on the embedded default (nothing set but a data folder and a
 * free port) to `GET /health` 200, first on an empty data folder (initdb included),
 * then on the same folder again.
 */
async function startTimes() {
  const store = await embeddedStore();
  try {
    const fresh = await startApp({ env: store.env, dataDir: store.dataDir, label: 'app (fresh data folder)', npmStart: true });
    await fresh.stop();
    log(`start: fresh data folder healthy after ${fresh.readySeconds.toFixed(2)} s`);
    const again = await startApp({ env: store.env, dataDir: store.dataDir, label: 'app (existing data folder)', npmStart: true });
    await again.stop();
    log(`start: existing data folder healthy after ${again.readySeconds.toFixed(2)} s`);
    return { fresh: fresh.readySeconds, existing: again.readySeconds };
  } finally {
    await store.dispose();
  }
}

async function main() {
  const t0 = now();
  const measuredS = envNumber('BENCH_SECONDS', 10, 1, 30);
  const warmupS = envNumber('BENCH_WARMUP_SECONDS', 6, 0, 10);
  // record_game and its baselines take turns in this many rounds (BENCH_ROUNDS).
  const rounds = Math.round(envNumber('BENCH_ROUNDS', 5, 1, 20));
  const games = Math.round(envNumber('BENCH_SETTLEMENT_GAMES', 10000, 1, 20000));
  // The app's own default limit (100,000 a minute per key) unless BENCH_RATE_LIMIT says otherwise.
  const rateLimit = process.env.BENCH_RATE_LIMIT ? String(Math.round(envNumber('BENCH_RATE_LIMIT', 100_000, 0, 10_000_000))) : null;
  // BENCH_ONLY=record_game,settlement runs just those figures (for profiling); all by default.
  const only = new Set(
    (process.env.BENCH_ONLY ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  const wanted = (name) => only.size === 0 || only.has(name);
  // Figures too slow for the default run: only when BENCH_ONLY names them.
  const optIn = (name) => only.has(name);
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the app first (npm run bench builds it)`);

  const load1 = () => loadavg()[0].toFixed(2);
  log(`load average ${load1()} on ${cpus().length} CPUs before the start (other work on the machine skews the figures)`);

  const adminToken = `bench-operator-${randomBytes(24).toString('hex')}`;
  const adminUrl = process.env.DATABASE_URL || null;
  const store = adminUrl ? await serverStore(adminUrl) : await embeddedStore();
  log(`database: ${store.description}; RATE_LIMIT=${rateLimit ?? 'the app default'}`);
  const app = await startApp({
    env: {
      ...store.env,
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...(rateLimit === null ? {} : { RATE_LIMIT: rateLimit }),
      // history times reads that take seconds at 100,000 games; the default 4 s would
      // turn them into 503s instead of figures.
      ...(optIn('history') ? { DB_TIMEOUT_MS: '50000', REQUEST_TIMEOUT_SECONDS: '55', HEADERS_TIMEOUT_SECONDS: '10' } : {}),
    },
    dataDir: store.dataDir,
    label: 'app',
  });
  log(`app: pid ${app.pid}, ${app.url}, healthy after ${app.readySeconds.toFixed(2)} s`);

  const client = new HttpClient(app.url, { connections: 16 });
  const closeClient = onCleanup('close the HTTP client', () => client.close());
  const api = await Api.newClub(client, adminToken, 'Benchmark club');
  const load = { api, warmupMs: warmupS * 1000, durationMs: measuredS * 1000 };
  let non2xx = 0;
  let lastRecordGameRps = 0;

  if (wanted('record_game')) {
    // record_game and its yardsticks, a bare Fastify + pg server on the same database doing
    // the same transaction in the app's tables (and the lighter one of earlier figures),
    // taking turns: the ratio is then measured on the same machine speed.
    const databaseUrl = store.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${store.env.EMBEDDED_PG_PORT}/bgclub`;
    const appLoad = await recordGameLoad({ api, pid: app.pid });
    const baselines = await startBaselines({ api, databaseUrl });
    const rss = sampleRss(app.pid);
    let game, same, light, rssMiB;
    try {
      [game, same, light] = await interleave([appLoad, baselines.same, baselines.light], { warmupMs: load.warmupMs, durationMs: load.durationMs, rounds });
    } finally {
      rssMiB = rss.stop();
      await baselines.stop();
    }
    lastRecordGameRps = game.rps;
    non2xx += game.non2xx + (game.warmupNon2xx ?? 0) + same.non2xx + light.non2xx;
    emit('record_game_rps', game.rps, 'req/s');
    emit('record_game_p50_ms', game.p50, 'ms');
    emit('record_game_p99_ms', game.p99, 'ms');
    emit('record_game_non2xx', game.non2xx, 'count', 0);
    emit('record_game_cpu_ms', game.cpuMsPerAnswer, 'ms', 3);
    emit('rss_mb', rssMiB, 'MB', 0);
    emit('baseline_record_game_rps', same.rps, 'req/s');
    emit('baseline_record_game_p50_ms', same.p50, 'ms');
    emit('baseline_record_game_cpu_ms', same.cpuMsPerAnswer, 'ms', 3);
    emit('record_game_vs_baseline', (100 * game.rps) / same.rps, '%');
    emit('baseline_light_record_game_rps', light.rps, 'req/s');
    emit('baseline_light_record_game_cpu_ms', light.cpuMsPerAnswer, 'ms', 3);
    emit('record_game_vs_light_baseline', (100 * game.rps) / light.rps, '%');
  }

  // The same load with the event log's consumers attached (one live stream client, one
  // webhook subscription), between two runs without them; the cost is against their mean.
  if (wanted('record_game_with_events')) {
    const consumers = await attachConsumers(api, app.url);
    const detach = onCleanup('detach the event consumers', () => consumers.detach());
    const withEvents = await recordGame({ ...load, pid: app.pid });
    const streamed = consumers.streamed();
    await detach();
    const after = await recordGame({ ...load, pid: app.pid });
    non2xx += withEvents.non2xx + (withEvents.warmupNon2xx ?? 0) + after.non2xx + (after.warmupNon2xx ?? 0);
    const without = wanted('record_game') ? [lastRecordGameRps, after.rps] : [after.rps];
    const withoutRps = without.reduce((a, b) => a + b, 0) / without.length;
    emit('record_game_with_events_rps', withEvents.rps, 'req/s');
    emit('record_game_with_events_p99_ms', withEvents.p99, 'ms');
    emit('record_game_without_events_rps', withoutRps, 'req/s');
    emit('record_game_events_cost', 100 * (1 - withEvents.rps / withoutRps), '%');
    emit('record_game_events_streamed', streamed, 'count', 0);
    emit('record_game_events_delivered', consumers.delivered(), 'count', 0);
    if (streamed === 0 || consumers.delivered() === 0) {
      log('FAILED: the stream client or the webhook receiver got nothing while games were recorded');
      process.exitCode = 1;
    }
  }

  // The same load with 200 club boards open on its sessions (25 screens on each of 8, each
  // reading its board again whenever its stream says so), taking turns with the load on
  // sessions without boards; the cost is the drop in rate (target: at most 10 %).
  if (wanted('record_game_with_boards')) {
    const b = await recordGameWithBoards({ ...load, rounds, pid: app.pid, baseUrl: app.url });
    for (const r of [b.withBoards, b.without]) non2xx += r.non2xx + (r.warmupNon2xx ?? 0);
    emit('record_game_with_boards_rps', b.withBoards.rps, 'req/s');
    emit('record_game_with_boards_p99_ms', b.withBoards.p99, 'ms');
    emit('record_game_with_boards_cpu_ms', b.withBoards.cpuMsPerAnswer + b.withBoards.postgresCpuMsPerAnswer, 'ms', 3);
    emit('record_game_without_boards_rps', b.without.rps, 'req/s');
    emit('record_game_without_boards_cpu_ms', b.without.cpuMsPerAnswer + b.without.postgresCpuMsPerAnswer, 'ms', 3);
    emit('record_game_boards_cost', 100 * (1 - b.withBoards.rps / b.without.rps), '%');
    emit('record_game_boards_open', b.screens, 'count', 0);
    emit('record_game_boards_frames', b.counts.frames, 'count', 0);
    emit('record_game_boards_reads', b.counts.reads, 'count', 0);
    emit('record_game_boards_failed_reads', b.counts.failedReads, 'count', 0);
    if (b.counts.reads === 0 || b.counts.failedReads > 0 || b.counts.ended > 0) {
      log(`FAILED: the board screens read ${b.counts.reads} boards, ${b.counts.failedReads} reads failed, ${b.counts.ended} streams ended`);
      process.exitCode = 1;
    }
  }

  // 1,000 board streams open on one instance (4 clubs of 250), the app's peak memory
  // while they are open and every game wakes 250 of them (target: rss within 200 MB).
  // On an instance of its own, started for it (on a fresh database of the same kind), so
  // that what the figures before it left in the heap does not count.
  if (wanted('board_streams')) {
    const bsStore = adminUrl ? await serverStore(adminUrl) : await embeddedStore();
    const bsApp = await startApp({
      env: { ...bsStore.env, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', ...(rateLimit === null ? {} : { RATE_LIMIT: rateLimit }) },
      dataDir: bsStore.dataDir,
      label: 'app (board streams)',
    });
    const bsClient = new HttpClient(bsApp.url, { connections: 16 });
    let bs;
    try {
      bs = await boardStreams({ client: bsClient, adminToken, pid: bsApp.pid, baseUrl: bsApp.url, durationMs: measuredS * 1000 });
    } finally {
      await bsClient.close();
      await bsApp.stop();
      await bsStore.dispose();
    }
    emit('board_streams_before_rss_mb', bs.beforeRssMiB, 'MB', 0);
    emit('board_streams_open', bs.open, 'count', 0);
    emit('board_streams_idle_rss_mb', bs.idleRssMiB, 'MB', 0);
    emit('board_streams_rss_mb', bs.peakRssMiB, 'MB', 0);
    emit('board_streams_games', bs.games, 'count', 0);
    emit('board_streams_reads', bs.reads, 'count', 0);
    emit('board_streams_failed_reads', bs.failedReads, 'count', 0);
    if (bs.reads === 0 || bs.failedReads > 0 || bs.ended > 0) {
      log(`FAILED: the board screens read ${bs.reads} boards, ${bs.failedReads} reads failed, ${bs.ended} streams ended`);
      process.exitCode = 1;
    }
  }

  // Rate and p99 of the action requests (double, take, finish) only; the game
  // starts between them are neither timed nor counted.
  if (wanted('record_action')) {
    const action = await recordAction(load);
    non2xx += action.non2xx + (action.warmupNon2xx ?? 0);
    emit('record_action_rps', action.rps, 'req/s');
    emit('record_action_p99_ms', action.p99, 'ms');
    emit('record_action_non2xx', action.non2xx, 'count', 0);
  }

  // A chouette game at a table with 10 games behind it and with 1,000 (opt-in: it records ~4,000 games first).
  if (optIn('chouette_history')) {
    const ownerUrl = store.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${store.env.EMBEDDED_PG_PORT}/bgclub`;
    const h = await chouetteHistory({ ...load, ownerUrl });
    emit('chouette_game_at_10_rps', h.early.rps, 'req/s');
    emit('chouette_game_at_10_p50_ms', h.early.p50, 'ms');
    emit('chouette_game_at_1000_rps', h.late.rps, 'req/s');
    emit('chouette_game_at_1000_p50_ms', h.late.p50, 'ms');
    emit('chouette_game_history_ratio', h.late.p50 / h.early.p50, 'x', 2);
    emit('chouette_table_updated_bytes', h.lastEventBytes, 'bytes', 0);
    non2xx += h.early.non2xx + h.late.non2xx;
  }

  if (wanted('chouette_game')) {
    const chouette = await chouetteGame(load);
    non2xx += chouette.non2xx + (chouette.warmupNon2xx ?? 0);
    emit('chouette_game_rps', chouette.rps, 'req/s');
    emit('chouette_game_p99_ms', chouette.p99, 'ms');
    emit('chouette_game_non2xx', chouette.non2xx, 'count', 0);
  }

  if (wanted('tournament')) {
    const tm = await tournament({ ...load, baseUrl: app.url, pid: app.pid });
    non2xx += tm.result.non2xx + (tm.result.warmupNon2xx ?? 0) + tm.read.non2xx;
    emit('tournament_result_rps', tm.result.rps, 'req/s');
    emit('tournament_result_p50_ms', tm.result.p50, 'ms');
    emit('tournament_result_p99_ms', tm.result.p99, 'ms');
    emit('tournament_get_128_rps', tm.read.rps, 'req/s');
    emit('tournament_get_128_p50_ms', tm.read.p50, 'ms');
    emit('tournament_get_128_p99_ms', tm.read.p99, 'ms');
  }

  if (wanted('settlement')) {
    const settle = await settlement({ ...load, games, baseUrl: app.url });
    non2xx += settle.non2xx + (settle.warmupNon2xx ?? 0);
    emit('settlement_seed_s', settle.seedSeconds, 's', 2);
    emit('settlement_rps', settle.rps, 'req/s');
    emit('settlement_p50_ms', settle.p50, 'ms');
    emit('settlement_p99_ms', settle.p99, 'ms');
    emit('settlement_csv_ms', settle.csvMs, 'ms');
    emit('settlement_pdf_ms', settle.pdfMs, 'ms');
  }

  // How the everyday reads grow from ~1,000 to ~100,000 finished games (opt-in: it takes minutes).
  if (optIn('history')) {
    const ownerUrl = store.env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${store.env.EMBEDDED_PG_PORT}/bgclub`;
    const h = await history({ client, adminToken, baseUrl: app.url, ownerUrl });
    emit('history_seed_s', h.seedSeconds, 's', 1);
    emit('history_games_1k', h.games1k, 'count', 0);
    emit('history_games_100k', h.games100k, 'count', 0);
    emit('history_clone_s', h.cloneSeconds, 's', 1);
    let max = 0;
    for (const [read, before] of Object.entries(h.at1k)) {
      const after = h.at100k[read].p50;
      const ratio = after / before.p50;
      max = Math.max(max, ratio);
      emit(`history_${read}_p50_1k_ms`, before.p50, 'ms', 2);
      emit(`history_${read}_p50_100k_ms`, after, 'ms', 2);
      emit(`history_${read}_ratio`, ratio, 'x', 2);
    }
    emit('history_max_ratio', max, 'x', 2);
    if (max > 1.5) log(`history: the largest ratio is ${max.toFixed(2)}, above the 1.5 target (reported, not a failure)`);
  }

  await closeClient();
  await app.stop();
  await store.dispose();

  if (wanted('start')) {
    const start = await startTimes();
    emit('start_fresh_s', start.fresh, 's', 2);
    emit('start_s', start.existing, 's', 2);
  }

  // The settlement PDF read from a standby or from the primary, on a cluster of its own (opt-in).
  if (optIn('settlement_pdf_replica')) {
    const replicaGames = Math.round(envNumber('BENCH_REPLICA_GAMES', 2000, 1, 20000));
    const r = await settlementFromStandby({ adminToken, warmupMs: warmupS * 1000, durationMs: measuredS * 1000, rounds, games: replicaGames });
    for (const mode of ['primary', 'replica']) {
      const m = r[mode];
      emit(`settlement_pdf_${mode}_rps`, m.pdfRps, 'req/s');
      emit(`settlement_pdf_${mode}_p50_ms`, m.pdfP50, 'ms');
      emit(`settlement_pdf_${mode}_p99_ms`, m.pdfP99, 'ms');
      emit(`settlement_pdf_${mode}_writes_rps`, m.writesRps, 'req/s');
      emit(`settlement_pdf_${mode}_primary_pg_cpu_pct`, m.primaryCpuPct, '%', 0);
      emit(`settlement_pdf_${mode}_standby_pg_cpu_pct`, m.standbyCpuPct, '%', 0);
      non2xx += m.non2xx;
    }
    if (r.replica.fromStandby === 0) throw new Error('settlement_pdf_replica: no PDF came from a standby');
  }

  log(`done in ${((now() - t0) / 1000).toFixed(1)} s; load average now ${load1()}`);
  if (non2xx > 0) {
    log(`FAILED: ${non2xx} non-2xx answers (warm-up included); see the examples above`);
    process.exitCode = 1;
  }
}

const watchdog = setTimeout(() => {
  log(`still running after ${WATCHDOG_MS / 60000} minutes: giving up`);
  runCleanup().finally(() => process.exit(1));
}, WATCHDOG_MS);
watchdog.unref();

await runMain(main);
