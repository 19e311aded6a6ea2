// The fault test: a burst of recorded games through two app instances on the highly
// available cluster (test/cluster/cluster.mjs), and during it three faults:
//
//   1. kill -9 of the primary (its Patroni and every PostgreSQL process: the machine is lost);
//   2. a clean stop of the new primary (a switchover);
//   3. the synchronous standby cut off: its processes frozen (SIGSTOP), so the primary's
//      COMMITs wait for it until the failover manager makes the other standby synchronous.
//
// 20 scorers (tablets), half on each instance (A through PgBouncer, B straight to HAProxy),
// each with a money table of its own, record
// whole games one after the other. Each game goes with an Idempotency-Key; a 503 (or a
// connection the instance dropped) is retried with the same key on the other instance
// until it is acknowledged. After each fault (once the cluster has its three nodes back)
// the scorers pause and the test checks, against what the scorers saw acknowledged: every
// acknowledged game is in the database exactly once, no game is there that was not
// acknowledged, every session's statement sums to zero and gives each player exactly the
// money of his acknowledged games, the read models equal a rebuild, and neither a reader
// that followed GET /v1/events throughout nor a live stream (GET /v1/events/stream,
// reconnecting with Last-Event-ID) missed an event of the log.
//
//   npm run cluster-test             the whole run (about 2 minutes)
//   npm run cluster-test -- --short  the short run CI makes
//
// Exits 1 when an acknowledged write is lost or doubled, an answer is a 5xx other than
// 503, or a check fails. CLUSTER_KEEP=1 keeps the cluster's folder (logs) at the end.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { Api, moneyGame } from '../../bench/lib/api.mjs';
import { ROOT, startApp } from '../../bench/lib/app.mjs';
import { onCleanup, runMain } from '../../bench/lib/cleanup.mjs';
import { HttpClient, onSseFrames } from '../../bench/lib/http.mjs';
import { now, sleep } from '../../bench/lib/util.mjs';
import { startCluster } from './cluster.mjs';

const SHORT = process.argv.includes('--short');
const SCORERS = 20;
const TABLES_PER_SESSION = 5;
/** Writes before the first fault, and after each recovery before the checks (ms). */
const STEADY_MS = SHORT ? 3000 : 10_000;
const STAKE = 100;
const ADMIN_TOKEN = `bgop_cluster_${randomUUID()}`;

const say = (line) => process.stdout.write(`${line}\n`);

/** A money game's points for the table's first player: the shapes of moneyGame in turn (bench/lib/api.mjs). */
const POINTS_FOR_A = [2, -1, -1, -4, 4];

class Figures {
  constructor(name) {
    this.name = name;
    this.acknowledged = 0;
    this.replayed = 0;
    this.status503 = 0;
    this.dropped = 0;
    this.other5xx = 0;
    this.otherFailures = 0;
    this.samples = [];
    this.faultAt = 0;
    this.noPrimaryMs = 0;
    this.firstWriteAfterMs = NaN;
    this.readyDuringGap = { ready503: 0, ready200: 0 };
    /** The 503 answers by their code. */
    this.codes503 = {};
  }
}

