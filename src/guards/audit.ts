import { Controller, Get, Injectable, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { decodeCursor, ListQuery, Page, PageOf, toPage } from '../common/pagination';
import { Db } from '../db/db.service';

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
