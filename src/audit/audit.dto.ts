import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { ListQuery } from '../common/pagination';

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
