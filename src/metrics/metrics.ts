import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppConfig } from '../config';
import { CONFIG } from '../config.provider';
import { Db } from '../db/db.service';

/** The route label of a request no route matched (404, 405): the label set stays bounded. */
export const UNMATCHED = 'unmatched';

/** How long the look at the event log and the webhook queue may take at a scrape. */
const QUERY_TIMEOUT_MS = 1000;

/**
 * The cheap questions a scrape asks the database, in one statement (Db.probe: cancelled
 * after QUERY_TIMEOUT_MS). Each reads an index or a narrow range of one: pending
 * deliveries through the partial index on pending ones; the newest event and the recent
 * failed deliveries through the BRIN indexes on their timestamps.
 */
const QUEUE_SQL = `SELECT
  (SELECT extract(epoch FROM now() - max(occurred_at))::float8 FROM events WHERE occurred_at > now() - interval '1 day') AS newest_event_age,
  (SELECT count(*)::float8 FROM webhook_deliveries WHERE state = 'pending') AS pending,
  (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 FROM webhook_deliveries WHERE state = 'pending') AS oldest_pending_age,
  (SELECT count(*)::float8 FROM webhook_deliveries WHERE state = 'failed' AND created_at > now() - interval '7 days') AS failed_recent`;

/**
 * The instance's Prometheus metrics (prom-client, a registry of its own): requests by
 * route template, method and status; their latency by route template; the app's
 * database pool; the event log and the webhook queue, read at each scrape; and the
 * process's own (prom-client's default metrics: CPU, memory, event loop lag, handles).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly poolInUse: Gauge;
  private readonly poolIdle: Gauge;
  private readonly poolWaiting: Gauge;
  private readonly newestEventAge: Gauge;
  private readonly pending: Gauge;
  private readonly oldestPendingAge: Gauge;
  private readonly failedRecent: Gauge;
  private readonly queriesUp: Gauge;
  /** The scrape's database look in flight, shared by concurrent scrapes. */
  private looking: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    @Inject(CONFIG) readonly config: AppConfig,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'bgclub_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'bgclub_http_request_duration_seconds',
      help: 'Time from receiving a request to having answered it, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const pool = this.db.pool;
    this.poolInUse = new Gauge({
      name: 'bgclub_db_pool_connections_in_use',
      help: "Connections of the app's database pool held by a request or a job.",
      registers,
      collect: () => this.poolInUse.set(pool.totalCount - pool.idleCount),
    });
    this.poolIdle = new Gauge({
      name: 'bgclub_db_pool_connections_idle',
      help: "Open connections of the app's database pool waiting for work.",
      registers,
      collect: () => this.poolIdle.set(pool.idleCount),
    });
    this.poolWaiting = new Gauge({
      name: 'bgclub_db_pool_waiting',
      help: "Requests and jobs waiting for a connection of the app's database pool.",
      registers,
      collect: () => this.poolWaiting.set(pool.waitingCount),
    });
    this.newestEventAge = new Gauge({
      name: 'bgclub_events_newest_age_seconds',
      help: 'Age of the newest event in the event log; NaN when none was written in the last day (or the database did not answer).',
      registers,
    });
    this.pending = new Gauge({
      name: 'bgclub_webhook_deliveries_pending',
      help: 'Webhook deliveries not yet delivered nor given up (waiting for their first attempt or a retry).',
      registers,
    });
    this.oldestPendingAge = new Gauge({ name: 'bgclub_webhook_oldest_pending_age_seconds', help: 'Age of the oldest pending webhook delivery (0 when none is pending).', registers });
    this.failedRecent = new Gauge({
      name: 'bgclub_webhook_deliveries_failed_recent',
      help: 'Webhook deliveries given up (every attempt failed, or the subscription was disabled), among those created in the last 7 days.',
      registers,
    });
    this.queriesUp = new Gauge({
      name: 'bgclub_metrics_database_up',
      help: 'Whether the event log and webhook queue figures of this scrape could be read (1) or the database did not answer in time (0: those figures are NaN).',
      registers,
    });
  }

  /** Counts one answered request (a Fastify onResponse hook). */
  observe(req: FastifyRequest, reply: FastifyReply): void {
    const route = req.routeOptions.url ?? UNMATCHED;
    this.requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    this.latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  }

  /** The text exposition of every metric, the database figures read now. */
  async scrape(): Promise<string> {
    this.looking ??= this.lookAtQueues().finally(() => (this.looking = null));
    await this.looking;
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async lookAtQueues(): Promise<void> {
    const figures = [this.newestEventAge, this.pending, this.oldestPendingAge, this.failedRecent];
    try {
      const [row] = await this.db.probe(QUEUE_SQL, QUERY_TIMEOUT_MS);
      const value = (name: string) => (row[name] === null || row[name] === undefined ? NaN : Number(row[name]));
      this.newestEventAge.set(value('newest_event_age'));
      this.pending.set(value('pending'));
      this.oldestPendingAge.set(value('oldest_pending_age'));
      this.failedRecent.set(value('failed_recent'));
      this.queriesUp.set(1);
    } catch {
      for (const g of figures) g.set(NaN);
      this.queriesUp.set(0);
    }
  }
}
