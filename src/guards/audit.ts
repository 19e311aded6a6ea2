import { Controller, Get, Injectable, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { decodeCursor, ListQuery, Page, PageOf, toPage } from '../common/pagination';
import { Db } from '../db/db.service';
import { cols, Row } from '../db/decode';

export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ['key', 'operator'], description: 'Who made the request: a club API key, or the operator token (club creation).' })
  actor: 'key' | 'operator';

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The API key that made the request (null for the operator).' })
  apiKeyId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The key's name when the record is read (null for the operator)." })
  keyName: string | null;

  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({ description: 'The route, e.g. `/v1/money-games/:id/games/:gameNo/void`.' })
  route: string;

  @ApiProperty({ description: 'The path requested.' })
  path: string;

  @ApiProperty({ description: 'The status it was answered with.', example: 201 })
  status: number;

  @ApiProperty({ type: String, nullable: true, description: "The server's id of the request: the X-Request-Id of its answer, also in the logs." })
  requestId: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The X-Request-Id the caller sent, if any (kept beside the server's id, never in its place)." })
  clientRequestId: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The JSON body sent, as received (requests carry no token in their bodies).' })
  body: unknown;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

export class AuditQuery extends ListQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only what this API key did.' })
  @IsOptional()
  @IsUUID()
  apiKeyId?: string;
}

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
    const limit = q.limit ?? 50;
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

@ApiTags('Clubs and keys')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @MinRole('owner')
  @ApiOperation({ summary: 'Who did what: every successful command of the club, by API key or the operator, oldest first' })
  @ApiOkResponse({ type: PageOf(AuditEntryDto) })
  list(@ClubKey() auth: KeyAuth, @Query() q: AuditQuery) {
    return this.audit.list(auth, q);
  }
}
