import { Inject, Injectable } from '@nestjs/common';
import { ApiError, notFound } from '../common/api-error';
import type { KeyAuth } from '../common/auth';
import { CommandContext } from '../common/command';
import { isoOrNull } from '../common/dates';
import { ErrorCode } from '../common/error-codes';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { isUuid, uuid7 } from '../common/uuid';
import { Commands } from '../commands/commands.service';
import type { AppConfig } from '../config';
import { CONFIG } from '../config.provider';
import { Db } from '../db/db.service';
import { ClubEvent, WEBHOOK_TEST_EVENT } from '../outbox/event-types';
import { SessionsRepository } from '../sessions';
import { newWebhookSecret, openSecret, sealSecret } from './secret-seal';
import { CHECK_LOOKUP_TIMEOUT_MS, checkTarget, sendWebhook, SendResult, systemResolver } from './sender';
import { eventBody, signedHeaders } from './signing';
import { CreatedWebhookDto, CreateWebhookDto, DeliveryAttemptDto, UpdateWebhookDto, WebhookDto } from './webhooks.dto';
import { AttemptRow, WebhookRow, WebhooksRepository } from './webhooks.repository';

/** The time of an attempt in a page cursor, to the microsecond (the repository's at_key). */
const ATTEMPT_AT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The most subscriptions a club may have. */
export const MAX_WEBHOOKS_PER_CLUB = 20;

export function mapWebhook(w: WebhookRow): WebhookDto {
  return {
    id: w.id,
    url: w.url,
    types: w.types,
    sessionId: w.sessionId,
    description: w.description,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    version: w.version,
  };
}

const mapAttempt = (a: Pick<AttemptRow, 'eventId' | 'attempt' | 'status' | 'responseStatus' | 'error' | 'at' | 'nextAttemptAt'>): DeliveryAttemptDto => ({
  eventId: a.eventId,
  attempt: a.attempt,
  status: a.status,
  responseStatus: a.responseStatus,
  error: a.error,
  at: a.at.toISOString(),
  nextAttemptAt: isoOrNull(a.nextAttemptAt),
});

