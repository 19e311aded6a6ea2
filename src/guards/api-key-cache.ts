import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { Role, ROLES } from '../common/auth';
import type { AppConfig } from '../config';
import { CONFIG, DATABASE_URL } from '../config.provider';
import { cols, Row } from '../db/decode';
import { Db } from '../db/db.service';

/** What authentication needs of an API key. */
export interface KeyRecord {
  role: Role;
  secretHash: Buffer;
  revokedAt: Date | null;
}

interface Entry extends KeyRecord {
  expiresAt: number;
}

/** The channel a revocation is announced on (NOTIFY in the revoking transaction). */
export const API_KEY_CHANNEL = 'bg_api_keys';

/** At most this many keys are kept; beyond it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

const decodeRecord = (r: Row): KeyRecord => {
  const c = cols(r);
  return { role: c.oneOf('role', ROLES), secretHash: c.bytes('secret_hash'), revokedAt: c.dateOrNull('revoked_at') };
};

/**
 * API key records, cached so that a request does not read its key from the database.
 *
 * Safe across instances: a revocation commits a NOTIFY on `bg_api_keys` (see
 * ApiKeysRepository.revoke), and every instance LISTENs on its own connection and drops
 * the key as soon as the notice arrives (the revoking instance drops it before it
 * answers). The cache is used only while that connection is up: when it drops, every
 * entry is forgotten and keys are read from the database until it is back. A lookup
 * that was in flight while a notice arrived is not cached (the generation check), so a
 * read older than a revocation never lands in the cache. Entries also expire after
 * API_KEY_CACHE_SECONDS (default 60; 0 turns the cache off). Unknown keys are never
 * cached, so a stream of made-up tokens cannot fill memory.
 *
 * The listener needs a connection of its own for as long as it listens: DATABASE_LISTEN_URL,
 * else the app's own DATABASE_URL in session mode. Behind a pooler in transaction mode
 * without DATABASE_LISTEN_URL there is none (a LISTEN would not outlive its transaction),
 * so nothing listens and the cache stays off: every key is read from the database.
 */
@Injectable()
export class ApiKeyCache implements OnModuleDestroy {
  private readonly log = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every notice and every (re)connection of the listener. */
  private generation = 0;
  private listener: Client | null = null;
  private listening = false;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Where the listener connects; null: it cannot (see the class comment). */
  private readonly listenUrl: string | null;

  constructor(
    private readonly db: Db,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE_URL) databaseUrl: string,
  ) {
    this.listenUrl = config.databaseListenUrl ?? (config.databasePoolMode === 'session' ? databaseUrl : null);
  }

  private get ttlMs(): number {
    return this.config.apiKeyCacheSeconds * 1000;
  }

  /** The key's record, from the cache when it is safe to use, else from the database. */
  async get(clubId: string, keyId: string): Promise<KeyRecord | null> {
    const id = `${clubId}/${keyId}`;
    if (this.ttlMs > 0) {
      if (this.listening) {
        const hit = this.entries.get(id);
        if (hit && hit.expiresAt > Date.now()) return hit;
        if (hit) this.entries.delete(id);
      } else {
        this.listen();
      }
    }
    const generation = this.generation;
    const wasListening = this.listening;
    // An unnamed statement (no `prepare`): its text goes with every lookup, as before the unit of work.
    const record = await this.db.once.maybeOne('SELECT role, secret_hash, revoked_at FROM api_keys WHERE club_id = $1 AND id = $2', [clubId, keyId], decodeRecord);
    if (record === null) return null;
    if (this.ttlMs > 0 && wasListening && this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(id, { ...record, expiresAt: Date.now() + this.ttlMs });
    }
    return record;
  }

  /** Forgets a key at once (the revoking instance, before it answers). */
  forget(clubId: string, keyId: string): void {
    this.generation++;
    this.entries.delete(`${clubId}/${keyId}`);
  }

  /** Starts the listener connection, once; failures are retried after a pause. No listener URL: nothing to start. */
  private listen(): void {
    const url = this.listenUrl;
    if (this.connecting || this.listener || this.closed || url === null) return;
    this.connecting = this.connect(url)
      .catch((e: unknown) => {
        this.log.warn(`API key cache off: cannot listen for revocations (${(e as Error).message}); retrying in 5 s`);
        void this.drop();
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          if (!this.closed) this.listen();
        }, 5000);
        this.retryTimer.unref();
      })
      .finally(() => {
        this.connecting = null;
      });
  }

  private async connect(url: string): Promise<void> {
    const client = new Client({ connectionString: url, application_name: 'bg-club-scorekeeping-keys', connectionTimeoutMillis: 3000 });
    this.listener = client;
    client.on('notification', (n) => {
      this.generation++;
      if (n.payload) this.entries.delete(n.payload);
    });
    const lost = () => {
      if (this.listener !== client) return;
      void this.drop();
      if (!this.closed) this.listen();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`LISTEN ${API_KEY_CHANNEL}`);
    if (this.listener !== client) return;
    this.entries.clear();
    this.generation++;
    this.listening = true;
  }

  /** The listener is gone: nothing cached may be trusted. Ends its connection. */
  private drop(): Promise<void> {
    this.listening = false;
    this.generation++;
    this.entries.clear();
    const client = this.listener;
    this.listener = null;
    if (!client) return Promise.resolve();
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    return client.end().catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    await this.drop();
  }
}
