import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Client, Notification } from 'pg';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE_URL } from '../config.provider';

/** What a subscriber hears on a channel (`PgListener.on`). */
export type NoticeHandler = (payload: string) => void;

/**
 * Told when the subscriber's channel starts being listened to (true: the connection is up
 * and its LISTEN has taken effect, so every notice sent from now on arrives) and when that
 * stops (false: the connection dropped; notices sent meanwhile are lost). A (re)connection
 * is announced again with true.
 */
export type StateHandler = (listening: boolean) => void;

interface Subscriber {
  notice: NoticeHandler;
  state?: StateHandler;
}

/** A channel is an identifier we send in LISTEN as it is: lower case letters, digits and `_`. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** The pause before connecting again: doubled after each failure from the first, up to the last. */
const RETRY_MS = [250, 1000, 5000];

/**
 * The instance's one PostgreSQL LISTEN connection, shared by every part of the app that
 * wants notices: `on(channel, payload => …)` subscribes (and answers a function that
 * unsubscribes); `listening(channel)` says whether notices on the channel reach us now.
 *
 * One dedicated connection (not from the pool: a LISTEN lasts as long as its session):
 * `DATABASE_LISTEN_URL`, else the app's own `DATABASE_URL` in session mode. Behind a
 * pooler in transaction mode without `DATABASE_LISTEN_URL` there is none (a LISTEN would
 * not outlive its transaction): `available` is false, nothing is ever listened to, and
 * subscribers must do without notices (the API key cache stays off, event readers only
 * poll).
 *
 * The connection is opened by the first subscription (so building the app offline opens
 * none), and every channel anyone subscribed to is listened to on it. When it drops,
 * every subscriber of a listened channel is told `false` at once, and it is opened again
 * after a pause (250 ms, then 1 s, then every 5 s while it fails); on success every
 * channel is listened to again and its subscribers are told `true`. A notice is a hint:
 * one sent while the connection was down is lost, so a subscriber that must not miss
 * anything also looks for itself (the event readers poll; the key cache forgets
 * everything while nothing is listened to).
 *
 * Handlers run synchronously in the connection's event callbacks: they must be quick and
 * must not throw (a thrown error is caught and logged).
 */
@Injectable()
export class PgListener implements OnApplicationShutdown {
  private readonly log = new Logger('PgListener');
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** The channels LISTENed to on the current connection. */
  private readonly listened = new Set<string>();
  private client: Client | null = null;
  private connecting = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  /** Where the connection goes; null: nowhere (see the class comment). */
  private readonly url: string | null;

  constructor(@Inject(CONFIG) config: AppConfig, @Inject(DATABASE_URL) databaseUrl: string) {
    this.url = config.databaseListenUrl ?? (config.databasePoolMode === 'session' ? databaseUrl : null);
  }

  /** Whether this instance can listen at all (a connection to listen on is configured). */
  get available(): boolean {
    return this.url !== null;
  }

  /** Whether notices on `channel` reach this instance now. */
  listening(channel: string): boolean {
    return this.listened.has(channel);
  }

  /**
   * Subscribes to `channel`: `notice` gets the payload of every notice on it from now on,
   * `state` hears when the channel starts or stops being listened to. Answers the function
   * that unsubscribes (the channel itself stays listened to: channels are few and fixed).
   */
  on(channel: string, notice: NoticeHandler, state?: StateHandler): () => void {
    if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
    const sub: Subscriber = { notice, state };
    let subs = this.subscribers.get(channel);
    if (!subs) this.subscribers.set(channel, (subs = new Set()));
    subs.add(sub);
    if (this.client !== null && !this.connecting) void this.listenOn(this.client, channel);
    else this.connect();
    return () => {
      this.subscribers.get(channel)?.delete(sub);
    };
  }

  /** Opens the connection unless it is open, opening, waiting to retry, or impossible. */
  private connect(): void {
    const url = this.url;
    if (url === null || this.closed || this.client !== null || this.connecting || this.retryTimer !== null) return;
    this.connecting = true;
    // TCP keep-alive: a peer that vanished without closing is noticed (and reconnected) in time.
    const client = new Client({
      connectionString: url,
      application_name: 'bg-club-scorekeeping-listen',
      connectionTimeoutMillis: 3000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    client.on('notification', (n: Notification) => this.dispatch(n));
    const lost = () => void this.lost(client);
    client.on('error', lost);
    client.on('end', lost);
    client
      .connect()
      .then(async () => {
        // Every channel subscribed to, those subscribed to meanwhile included.
        for (let missing = this.unlistened(); missing.length > 0 && this.client === client; missing = this.unlistened()) {
          for (const channel of missing) await this.listenOn(client, channel, false);
        }
        if (this.client !== client) return;
        this.connecting = false;
        this.failures = 0;
      })
      .catch((e: unknown) => {
        if (this.client !== client) return;
        this.log.warn(`cannot listen for notices (${(e as Error).message}); retrying`);
        void this.lost(client);
      });
  }

  private unlistened(): string[] {
    return [...this.subscribers.keys()].filter((c) => !this.listened.has(c));
  }

  /** LISTENs on `channel` on `client` (once per connection), then tells its subscribers. */
  private async listenOn(client: Client, channel: string, failIsLoss = true): Promise<void> {
    if (this.listened.has(channel) || this.client !== client) return;
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (e) {
      // A LISTEN that fails on a working connection means the connection is gone.
      if (failIsLoss && this.client === client) void this.lost(client);
      if (!failIsLoss) throw e;
      return;
    }
    if (this.client !== client || this.listened.has(channel)) return;
    this.listened.add(channel);
    this.tell(channel, true);
  }

  /** The connection is gone (or never came): subscribers are told, and it is opened again after a pause. */
  private lost(client: Client): Promise<void> {
    if (this.client !== client) return Promise.resolve();
    this.client = null;
    this.connecting = false;
    const channels = [...this.listened];
    this.listened.clear();
    for (const channel of channels) this.tell(channel, false);
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    const ended = client.end().catch(() => undefined);
    if (this.closed) return ended;
    const pause = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
    this.failures++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.subscribers.size > 0) this.connect();
    }, pause);
    this.retryTimer.unref();
    return ended;
  }

  private dispatch(n: Notification): void {
    const subs = this.subscribers.get(n.channel);
    if (!subs) return;
    for (const sub of [...subs]) {
      try {
        sub.notice(n.payload ?? '');
      } catch (e) {
        this.log.error(`a handler of ${n.channel} failed: ${(e as Error).message}`);
      }
    }
  }

  private tell(channel: string, listening: boolean): void {
    for (const sub of [...(this.subscribers.get(channel) ?? [])]) {
      try {
        sub.state?.(listening);
      } catch (e) {
        this.log.error(`a handler of ${channel} failed: ${(e as Error).message}`);
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.client) await this.lost(this.client);
  }
}
