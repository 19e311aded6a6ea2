import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/auth';
import { Db } from '../db/db.service';

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status: 'ok' | 'unavailable';

  @ApiProperty({ enum: ['up', 'down'], description: 'Whether the database answered a ping within a second.' })
  database: 'up' | 'down';
}

@ApiTags('Service')
@Controller()
export class HealthController {
  constructor(private readonly db: Db) {}

  @Get('health')
  @Public()
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness and database ping (no token needed)' })
  @ApiOkResponse({ type: HealthDto, description: 'The service and its database are up.', example: { status: 'ok', database: 'up' } })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'The database does not answer.', example: { status: 'unavailable', database: 'down' } })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthDto> {
    const up = await Promise.race([
      this.db.once
        .rows('SELECT 1', [], () => null)
        .then(
          () => true,
          () => false,
        ),
      new Promise<boolean>((r) => setTimeout(() => r(false), 1000).unref()),
    ]);
    if (!up) reply.status(503);
    return { status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' };
  }
}
