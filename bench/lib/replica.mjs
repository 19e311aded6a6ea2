// `settlement_pdf_replica` (opt-in: BENCH_ONLY=settlement_pdf_replica; it starts a
// highly available cluster of its own, test/cluster/cluster.mjs, so it needs Debian's
// patroni, etcd-server and haproxy, installed when missing as root).
//
// A session of seeded games; then, taking turns, two loads of the same shape: 2
// connections fetching its settlement PDF and 8 scorers recording whole games. In one the
// PDFs are read from the primary; in the other with `Prefer: replica` (and each scorer's
// Consistency-Token does not matter: the PDF reader writes nothing). Answers the PDF rate
// and latency, the write rate beside it, and the CPU the primary's and the standbys'
// PostgreSQL processes spent meanwhile (% of one core).

import { startCluster } from '../../test/cluster/cluster.mjs';
import { Api, moneyGame } from './api.mjs';
import { startApp } from './app.mjs';
import { onCleanup } from './cleanup.mjs';
import { cpuTimes, HttpClient, Recorder, runLoad } from './http.mjs';
import { seedSettlementSession } from './seed.mjs';
import { log } from './util.mjs';

/**
 * CPU (ms) of a node's PostgreSQL: the postmaster with the backends it reaped, and its
 * live children.
 * @param {import('../../test/cluster/cluster.mjs').Cluster} cluster
 */
function nodeCpuMs(cluster, node) {
  const [postmaster, ...children] = cluster.postgresPids(node);
  if (postmaster === undefined) return 0;
  const main = cpuTimes(postmaster);
  return (main ? main.ownMs + main.reapedMs : 0) + children.reduce((sum, pid) => sum + (cpuTimes(pid)?.ownMs ?? 0), 0);
}

/**
 * @param {{ adminToken: string, warmupMs: number, durationMs: number, rounds: number, games: number }} o
 */
export async function settlementFromStandby({ adminToken, warmupMs, durationMs, rounds, games }) {
  const cluster = await startCluster({ onCreated: (c) => onCleanup('stop the cluster', () => c.stop()) });
  const app = await startApp({
    env: {
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_REPLICA_URL: cluster.replicaUrl,
      ALLOW_PRIVILEGED_DATABASE_ROLE: '1',
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      WEBHOOK_WORKER: 'off',
      RATE_LIMIT: '0',
    },
    label: 'app on the cluster',
  });
  const client = new HttpClient(app.url, { connections: 16 });
  try {
    const api = await Api.newClub(client, adminToken, 'Standby bench club');
    log(`settlement_pdf_replica: seeding a session with ${games} games…`);
    const seeded = await seedSettlementSession(api, { games, workers: 8 });
    const path = `/v1/sessions/${seeded.sessionId}/settlement`;
    const players = await api.players('Standby bench scorer', 16);
    const session = await api.session('Standby bench writes');
    const tables = [];
    for (let i = 0; i < 8; i++) tables.push({ id: await api.moneyTable(session, players[2 * i], players[2 * i + 1]), a: players[2 * i], b: players[2 * i + 1], k: 0 });
    const primaryNode = () => cluster.primary();

    const modes = [
      { name: 'primary', headers: {} },
      { name: 'replica', headers: { prefer: 'replica' } },
    ];
    const totals = new Map(modes.map((m) => [m.name, { pdf: new Recorder(), seconds: 0, writes: 0, writeSeconds: 0, wallMs: 0, pdfs: 0, fromStandby: 0, primaryCpu: 0, standbyCpu: 0 }]));
    for (let r = 0; r < rounds; r++) {
      for (const mode of modes) {
        const t = totals.get(mode.name);
        const leader = await primaryNode();
        const before = cluster.nodes.map((n) => [n.name, nodeCpuMs(cluster, n)]);
        const startedAt = performance.now();
        let writes = 0;
        const s = await runLoad({
          name: `settlement_pdf_${mode.name} (round ${r + 1}/${rounds})`,
          connections: 10,
          warmupMs: r === 0 ? warmupMs : 1000,
          durationMs: durationMs / rounds,
          step: async (c, record) => {
            if (c < 2) {
              const reply = await client.get(path, { token: api.token, headers: { accept: 'application/pdf', ...mode.headers } });
              record(reply);
              t.pdfs++;
              if (reply.headers['preference-applied'] === 'replica') t.fromStandby++;
            } else {
              const table = tables[c - 2];
              const reply = await client.post(`/v1/money-games/${table.id}/games`, { actions: moneyGame(table.a, table.b, table.k++) }, { token: api.token });
              if (!reply.ok) record(reply, false);
              else writes++;
            }
          },
        });
        const after = new Map(cluster.nodes.map((n) => [n.name, nodeCpuMs(cluster, n)]));
        t.wallMs += performance.now() - startedAt;
        for (const [name, cpu] of before) {
          const used = (after.get(name) ?? cpu) - cpu;
          if (name === leader) t.primaryCpu += used;
          else t.standbyCpu += used;
        }
        t.pdf.merge(/** @type {Recorder} */ (s.recorder));
        t.seconds += s.seconds;
        t.writes += writes;
        t.writeSeconds += s.seconds + (r === 0 ? warmupMs : 1000) / 1000;
      }
    }
    const out = {};
    for (const [name, t] of totals) {
      const pdf = t.pdf.summary(t.seconds);
      out[name] = {
        pdfRps: pdf.rps,
        pdfP50: pdf.p50,
        pdfP99: pdf.p99,
        writesRps: t.writes / t.writeSeconds,
        fromStandby: t.fromStandby,
        pdfs: t.pdfs,
        // PostgreSQL's CPU, in % of one core, over the whole turns (warm-ups included).
        primaryCpuPct: (100 * t.primaryCpu) / t.wallMs,
        standbyCpuPct: (100 * t.standbyCpu) / t.wallMs,
        non2xx: pdf.non2xx,
      };
      log(
        `settlement_pdf_${name}: ${pdf.rps.toFixed(1)} PDFs/s, p50 ${pdf.p50.toFixed(1)} ms, p99 ${pdf.p99.toFixed(1)} ms; ${t.fromStandby} of ${t.pdfs} from a standby; ` +
          `writes beside them ${(t.writes / t.writeSeconds).toFixed(0)}/s; PostgreSQL CPU: primary ${((100 * t.primaryCpu) / t.wallMs).toFixed(0)} % of a core, standbys ${((100 * t.standbyCpu) / t.wallMs).toFixed(0)} %`,
      );
    }
    return out;
  } finally {
    client.close();
    await app.stop();
    await cluster.stop();
  }
}
