import { Injectable } from '@nestjs/common';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { Db } from '../db/db.service';
import { AuditEntryDto, AuditQuery } from './audit.dto';

type Row = Record<string, unknown>;

/** The audit record: every successful command (games, actions, voids, payments, closes, keys, the operator's club creation), newest last. */
@Injectable()
export class AuditService {
  constructor(private readonly db: Db) {}

  async list(auth: KeyAuth, q: AuditQuery): Promise<Page<AuditEntryDto>> {
    const limit = q.limit ?? 50;
    const after = (decodeCursor(q.cursor, ['string'])?.[0] as string | undefined) ?? null;
    const rows: Row[] = await this.db.manager.query(
      `SELECT a.*, k.name AS key_name FROM audit_log a LEFT JOIN api_keys k ON k.club_id = a.club_id AND k.id = a.api_key_id
        WHERE a.club_id = $1 AND ($2::uuid IS NULL OR a.api_key_id = $2) AND ($3::uuid IS NULL OR a.id > $3)
        ORDER BY a.id LIMIT $4`,
      [auth.clubId, q.apiKeyId ?? null, after, limit + 1],
    );
    return toPage(
      rows,
      limit,
      (r) => [r.id],
      (r) => ({
        id: r.id as string,
        actor: r.actor as 'key' | 'operator',
        apiKeyId: (r.api_key_id as string | null) ?? null,
        keyName: (r.key_name as string | null) ?? null,
        method: r.method as string,
        route: r.route as string,
        path: r.path as string,
        status: r.status as number,
        requestId: (r.request_id as string | null) ?? null,
        clientRequestId: (r.client_request_id as string | null) ?? null,
        body: r.body ?? null,
        at: (r.created_at as Date).toISOString(),
      }),
    );
  }
}
