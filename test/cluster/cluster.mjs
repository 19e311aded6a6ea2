// A highly available PostgreSQL cluster on one machine, for the fault test
// (test/cluster/fault-test.mjs) and the standby-read bench: etcd (the failover manager's
// store), three PostgreSQL nodes (Debian's, 15 on bookworm) each under Patroni (one primary, one synchronous
// standby, one asynchronous), HAProxy in front (a port that reaches the primary only and
// one that reaches the standbys), and PgBouncer in transaction pooling mode in front of
// HAProxy's primary port. Everything listens on 127.0.0.1 on free ports, under one
// temporary folder, and `stop()` tears all of it down.
//
// The Debian packages (patroni, etcd-server, haproxy, pgbouncer, postgresql) are
// installed when missing, as root (apt-get install -y), like the other tools CI needs.
// PostgreSQL refuses to run as root: as root, Patroni, PostgreSQL and PgBouncer run as
// the `postgres` user.

import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupAlive, signalGroup } from '../../bench/lib/app.mjs';
import { freePort, sleep } from '../../bench/lib/util.mjs';

/** The newest PostgreSQL of Debian's packages on this machine (15 on bookworm, installed when none is). */
function pgBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? join(root, versions[0], 'bin') : null;
}
const SCOPE = 'bgclub';

/** The failover manager's timings: a lost leader key expires after TTL s; every member looks every LOOP_WAIT s. */
export const TIMINGS = { ttl: 10, loopWait: 1, retryTimeout: 4 };

const log = (line) => process.stderr.write(`[cluster] ${line}\n`);

/** Installs the Debian packages the cluster needs when one is missing (as root). */
export function installTools() {
  const missing = [];
  if (!existsSync('/usr/bin/patroni')) missing.push('patroni');
  if (!existsSync('/usr/bin/etcd')) missing.push('etcd-server');
  if (!existsSync('/usr/sbin/haproxy')) missing.push('haproxy');
  if (!existsSync('/usr/sbin/pgbouncer')) missing.push('pgbouncer');
  if (pgBin() === null) missing.push('postgresql');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`the cluster needs Debian's ${missing.join(', ')}: install them (apt-get install -y ${missing.join(' ')})`);
  log(`installing ${missing.join(', ')}`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** The uid and gid of `user`. */
function idsOf(user) {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** GET on a Patroni REST API (or etcd's): the status and the parsed body (status 0 when nothing answers). */
export function patroniGet(port, path, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, timeout: timeoutMs, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        let json = null;
        try {
          json = JSON.parse(body);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: json });
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: null }));
  });
}

/** A process of the cluster: started in its own process group, its output appended to a log file. */
function start(label, command, args, { logFile, owner, env }) {
  writeFileSync(logFile, '', { flag: 'a' });
  if (owner) chownSync(logFile, owner.uid, owner.gid);
  const proc = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', ...env },
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
  });
  const keep = (chunk) => appendFileSync(logFile, chunk);
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal)));
  return { label, proc, pgid: proc.pid, exited, logFile };
}

async function stopGroup(p, graceMs = 20_000) {
  if (!groupAlive(p.pgid)) return;
  signalGroup(p.pgid, 'SIGTERM');
  const until = Date.now() + graceMs;
  while (groupAlive(p.pgid) && Date.now() < until) await sleep(100);
  if (groupAlive(p.pgid)) signalGroup(p.pgid, 'SIGKILL');
  for (let i = 0; i < 50 && groupAlive(p.pgid); i++) await sleep(100);
}