async function main() {
  // Registered before anything starts, so an interrupted start is torn down too.
  const cluster = await startCluster({ onCreated: (c) => onCleanup('stop the cluster', () => c.stop()) });

  const env = {
    // Instance A's connections go through PgBouncer (transaction pooling) to HAProxy's
    // primary port, LISTEN and the start-up migrations to HAProxy directly; instance B's
    // all go to HAProxy directly (session mode), so both ways are tested.
    DATABASE_URL: cluster.pooledUrl,
    DATABASE_POOL_MODE: 'transaction',
    DATABASE_LISTEN_URL: cluster.primaryUrl,
    // The statement, standings and games export may come from a standby (Prefer: replica).
    DATABASE_REPLICA_URL: cluster.replicaUrl,
    MIGRATION_DATABASE_URL: cluster.primaryUrl,
    ALLOW_PRIVILEGED_DATABASE_ROLE: '1',
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    WEBHOOK_WORKER: 'off',
    RATE_LIMIT: '0',
  };
  const direct = { ...env, DATABASE_URL: cluster.primaryUrl, DATABASE_POOL_MODE: 'session' };
  delete direct.DATABASE_LISTEN_URL;
  const apps = [await startApp({ env, label: 'app A' }), await startApp({ env: direct, label: 'app B' })];
  say(`two app instances: A ${apps[0].url} (through PgBouncer, transaction pooling), B ${apps[1].url} (HAProxy directly, session mode)`);
  const clients = apps.map((a) => new HttpClient(a.url, { connections: SCORERS + 4 }));

  // The club, its players, sessions and tables, one scorer key per tablet.
  const owner = await Api.newClub(clients[0], ADMIN_TOKEN, 'Cluster club');
  const clubId = await owner.clubId();
  const players = await owner.players('Cluster player', 2 * SCORERS);
  const sessions = [];
  for (let s = 0; s < SCORERS / TABLES_PER_SESSION; s++) sessions.push(await owner.session(`Cluster evening ${s + 1}`));
  const keys = await owner.tabletKeys('Cluster tablet', SCORERS);
  const tables = [];
  for (let i = 0; i < SCORERS; i++) {
    const a = players[2 * i];
    const b = players[2 * i + 1];
    const session = sessions[Math.floor(i / TABLES_PER_SESSION)];
    tables.push({ id: await owner.moneyTable(session, a, b, STAKE), a, b, session, acknowledged: [] });
  }

  const all = new Figures('total');
  let phase = new Figures('steady');
  const phases = [];
  let paused = false;
  let stopped = false;
  const idle = new Array(SCORERS).fill(false);

  /** One scorer: whole games at its table, each retried with its key until acknowledged. */
  const scorer = async (i) => {
    const t = tables[i];
    for (let k = 0; !stopped; k++) {
      while (paused && !stopped) {
        idle[i] = true;
        await sleep(20);
      }
      idle[i] = false;
      if (stopped) break;
      const key = randomUUID();
      const body = { actions: moneyGame(t.a, t.b, k) };
      for (let attempt = 0; ; attempt++) {
        const via = (i + attempt) % 2;
        let reply = null;
        const sentAt = now();
        try {
          reply = await clients[via].post(`/v1/money-games/${t.id}/games`, body, { token: keys[i], headers: { 'idempotency-key': key } });
        } catch {
          // The instance dropped the connection: retried as a 503 would be.
        }
        const count = (field) => {
          phase[field]++;
          all[field]++;
        };
        if (reply?.ok) {
          const game = reply.json();
          t.acknowledged.push({ k, key, number: game.number ?? game.gameNo ?? game.game?.number, at: now() });
          count('acknowledged');
          if (reply.headers['idempotent-replayed'] === 'true') count('replayed');
          // The first write sent after the fault that is acknowledged (one already in flight does not count).
          if (phase.faultAt && sentAt > phase.faultAt && Number.isNaN(phase.firstWriteAfterMs)) phase.firstWriteAfterMs = now() - phase.faultAt;
          break;
        }
        if (reply === null) count('dropped');
        else if (reply.status === 503) {
          count('status503');
          let code = 'unknown';
          try {
            code = reply.json().code;
          } catch {
            // not problem+json
          }
          phase.codes503[code] = (phase.codes503[code] ?? 0) + 1;
        } else {
          count(reply.status >= 500 ? 'other5xx' : 'otherFailures');
          if (all.samples.length < 10) all.samples.push(`${reply.label} → ${reply.status} ${reply.text().slice(0, 300)}`);
          if (reply.status < 500) break; // a refusal is not retried (and is reported)
        }
        await sleep(100);
      }
    }
    idle[i] = true;
  };

  // A reader that follows the event log through instance B, as an integration would.
  const seen = [];
  let cursor = null;
  let readerStopped = false;
  const reader = (async () => {
    while (!readerStopped) {
      let reply = null;
      try {
        reply = await clients[1].get(`/v1/events?limit=500${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`, { token: owner.token });
      } catch {
        // retried
      }
      if (reply?.ok) {
        const page = reply.json();
        for (const e of page.items) seen.push(e.id);
        if (page.nextCursor) cursor = page.nextCursor;
        else if (page.items.length) cursor = page.items[page.items.length - 1].id;
        if (page.items.length === 500) continue;
      }
      await sleep(100);
    }
  })();

  // A live stream (GET /v1/events/stream) through instance A, as the club's screens and
  // integrations follow it: when the stream ends (the instance lost the database, say) it
  // reconnects with Last-Event-ID, and must miss nothing.
  const streamed = [];
  let streamLastId = null;
  let streamStopped = false;
  let streamReconnects = 0;
  let streamRequest = null;
  const streamUrl = new URL(apps[0].url);
  const stream = (async () => {
    while (!streamStopped) {
      await new Promise((resolve) => {
        const headers = { accept: 'text/event-stream', authorization: `Bearer ${owner.token}`, ...(streamLastId ? { 'last-event-id': streamLastId } : {}) };
        streamRequest = http.get({ host: streamUrl.hostname, port: Number(streamUrl.port), path: '/v1/events/stream', headers, agent: false }, (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            res.on('end', resolve);
            return;
          }
          onSseFrames(res, (frame) => {
            const id = /^id: ?(.*)$/m.exec(frame)?.[1];
            if (id === undefined) return;
            streamLastId = id;
            // The opening frame may carry the stream's place alone; an event has a type.
            if (/^event: /m.test(frame)) streamed.push(id);
          });
          res.on('close', resolve);
          res.on('error', resolve);
        });
        streamRequest.on('error', resolve);
      });
      if (!streamStopped) {
        streamReconnects++;
        await sleep(200);
      }
    }
  })();
  // The stream starts from the moment it opens: wait for its first frame before any write.
  while (streamLastId === null) await sleep(20);

  const workers = tables.map((_, i) => scorer(i));
  await sleep(STEADY_MS);

  const admin = () => new pg.Client({ connectionString: cluster.primaryUrl, connectionTimeoutMillis: 2000, query_timeout: 10_000 });

  /** Watches the gap: how long no primary answers through HAProxy, and what /ready says meanwhile. */
  const watchGap = async (f) => {
    let gapStart = null;
    let sawPrimaryAgain = false;
    let sawGap = false;
    const until = now() + 60_000;
    while (!sawPrimaryAgain && now() < until) {
      const isPrimary = await answersAsPrimary(cluster.primaryUrl);
      if (!isPrimary) {
        sawGap = true;
        if (gapStart === null) gapStart = now();
        const ready = await Promise.all(apps.map((a) => readyStatus(a.url)));
        // Counted only when there was still no primary once /ready had answered: at the
        // gap's end a primary may come up between the two looks.
        if (await answersAsPrimary(cluster.primaryUrl)) continue;
        for (const s of ready) {
          if (s === 503) f.readyDuringGap.ready503++;
          else if (s === 200) f.readyDuringGap.ready200++;
        }
      } else if (sawGap || now() - f.faultAt > 3000) {
        sawPrimaryAgain = true;
      }
      await sleep(50);
    }
    f.noPrimaryMs = gapStart === null ? 0 : now() - gapStart;
  };

  const fault = async (name, act, recover) => {
    const f = new Figures(name);
    phase = f;
    // The instant the fault happens (after the victim was looked up).
    const victim = await act(() => (f.faultAt = now()));
    say(`\n== ${name} (${victim}) at ${new Date().toISOString()}`);
    await watchGap(f);
    await recover(victim);
    await cluster.waitHealthy(120_000);
    const until = now() + 60_000;
    while (Number.isNaN(f.firstWriteAfterMs) && now() < until) await sleep(50);
    await sleep(STEADY_MS);
    // Pause the scorers (each finishes the game it is sending) and check.
    paused = true;
    while (!idle.every(Boolean)) await sleep(20);
    await drainReader();
    f.checks = await check();
    phases.push(f);
    report(f);
    paused = false;
  };

  const drainReader = async () => {
    // The reader and the stream have caught up once three looks in a row bring nothing new.
    let last = -1;
    let quiet = 0;
    while (quiet < 3) {
      await sleep(300);
      const now = seen.length + streamed.length;
      if (now === last) quiet++;
      else quiet = 0;
      last = now;
    }
  };

  const check = async () => {
    const db = admin();
    await db.connect();
    const problems = [];
    let lost = 0;
    let doubled = 0;
    let acknowledged = 0;
    try {
      for (const t of tables) {
        const numbers = (await db.query('SELECT game_no FROM games WHERE club_id = $1 AND table_id = $2 ORDER BY game_no', [clubId, t.id])).rows.map((r) => r.game_no);
        const stored = new Set(numbers);
        const acked = t.acknowledged.map((g) => g.number);
        acknowledged += acked.length;
        if (new Set(acked).size !== acked.length) problems.push(`table ${t.id}: two acknowledged games answered the same number`);
        for (const n of acked) if (!stored.has(n)) lost++;
        // Every game was retried until acknowledged: a game stored beyond them was written twice.
        if (numbers.length > acked.length) doubled += numbers.length - acked.length;
      }
      // Each session's statement: it sums to zero and gives every player the money of his acknowledged games.
      for (const session of sessions) {
        const st = await owner.get(`/v1/sessions/${session}/settlement`);
        const sum = st.players.reduce((s, p) => s + p.netMinor, 0) + st.houseMinor;
        if (sum !== 0 || st.totalMinor !== 0) problems.push(`session ${session}: the statement sums to ${sum} (totalMinor ${st.totalMinor})`);
        for (const t of tables.filter((x) => x.session === session)) {
          const expected = t.acknowledged.reduce((s, g) => s + POINTS_FOR_A[g.k % 5] * STAKE, 0);
          const net = st.players.find((p) => p.playerId === t.a)?.netMinor ?? 0;
          if (net !== expected) problems.push(`table ${t.id}: the statement says ${net} for its first player, his acknowledged games ${expected}`);
        }
      }
      // The read models kept by the commands, against a rebuild from the games and the ledger.
      const { rebuildReadModels } = await import(join(ROOT, 'dist', 'src', 'player-stats', 'rebuild.js'));
      const diffs = await rebuildReadModels({ query: async (text, values) => (await db.query(text, values)).rows }, clubId, 'check');
      for (const d of diffs.slice(0, 5)) problems.push(`read model: ${d}`);
      // The event log, read whole now (once), against what the live reader and the stream received.
      const log = [];
      for (let after = null; ;) {
        const page = await owner.get(`/v1/events?limit=500${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        for (const e of page.items) log.push(e.id);
        if (page.items.length < 500) break;
        after = page.nextCursor ?? page.items[page.items.length - 1].id;
      }
      const total = log.length;
      const got = new Set(seen);
      const missed = log.filter((id) => !got.has(id)).length;
      if (missed) problems.push(`the live reader missed ${missed} of the log's ${total} events`);
      // The stream: every event of the log after the first it received must have come.
      const viaStream = new Set(streamed);
      const first = log.findIndex((id) => viaStream.has(id));
      const streamMissed = first < 0 ? log.length : log.slice(first).filter((id) => !viaStream.has(id)).length;
      if (streamMissed) problems.push(`the stream missed ${streamMissed} events (it reconnected ${streamReconnects} times)`);
      if (streamed.length !== viaStream.size) problems.push(`the stream sent ${streamed.length - viaStream.size} events twice`);
      if (seen.length !== got.size) problems.push(`the live reader received ${seen.length - got.size} events twice`);
      const finished = Number((await db.query("SELECT count(*) AS n FROM events WHERE club_id = $1 AND type = 'game.finished'", [clubId])).rows[0].n);
      if (finished !== acknowledged) problems.push(`${finished} game.finished events for ${acknowledged} acknowledged games`);
      return { acknowledged, lost, doubled, events: total, missed, streamed: viaStream.size, streamMissed, streamReconnects, problems };
    } finally {
      await db.end();
    }
  };

  const report = (f) => {
    const c = f.checks;
    say(
      [
        `   written in the phase: ${f.acknowledged} acknowledged (${f.replayed} of them replays of a retried key), ${f.status503} answers 503 ${JSON.stringify(f.codes503)}, ${f.dropped} connections dropped, ${f.other5xx} other 5xx`,
        `   time without a primary: ${f.noPrimaryMs.toFixed(0)} ms; first acknowledged write ${f.firstWriteAfterMs.toFixed(0)} ms after the fault`,
        `   GET /ready while no primary answered: ${f.readyDuringGap.ready503} × 503, ${f.readyDuringGap.ready200} × 200`,
        `   checked: ${c.acknowledged} acknowledged games so far, lost ${c.lost}, doubled ${c.doubled}; ${c.events} events, missed by the live reader ${c.missed}; ` +
          `${c.streamed} through the stream (reconnected ${c.streamReconnects} times), missed ${c.streamMissed}`,
        ...c.problems.map((p) => `   PROBLEM: ${p}`),
      ].join('\n'),
    );
  };

  // A fault that hits the primary of the moment; the node is started again afterwards.
  const onPrimary = (hit) => async (mark) => {
    const p = await cluster.primary();
    mark();
    await hit(p);
    return p;
  };
  const restart = async (victim) => cluster.startNode(victim);
  await fault(
    'kill -9 of the primary',
    onPrimary((p) => cluster.killNode(p)),
    restart,
  );
  await fault(
    'switchover: a clean stop of the primary',
    onPrimary((p) => cluster.stopNode(p)),
    restart,
  );
  await fault(
    'the synchronous standby cut off (its processes frozen)',
    async (mark) => {
      const s = await cluster.syncStandby();
      mark();
      cluster.freezeNode(s);
      return s;
    },
    async (victim) => {
      // Until the other standby is the synchronous one, then the cut one comes back.
      const until = now() + 60_000;
      while (now() < until && ((await cluster.syncStandby()) ?? victim) === victim) await sleep(200);
      cluster.resumeNode(victim);
    },
  );

  stopped = true;
  paused = false;
  await Promise.all(workers);
  readerStopped = true;
  await reader;
  streamStopped = true;
  streamRequest?.destroy();
  await stream;

  // Reads from a standby never older than the client's own last write: a game through one
  // instance, then at once the statement through the other with Prefer: replica and the
  // write's Consistency-Token. The statement must show the game.
  const ryw = { rounds: SHORT ? 40 : 200, fromReplica: 0, fromPrimary: 0, stale: 0, noToken: 0 };
  {
    const t = tables[0];
    let k = t.acknowledged.length ? t.acknowledged[t.acknowledged.length - 1].k + 1 : 0;
    for (let round = 0; round < ryw.rounds; round++, k++) {
      const key = randomUUID();
      const w = await clients[0].post(`/v1/money-games/${t.id}/games`, { actions: moneyGame(t.a, t.b, k) }, { token: keys[0], headers: { 'idempotency-key': key } });
      if (!w.ok) throw new Error(`a write after the faults answered ${w.status}: ${w.text()}`);
      t.acknowledged.push({ k, key, number: w.json().gameNo, at: now() });
      const token = w.headers['consistency-token'];
      if (!token) ryw.noToken++;
      const r = await clients[1].get(`/v1/sessions/${t.session}/settlement`, {
        token: owner.token,
        headers: { prefer: 'replica', ...(token ? { 'consistency-token': String(token) } : {}) },
      });
      if (!r.ok) throw new Error(`a statement read from a standby answered ${r.status}: ${r.text()}`);
      if (r.headers['preference-applied'] === 'replica') ryw.fromReplica++;
      else ryw.fromPrimary++;
      const expected = t.acknowledged.reduce((sum, g) => sum + POINTS_FOR_A[g.k % 5] * STAKE, 0);
      if ((r.json().players.find((p) => p.playerId === t.a)?.netMinor ?? 0) !== expected) ryw.stale++;
    }
  }
  say(
    `\n== reads from a standby after a write (${ryw.rounds} rounds): ${ryw.fromReplica} served by a standby, ${ryw.fromPrimary} by the primary, ${ryw.stale} older than the write, ${ryw.noToken} writes without a token`,
  );

  for (const c of clients) c.close();

  const last = phases[phases.length - 1].checks;
  const problems = phases.flatMap((f) => f.checks.problems);
  say('\n== figures');
  say(`writes acknowledged: ${all.acknowledged} (a separate client's count: the scorers')`);
  say(`lost: ${last.lost}`);
  say(`doubled: ${last.doubled}`);
  say(`5xx other than 503: ${all.other5xx}`);
  say(`503 answers: ${all.status503}; connections dropped: ${all.dropped}; refusals (4xx): ${all.otherFailures}`);
  for (const f of phases) say(`${f.name}: ${f.noPrimaryMs.toFixed(0)} ms without a primary, first write ${f.firstWriteAfterMs.toFixed(0)} ms after the fault`);
  for (const s of all.samples) say(`sample: ${s}`);
  const failed =
    ryw.stale > 0 ||
    ryw.noToken > 0 ||
    ryw.fromReplica === 0 ||
    last.lost > 0 ||
    last.doubled > 0 ||
    all.other5xx > 0 ||
    all.otherFailures > 0 ||
    problems.length > 0 ||
    phases.some((f) => f.checks.lost || f.checks.doubled);
  say(failed ? 'FAILED' : 'passed');
  if (failed) process.exitCode = 1;
}

/** Whether a primary (not in recovery) answers on this URL. */
async function answersAsPrimary(url) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 300, query_timeout: 300 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    const r = await c.query('SELECT pg_is_in_recovery() AS standby');
    return r.rows[0].standby === false;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function readyStatus(url) {
  const client = new HttpClient(url, { connections: 1 });
  try {
    return (await client.get('/ready')).status;
  } catch {
    return 0;
  } finally {
    client.close();
  }
}

await runMain(main);
