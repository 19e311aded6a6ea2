import { Injectable } from '@nestjs/common';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, PAGE_LIMIT, toPage } from '../common/pagination';
import { Db } from '../db/db.service';
import { cols, Row } from '../db/decode';
import { AuditEntryDto, AuditQuery } from './audit.dto';

const decodeEntry = (r: Row): AuditEntryDto => {
  const c = cols(r);
  return {
    id: c.text('id'),
    actor: c.oneOf('actor', ['key', 'operator']),
    apiKeyId: c.textOrNull('api_key_id'),
    keyName: c.textOrNull('key_name'),
    method: c.text('method'),
    route: c.text('route'),
    path: c.text('path'),
    status: c.int('status'),
    requestId: c.textOrNull('request_id'),
    clientRequestId: c.textOrNull('client_request_id'),
    body: c.json('body') ?? null,
    at: c.date('created_at').toISOString(),
  };
};

/** The audit record: every successful command (games, actions, voids, payments, closes, keys, the operator's club creation), newest last. */
@Injectable()
export class AuditService {
  constructor(private readonly db: Db) {}

  async list(auth: KeyAuth, q: AuditQuery): Promise<Page<AuditEntryDto>> {
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = (decodeCursor(q.cursor, ['string'])?.[0] as string | undefined) ?? null;
    const rows = await this.db.once.rows(
      `SELECT a.id, a.actor, a.api_key_id, k.name AS key_name, a.method, a.route, a.path, a.status, a.request_id, a.client_request_id, a.body, a.created_at
         FROM audit_log a LEFT JOIN api_keys k ON k.club_id = a.club_id AND k.id = a.api_key_id
        WHERE a.club_id = $1 AND ($2::uuid IS NULL OR a.api_key_id = $2) AND ($3::uuid IS NULL OR a.id > $3)
        ORDER BY a.id LIMIT $4`,
      [auth.clubId, q.apiKeyId ?? null, after, limit + 1],
      decodeEntry,
    );
    return toPage(
      rows,
      limit,
      (e) => [e.id],
      (e) => e,
    );
  }
}