@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly hooks: WebhooksRepository,
    private readonly sessions: SessionsRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async create(cmd: CommandContext, auth: KeyAuth, dto: CreateWebhookDto): Promise<CreatedWebhookDto> {
    // The name is looked up before the transaction: no transaction waits on DNS.
    await this.checkAddress(dto.url);
    return this.commands.run(cmd, async (tx) => {
      const count = await this.hooks.lockAndCount(tx, auth.clubId);
      if (count >= MAX_WEBHOOKS_PER_CLUB) {
        throw new ApiError(ErrorCode.WEBHOOK_LIMIT_REACHED, `The club has ${count} webhook subscriptions, the most it may have; delete one first.`);
      }
      if (dto.sessionId && !(await this.sessions.find(tx, auth.clubId, dto.sessionId))) {
        throw new ApiError(ErrorCode.REFERENCE_NOT_FOUND, `Session ${dto.sessionId} does not exist in this club.`);
      }
      const now = new Date();
      const id = uuid7();
      const secret = newWebhookSecret();
      const w: WebhookRow = {
        clubId: auth.clubId,
        id,
        url: dto.url,
        types: dto.types ?? null,
        sessionId: dto.sessionId?.toLowerCase() ?? null,
        description: dto.description ?? null,
        secretSealed: sealSecret(this.config.webhookSecretKey, auth.clubId, id, secret),
        enabled: true,
        disabledReason: null,
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      this.hooks.insert(tx, w);
      return { ...mapWebhook(w), secret };
    });
  }

  async list(auth: KeyAuth, limit: number, cursor?: string): Promise<Page<WebhookDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.hooks.list(this.db.once, auth.clubId, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (w) => [w.id], mapWebhook);
  }

  async get(auth: KeyAuth, id: string): Promise<WebhookDto> {
    return mapWebhook(await this.find(auth, id));
  }

  async update(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: number | '*' | undefined, dto: UpdateWebhookDto): Promise<WebhookDto> {
    if (dto.url !== undefined) {
      // Another club's or no subscription is 404 whatever the URL; the name is looked up outside the transaction.
      await this.find(auth, id);
      await this.checkAddress(dto.url);
    }
    return this.commands.run(cmd, async (tx) => {
      const w = await this.hooks.lock(tx, auth.clubId, id);
      if (!w) throw notFound('Webhook');
      checkVersion(ifMatch, w.version);
      // Enabling clears the reason it was disabled; disabling by hand says so.
      const disabledReason = dto.enabled === true ? null : dto.enabled === false && w.enabled ? 'disabled by an owner' : undefined;
      const updated = await this.hooks.update(tx, w, { url: dto.url, types: dto.types, description: dto.description, enabled: dto.enabled, disabledReason });
      return mapWebhook(updated);
    });
  }

  async remove(cmd: CommandContext, auth: KeyAuth, id: string): Promise<void> {
    await this.commands.run(cmd, async (tx) => {
      const w = await this.hooks.lock(tx, auth.clubId, id);
      if (!w) throw notFound('Webhook');
      this.hooks.delete(tx, w);
      return null;
    });
  }

  async deliveries(auth: KeyAuth, id: string, limit: number, cursor?: string): Promise<Page<DeliveryAttemptDto>> {
    const after = decodeCursor(cursor, ['string', 'string']) as [string, string] | null;
    if (after && !(ATTEMPT_AT_KEY.test(after[0]) && isUuid(after[1]))) {
      throw new ApiError(ErrorCode.INVALID_CURSOR, 'The cursor is not one this API gave out; start again without it.', {
        errors: [{ field: 'cursor', message: 'cursor is not one this API gave out' }],
      });
    }
    await this.find(auth, id);
    const rows = await this.hooks.listAttempts(this.db.once, auth.clubId, id, after, limit);
    return toPage(rows, limit, (a) => [a.atKey, a.id], mapAttempt);
  }

  /**
   * Sends a `webhook.test` event now, signed like every delivery, and answers the attempt
   * (logged with the others). The send happens outside any transaction; the log's row is
   * written after it, in a command of its own. Its id (`test_…`) is no position in the
   * log. A 410 Gone disables the subscription, as it does for any event.
   */
  async test(cmd: CommandContext, auth: KeyAuth, id: string): Promise<DeliveryAttemptDto> {
    const w = await this.find(auth, id);
    const at = new Date();
    const event: ClubEvent = {
      id: `test_${uuid7().replace(/-/g, '')}`,
      type: WEBHOOK_TEST_EVENT,
      occurredAt: at.toISOString(),
      sessionId: null,
      subject: { kind: 'webhook', id: w.id },
      data: mapWebhook(w),
    };
    const secret = openSecret(this.config.webhookSecretKey, w.clubId, w.id, w.secretSealed);
    let result: SendResult;
    if (secret === null) {
      result = { outcome: 'failed', responseStatus: null, error: "the subscription's secret cannot be opened with the server's key (WEBHOOK_SECRET_KEY changed?)" };
    } else {
      const body = eventBody(event);
      result = await sendWebhook({ url: w.url, body, headers: signedHeaders(secret, event.id, body, 1, at), allowPrivate: this.config.webhookAllowPrivate });
    }
    return this.commands.run(cmd, async (tx) => {
      const now = await this.hooks.lock(tx, auth.clubId, id);
      if (!now) throw notFound('Webhook');
      const attempt = {
        clubId: auth.clubId,
        webhookId: id,
        id: uuid7(),
        eventId: event.id,
        attempt: 1,
        status: result.outcome === 'delivered' ? ('delivered' as const) : ('failed' as const),
        responseStatus: result.responseStatus,
        error: result.error,
        at,
      };
      this.hooks.insertAttempt(tx, attempt);
      if (result.outcome === 'gone' && now.enabled) this.hooks.disable(tx, now, `the receiver answered 410 Gone to a test event on ${new Date().toISOString()}`);
      return mapAttempt({ ...attempt, nextAttemptAt: null });
    });
  }

  /** Forgets delivery attempts and deliveries older than `days` (the log is kept 30 days). */
  purge(days = 30): Promise<number> {
    return this.hooks.purge(this.db.once, days);
  }

  private async find(auth: KeyAuth, id: string): Promise<WebhookRow> {
    const w = await this.hooks.find(this.db.once, auth.clubId, id);
    if (!w) throw notFound('Webhook');
    return w;
  }

  /** 422 unless the URL's host is (and resolves only to) public addresses, or private ones are allowed. */
  private async checkAddress(url: string): Promise<void> {
    if (this.config.webhookAllowPrivate) return;
    const check = await checkTarget(new URL(url), false, systemResolver, CHECK_LOOKUP_TIMEOUT_MS);
    if (check.ok) return;
    if (check.reason === 'private') {
      throw new ApiError(ErrorCode.WEBHOOK_URL_PRIVATE, `Webhooks are not sent to private addresses: ${check.message}.`, { errors: [{ field: 'url', message: check.message }] });
    }
    throw new ApiError(ErrorCode.WEBHOOK_URL_UNRESOLVABLE, `The webhook's host must resolve, so that its address can be checked: ${check.message}.`, {
      errors: [{ field: 'url', message: check.message }],
    });
  }
}
