import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { StatementFailed } from '../common/db-failures';
import { uuid7 } from '../common/uuid';
import type { AppConfig } from '../config';
import { CONFIG } from '../config.provider';
import { Db } from '../db/db.service';
import { PgListener } from '../db/listener';
import { EVENTS_CHANNEL } from '../outbox/outbox';
import { DEFAULT_RETRY_SCHEDULE, retryDelaySeconds } from './retry-schedule';
import { openSecret } from './secret-seal';
import { sendWebhook, SendResult } from './sender';
import { eventBody, signedHeaders } from './signing';
import { ClaimedDelivery, NewAttempt, Outcome, WebhooksRepository } from './webhooks.repository';

/**
 * How long a claim holds a subscription and an attempt: longer than one attempt can take
 * (10 s to send, a few to record), so a live worker never loses it mid-send, and short
 * enough that the subscription of an instance that died waits little.
 */
export const LEASE_SECONDS = 30;
/** Subscriptions one instance serves at once (each one attempt at a time). */
const MAX_SERVING = 8;
/** A claim lets others have a turn after this many attempts or this long, whichever comes first. */
const ATTEMPTS_PER_CLAIM = 50;
const TURN_MS = 60_000;
/** SQLSTATE of a foreign key violation. */
const FOREIGN_KEY_VIOLATION = '23503';
/** On shutdown, attempts in flight get this long to finish; then they are abandoned. */
const STOP_GRACE_MS = 3000;

