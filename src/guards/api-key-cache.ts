import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { KeyRole, KEY_ROLES } from '../common/auth';
import { setBounded } from '../common/bounded-map';
import type { AppConfig } from '../config';
import { CONFIG } from '../config.provider';
import { cols, Row } from '../db/decode';
import { Db } from '../db/db.service';
import { PgListener } from '../db/listener';

/** What authentication needs of an API key. */
export interface KeyRecord {
  role: KeyRole;
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
  return { role: c.oneOf('role', KEY_ROLES), secretHash: c.bytes('secret_hash'), revokedAt: c.dateOrNull('revoked_at') };
};

/**
 * API key records, cached so that a request does not read its key from the database.
 *
 * Safe across instances: a revocation commits a NOTIFY on `bg_api_keys` (see
 * ApiKeysRepository.revoke), and every instance hears it on its one LISTEN connection
 * (PgListener, src/db/listener.ts) and drops the key as soon as the notice arrives (the
 * revoking instance drops it before it answers). The cache is used only while that
 * channel is listened to: when the connection drops, every entry is forgotten and keys
 * are read from the database until it is back (and forgotten again when it is back:
 * notices sent meanwhile were lost). A lookup that was in flight while a notice or a
 * change of the connection arrived is not cached (the generation check), so a read older
 * than a revocation never lands in the cache. Entries also expire after
 * API_KEY_CACHE_SECONDS (default 60; 0 turns the cache off). Unknown keys are never
 * cached, so a stream of made-up tokens cannot fill memory.
 *
 * Where the instance cannot listen (behind a pooler in transaction mode without
 * DATABASE_LISTEN_URL: PgListener.available is false) the cache stays off: every key is
 * read from the database.
 */
@Injectable()
export class ApiKeyCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every notice and every change of the listener's state. */
  private generation = 0;
  /** Unsubscribes from the channel; null until the first lookup subscribes. */
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly listener: PgListener,
  ) {}

  private get ttlMs(): number {
    return this.config.apiKeyCacheSeconds * 1000;
  }

  private get listening(): boolean {
    return this.listener.listening(API_KEY_CHANNEL);
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
        this.subscribe();
      }
    }
    const generation = this.generation;
    const wasListening = this.listening;
    // An unnamed statement (no `prepare`): its text goes with every lookup, as before the unit of work.
    const record = await this.db.once.maybeOne('SELECT role, secret_hash, revoked_at FROM api_keys WHERE club_id = $1 AND id = $2', [clubId, keyId], decodeRecord);
    if (record === null) return null;
    if (this.ttlMs > 0 && wasListening && this.listening && generation === this.generation) {
      setBounded(this.entries, id, { ...record, expiresAt: Date.now() + this.ttlMs }, MAX_ENTRIES);
    }
    return record;
  }

  /** Forgets a key at once (the revoking instance, before it answers). */
  forget(clubId: string, keyId: string): void {
    this.generation++;
    this.entries.delete(`${clubId}/${keyId}`);
  }

  /** Subscribes to revocations, once (the listener connects on the first subscription and reconnects itself). */
  private subscribe(): void {
    if (this.unsubscribe || !this.listener.available) return;
    this.unsubscribe = this.listener.on(
      API_KEY_CHANNEL,
      (payload) => {
        this.generation++;
        if (payload) this.entries.delete(payload);
      },
      // Up or down, nothing cached before may be trusted: notices may have been missed.
      () => {
        this.generation++;
        this.entries.clear();
      },
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.entries.clear();
  }
}