const tail = (file, n = 30) => (existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n') : '');

/**
 * Starts the cluster and waits until it has a primary, a synchronous standby and an
 * asynchronous one, all streaming. `onCreated` is given the cluster before its first
 * process starts (to register its teardown: an interrupted start leaves nothing running).
 * @returns {Promise<Cluster>}
 */
export async function startCluster({ nodes: nodeCount = 3, onCreated = (_cluster) => undefined } = {}) {
  installTools();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? idsOf('postgres') : null;
  const dir = mkdtempSync(join(tmpdir(), 'bgclub-cluster-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const own = (path) => {
    if (owner) chownSync(path, owner.uid, owner.gid);
    return path;
  };
  const folder = (path) => {
    mkdirSync(path, { mode: 0o700 });
    return own(path);
  };
  const file = (path, text, mode = 0o644) => {
    writeFileSync(path, text, { mode });
    return own(path);
  };
  const processes = [];
  const cluster = new Cluster(dir, processes);
  // The caller's teardown is in place before the first process starts.
  onCreated(cluster);
  try {
    // etcd: one member is enough on one machine (it is the store the nodes agree through,
    // not one of the machines that may fail here).
    const etcdClient = await freePort();
    const etcdPeer = await freePort();
    folder(join(dir, 'etcd'));
    processes.push(
      start(
        'etcd',
        '/usr/bin/etcd',
        [
          '--name=etcd1',
          `--data-dir=${join(dir, 'etcd', 'data')}`,
          `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
          `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
          `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
          `--initial-cluster=etcd1=http://127.0.0.1:${etcdPeer}`,
          '--enable-v2=true',
        ],
        { logFile: join(dir, 'etcd.log'), owner, env: {} },
      ),
    );
    await waitFor('etcd', async () => (await patroniGet(etcdClient, '/health')).status === 200, 20_000, join(dir, 'etcd.log'));

    for (let i = 1; i <= nodeCount; i++) {
      const node = { name: `pg${i}`, pgPort: await freePort(), restPort: await freePort(), dir: join(dir, `pg${i}`) };
      folder(node.dir);
      folder(join(node.dir, 'sock'));
      node.config = file(join(node.dir, 'patroni.yml'), JSON.stringify(patroniConfig(node, etcdClient), null, 2));
      cluster.nodes.push(node);
    }
    // The first node bootstraps the cluster; the others clone it once it leads.
    for (const node of cluster.nodes) {
      cluster.startNode(node.name);
      if (node === cluster.nodes[0]) await waitFor(`${node.name} as primary`, async () => (await patroniGet(node.restPort, '/primary')).status === 200, 60_000, node.logFile);
    }
    await cluster.waitHealthy(90_000);

    // HAProxy: the primary port follows Patroni's /primary (200 on the leader only), the
    // standby port /replica; a node that stops being what its port wants has its
    // connections cut at once, so nobody keeps writing to a demoted primary.
    cluster.haproxyPort = await freePort();
    cluster.haproxyReplicaPort = await freePort();
    const haproxyCfg = file(join(dir, 'haproxy.cfg'), haproxyConfig(cluster));
    processes.push(start('haproxy', '/usr/sbin/haproxy', ['-db', '-f', haproxyCfg], { logFile: join(dir, 'haproxy.log'), owner: null, env: {} }));
    await waitFor('HAProxy to the primary', () => pgAnswers(cluster.haproxyPort), 20_000, join(dir, 'haproxy.log'));

    // PgBouncer in transaction pooling mode, in front of HAProxy's primary port: the app
    // instances' many client connections share a few server connections, and a server
    // connection lost in a failover is replaced through HAProxy on the next transaction.
    cluster.pgbouncerPort = await freePort();
    file(join(dir, 'userlist.txt'), '"postgres" ""\n', 0o600);
    const ini = file(join(dir, 'pgbouncer.ini'), pgbouncerConfig(cluster, dir));
    processes.push(start('pgbouncer', '/usr/sbin/pgbouncer', [ini], { logFile: join(dir, 'pgbouncer.log'), owner, env: {} }));
    await waitFor('PgBouncer', () => pgAnswers(cluster.pgbouncerPort), 20_000, join(dir, 'pgbouncer.log'));
    log(`up in ${dir}: primary via HAProxy 127.0.0.1:${cluster.haproxyPort}, standbys 127.0.0.1:${cluster.haproxyReplicaPort}, PgBouncer 127.0.0.1:${cluster.pgbouncerPort}`);
    return cluster;
  } catch (e) {
    await cluster.stop();
    throw e;
  }
}

function patroniConfig(node, etcdClient) {
  return {
    scope: SCOPE,
    name: node.name,
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    etcd3: { hosts: [`127.0.0.1:${etcdClient}`] },
    watchdog: { mode: 'off' },
    bootstrap: {
      dcs: {
        ttl: TIMINGS.ttl,
        loop_wait: TIMINGS.loopWait,
        retry_timeout: TIMINGS.retryTimeout,
        maximum_lag_on_failover: 1048576,
        // The failover manager promotes only the synchronous standby, so every COMMIT the
        // primary acknowledged is on the new primary; when the synchronous standby is lost,
        // Patroni makes the other standby synchronous.
        synchronous_mode: true,
        synchronous_node_count: 1,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            // A COMMIT returns once the synchronous standby has the commit on disk.
            synchronous_commit: 'on',
            wal_level: 'replica',
            hot_standby: 'on',
            wal_log_hints: 'on',
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: '256MB',
            // A standby that stops answering is noticed within 3 s, not the default minute.
            wal_sender_timeout: '3s',
            wal_receiver_timeout: '3s',
            hot_standby_feedback: 'on',
            max_connections: 200,
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: join(node.dir, 'data'),
      bin_dir: pgBin(),
      pgpass: join(node.dir, 'pgpass'),
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'replicator', password: 'replicator' },
        rewind: { username: 'postgres', password: 'postgres' },
      },
      parameters: { unix_socket_directories: join(node.dir, 'sock'), fsync: 'on' },
      pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication replicator 127.0.0.1/32 trust'],
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

function haproxyConfig(cluster) {
  const servers = (check) =>
    cluster.nodes.map((n) => `    server ${n.name} 127.0.0.1:${n.pgPort} maxconn 200 check port ${n.restPort}`).join('\n') +
    `\n    option httpchk\n    http-check send meth GET uri ${check}\n    http-check expect status 200`;
  return `# Written by test/cluster/cluster.mjs for one run.
global
    maxconn 1000

defaults
    mode tcp
    retries 2
    timeout client 30m
    timeout server 30m
    timeout connect 2s
    timeout check 1s
    default-server inter 500ms fastinter 250ms downinter 500ms rise 1 fall 2 on-marked-down shutdown-sessions

listen primary
    bind 127.0.0.1:${cluster.haproxyPort}
${servers('/primary')}

listen replicas
    bind 127.0.0.1:${cluster.haproxyReplicaPort}
    balance roundrobin
${servers('/replica')}
`;
}

function pgbouncerConfig(cluster, dir) {
  return `;; Written by test/cluster/cluster.mjs for one run.
[databases]
* = host=127.0.0.1 port=${cluster.haproxyPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${cluster.pgbouncerPort}
unix_socket_dir = ${dir}
pool_mode = transaction
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
ignore_startup_parameters = extra_float_digits
max_client_conn = 400
default_pool_size = 20
;; A server connection that failed (its node died or was demoted) is not handed out again;
;; a new one is opened through HAProxy, to whichever node is primary then.
server_check_delay = 0
server_check_query = select 1
server_connect_timeout = 2
server_login_retry = 1
server_idle_timeout = 3
`;
}

/** Whether a PostgreSQL (or a proxy to one) on `port` answers a query. */
async function pgAnswers(port) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 1000, query_timeout: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitFor(what, test, ms, logFile) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await test()) return;
    await sleep(200);
  }
  throw new Error(`${what}: not ready within ${ms} ms${logFile ? `; the end of ${logFile}:\n${tail(logFile)}` : ''}`);
}

export class Cluster {
  constructor(dir, processes) {
    this.dir = dir;
    /** The cluster-wide processes (etcd, HAProxy, PgBouncer). */
    this.processes = processes;
    /** @type {Array<{ name: string, pgPort: number, restPort: number, dir: string, config: string, logFile?: string, process?: any }>} */
    this.nodes = [];
    this.haproxyPort = 0;
    this.haproxyReplicaPort = 0;
    this.pgbouncerPort = 0;
    this.owner = process.getuid?.() === 0 ? idsOf('postgres') : null;
  }

  /** The superuser's URL through HAProxy to the primary (direct, unpooled). */
  get primaryUrl() {
    return `postgres://postgres@127.0.0.1:${this.haproxyPort}/postgres`;
  }

  /** The superuser's URL through HAProxy to a standby. */
  get replicaUrl() {
    return `postgres://postgres@127.0.0.1:${this.haproxyReplicaPort}/postgres`;
  }

  /** The superuser's URL through PgBouncer (transaction pooling) to the primary. */
  get pooledUrl() {
    return `postgres://postgres@127.0.0.1:${this.pgbouncerPort}/postgres`;
  }

  node(name) {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  }

  /** Starts (or restarts) a node's Patroni, which starts its PostgreSQL (and rewinds or clones it as needed). */
  startNode(name) {
    const node = this.node(name);
    node.logFile = join(this.dir, `${name}.log`);
    node.process = start(name, '/usr/bin/patroni', [node.config], { logFile: node.logFile, owner: this.owner, env: {} });
  }

  /** The machine dies: SIGKILL to its Patroni and every PostgreSQL process of the node at once. */
  killNode(name) {
    const node = this.node(name);
    if (node.process) signalGroup(node.process.pgid, 'SIGKILL');
    this.killPostgresOf(node, 'SIGKILL');
  }

  /** The node's PostgreSQL processes (found by the postmaster's pid file and its children). */
  postgresPids(node) {
    const pidFile = join(node.dir, 'data', 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!Number.isInteger(postmaster) || postmaster <= 0) return [];
    let children = [];
    try {
      children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      // none
    }
    return [postmaster, ...children];
  }

  killPostgresOf(node, signal) {
    for (const pid of this.postgresPids(node)) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone
      }
    }
  }

  /** A clean stop of a node: Patroni shuts its PostgreSQL down and hands the leader key over. */
  async stopNode(name) {
    const node = this.node(name);
    if (node.process) await stopGroup(node.process, 60_000);
  }

  /** The network to a node is cut: its processes freeze (SIGSTOP) until `resumeNode`. */
  freezeNode(name) {
    const node = this.node(name);
    if (node.process) signalGroup(node.process.pgid, 'SIGSTOP');
    this.killPostgresOf(node, 'SIGSTOP');
  }

  resumeNode(name) {
    const node = this.node(name);
    this.killPostgresOf(node, 'SIGCONT');
    if (node.process) signalGroup(node.process.pgid, 'SIGCONT');
  }

  /** Patroni's view of the cluster: each member's name, role and state. */
  async members() {
    for (const node of this.nodes) {
      const r = await patroniGet(node.restPort, '/cluster');
      if (r.status === 200 && r.body?.members) return r.body.members;
    }
    return [];
  }

  async roleOf(role) {
    const m = (await this.members()).find((x) => x.role === role && (x.state === 'running' || x.state === 'streaming'));
    return m ? m.name : null;
  }

  /** The current leader's name, or null. */
  primary() {
    return this.roleOf('leader');
  }

  /** The current synchronous standby's name, or null. */
  syncStandby() {
    return this.roleOf('sync_standby');
  }

  /** Waits until there is a leader, a synchronous standby and every other node streams from it. */
  async waitHealthy(ms = 120_000) {
    const until = Date.now() + ms;
    let last = [];
    while (Date.now() < until) {
      last = await this.members();
      // Patroni 3.0 says `running` of a standby that streams (later versions: `streaming`).
      const up = (m) => m.state === 'running' || m.state === 'streaming';
      const leader = last.filter((m) => m.role === 'leader' && up(m)).length;
      const sync = last.filter((m) => m.role === 'sync_standby' && up(m)).length;
      const standbys = last.filter((m) => m.role !== 'leader' && up(m) && typeof m.lag === 'number').length;
      if (leader === 1 && sync === 1 && standbys === this.nodes.length - 1) return last;
      await sleep(250);
    }
    throw new Error(`the cluster did not become healthy within ${ms} ms: ${JSON.stringify(last)}\n${this.nodes.map((n) => `${n.name}:\n${tail(n.logFile ?? '', 15)}`).join('\n')}`);
  }

  /** Stops everything (nodes first, then PgBouncer, HAProxy and etcd) and removes the folder; once. */
  stop() {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  async stopAll() {
    for (const node of this.nodes) {
      this.resumeNode(node.name);
      if (node.process) await stopGroup(node.process, 30_000);
      // A PostgreSQL left by a killed Patroni.
      this.killPostgresOf(node, 'SIGKILL');
    }
    for (const p of [...this.processes].reverse()) await stopGroup(p, 10_000);
    if (process.env.CLUSTER_KEEP) log(`kept ${this.dir}`);
    else rmSync(this.dir, { recursive: true, force: true });
  }
}