/**
 * The webhook delivery worker, in every instance (WEBHOOK_WORKER=off: none here).
 *
 * Every poll (WEBHOOK_POLL_MS, or at once on a notice) it claims subscriptions with due
 * deliveries for its free slots (one statement, FOR NO KEY UPDATE SKIP LOCKED, a lease of
 * LEASE_SECONDS on each). Each claimed subscription is then served on its own, one
 * attempt at a time, oldest event first: claim the next due delivery (one statement: the
 * subscription's lease renewed, the attempt number raised, the delivery leased), send it
 * outside any transaction, and record the outcome (one statement: the log's row, the
 * delivery's state and next attempt, the subscription disabled on 410); after a turn
 * (ATTEMPTS_PER_CLAIM or TURN_MS) the subscription is let go, to the back of the queue.
 * A slow receiver thus holds one slot, never the others. No transaction stays open during
 * an HTTP call: an open transaction with an xid would hold back every event reader's horizon.
 *
 * Safe across instances and crashes: a subscription is served by one claim at a time,
 * and an attempt's number is taken when it is claimed, so no number is ever sent twice.
 * An instance that dies mid-send leaves its leases to run out; the delivery is then
 * claimed again as the next attempt, and the lost one is logged as `unknown`.
 *
 * Only deliveries of events every reader can see are claimed (below the oldest running
 * transaction, like GET /v1/events), so a subscription receives events in the order of
 * the log, as far as retries allow: a delivery waiting for its retry does not hold back
 * the ones after it.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('Webhooks');
  private readonly schedule: readonly number[];
  private readonly stopSends = new AbortController();
  private readonly serving = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private wakeUp = false;
  private stopping = false;
  private failing = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly hooks: WebhooksRepository,
    private readonly listener: PgListener,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    this.schedule = config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  }

  onApplicationBootstrap(): void {
    if (!this.config.webhookWorker) return;
    // A committed event (any instance's) wakes the worker at once; the poll stays for the
    // rest (a retry come due, a notice lost). Back after a loss of the listener: look now.
    if (this.listener.available) {
      this.unsubscribe = this.listener.on(
        EVENTS_CHANNEL,
        () => this.onEventsNotice(),
        (listening) => listening && this.onEventsNotice(),
      );
    }
    this.later(0);
  }

  /**
   * Looks for due deliveries now instead of at the next poll: call it on a `bg_events`
   * notice (an event was committed). A poll under way runs once more when it ends.
   */
  onEventsNotice(): void {
    if (this.stopping || !this.config.webhookWorker) return;
    if (this.polling) this.wakeUp = true;
    else this.later(0);
  }

  /** Stops within a few seconds: attempts in flight may finish, then are abandoned (leases make that safe). */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const busy = () => Promise.allSettled([this.polling, ...this.serving]);
    if (!this.polling && this.serving.size === 0) return;
    const grace = new Promise<'late'>((r) => setTimeout(() => r('late'), STOP_GRACE_MS).unref());
    if ((await Promise.race([busy().then(() => 'done' as const), grace])) === 'late') {
      this.stopSends.abort();
      // The abandoned attempts are recorded (failed, tried again later) before the pool closes.
      await Promise.race([busy(), new Promise((r) => setTimeout(r, 2000).unref())]);
    }
  }

  private later(ms: number): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll().finally(() => (this.polling = null));
    }, ms);
  }

  private async poll(): Promise<void> {
    try {
      await this.claimDue();
      this.healthy();
    } catch (e) {
      this.failed(e);
    }
    const again = this.wakeUp;
    this.wakeUp = false;
    this.later(again ? 0 : this.config.webhookPollMs);
  }

  /** Claims subscriptions with due deliveries for the free slots, and starts serving each. */
  private async claimDue(): Promise<void> {
    const free = MAX_SERVING - this.serving.size;
    if (free <= 0 || this.stopping) return;
    const claim = randomUUID();
    const subs = await this.hooks.claimSubscriptions(this.db.once, claim, LEASE_SECONDS, free);
    for (const s of subs) {
      const turn: Promise<void> = this.serve(s.clubId, s.id, claim)
        .then((more) => {
          this.healthy();
          // A turn that ended with more to send, or a slot freed while others may wait: look again now.
          if (more || subs.length === free) this.onEventsNotice();
        })
        .catch((e: unknown) => this.failed(e))
        .finally(() => this.serving.delete(turn));
      this.serving.add(turn);
    }
  }

  private healthy(): void {
    if (this.failing) this.log.log('webhook deliveries resumed');
    this.failing = false;
  }

  private failed(e: unknown): void {
    // The database is away, most likely: the next poll tries again.
    if (!this.failing) this.log.warn(`webhook deliveries paused: ${(e as Error).message}`);
    this.failing = true;
  }

  /** One turn of a subscription: its due deliveries, one at a time; answers whether some may be left. */
  private async serve(clubId: string, webhookId: string, claim: string): Promise<boolean> {
    const ends = Date.now() + TURN_MS;
    try {
      for (let sent = 0; sent < ATTEMPTS_PER_CLAIM && Date.now() < ends; sent++) {
        if (this.stopping) return false;
        const next = await this.hooks.claimNext(this.db.once, clubId, webhookId, claim, LEASE_SECONDS);
        if (next === null || next.delivery === null) return false;
        const d = next.delivery;
        if (this.stopping) {
          await this.hooks.unclaim(this.db.once, clubId, webhookId, d);
          return false;
        }
        await this.attempt(clubId, webhookId, d);
      }
      return true;
    } finally {
      await this.hooks.release(this.db.once, clubId, webhookId, claim).catch(() => undefined);
    }
  }

  private async attempt(clubId: string, webhookId: string, d: ClaimedDelivery): Promise<void> {
    const base = { clubId, webhookId, eventId: d.eventId };
    if (d.unrecordedUntil !== null) {
      // The attempt before this one was claimed and never recorded: its instance stopped mid-send.
      await this.hooks.logAttempt(this.db.once, {
        ...base,
        id: uuid7(),
        attempt: d.attempt - 1,
        status: 'unknown',
        responseStatus: null,
        error: 'the instance sending it stopped before the answer was recorded',
        at: new Date(d.unrecordedUntil.getTime() - LEASE_SECONDS * 1000),
      });
    }
    const at = new Date();
    const result = await this.send(clubId, webhookId, d, at);
    const a: NewAttempt = {
      ...base,
      id: uuid7(),
      attempt: d.attempt,
      status: result.outcome === 'delivered' ? 'delivered' : 'failed',
      responseStatus: result.responseStatus,
      error: result.error,
      at,
    };
    let recorded: boolean;
    try {
      recorded = await this.hooks.record(this.db.once, a, d, this.outcome(result, d));
    } catch (e) {
      // The subscription was deleted while its attempt was in flight: nothing is left to record it on.
      if (e instanceof StatementFailed && e.driverError.code === FOREIGN_KEY_VIOLATION) return;
      throw e;
    }
    if (!recorded) this.log.debug(`attempt ${d.attempt} of ${d.eventId} to webhook ${webhookId} was overtaken by a later one, or its subscription deleted`);
  }

  private async send(clubId: string, webhookId: string, d: ClaimedDelivery, at: Date): Promise<SendResult> {
    if (d.event === null) return { outcome: 'failed', responseStatus: null, error: 'the event is no longer in the log (events are kept 30 days)' };
    const secret = openSecret(this.config.webhookSecretKey, clubId, webhookId, d.secretSealed);
    if (secret === null) {
      this.log.error(`webhook ${webhookId}: its secret cannot be opened with this instance's WEBHOOK_SECRET_KEY`);
      return { outcome: 'failed', responseStatus: null, error: "the subscription's secret cannot be opened with the server's key (WEBHOOK_SECRET_KEY changed?)" };
    }
    const body = eventBody(d.event);
    return sendWebhook({
      url: d.url,
      body,
      headers: signedHeaders(secret, d.eventId, body, d.attempt, at),
      allowPrivate: this.config.webhookAllowPrivate,
      signal: this.stopSends.signal,
    });
  }

  /** What follows from an attempt: delivered, tried again after the schedule's wait, or given up. */
  private outcome(result: SendResult, d: ClaimedDelivery): Outcome {
    if (result.outcome === 'delivered') return { state: 'delivered', retryInSeconds: null, disableReason: null };
    if (result.outcome === 'gone') {
      return { state: 'failed', retryInSeconds: null, disableReason: `the receiver answered 410 Gone to event ${d.eventId} on ${new Date().toISOString()}` };
    }
    // An event no longer in the log cannot be sent again.
    const wait = d.event === null ? null : retryDelaySeconds(this.schedule, d.attempt);
    return wait === null ? { state: 'failed', retryInSeconds: null, disableReason: null } : { state: 'pending', retryInSeconds: wait, disableReason: null };
  }
}
