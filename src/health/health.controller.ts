import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/api-error';
import { Public } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { ApiProblem } from '../common/openapi';
import { Db } from '../db/db.service';
import { ReadinessCheck } from './readiness';

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'unavailable'] })
  status: 'ok' | 'unavailable';

  @ApiProperty({ enum: ['up', 'down'], description: 'Whether the database answered a ping within a second.' })
  database: 'up' | 'down';
}

export class ReadyDto {
  @ApiProperty({ enum: ['ready'] })
  status: 'ready';

  @ApiProperty({ description: 'How many migrations this build carries, every one of them applied to the database.', example: 16 })
  migrations: number;
}

@ApiTags('Service')
@Controller()
export class HealthController {
  constructor(
    private readonly db: Db,
    private readonly readiness: ReadinessCheck,
  ) {}

  @Get('health')
  @Public()
  @ApiOperation({
    operationId: 'getHealth',
    summary: 'Liveness and database ping (no token needed)',
    description:
      'Liveness: 200 while the process serves and its database answers a ping within a second, else 503. For a supervisor deciding whether to restart the instance; a load balancer deciding whether to send it traffic asks GET /ready.',
  })
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

  @Get('ready')
  @Public()
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Readiness: the database answers and every migration is applied (no token needed)',
    description:
      'Readiness, for a load balancer or an orchestrator: 200 once the database answers as a primary and every migration of this build is applied to it; ' +
      'otherwise 503 NOT_READY, whose `missing` lists what is missing (`database` when it does not answer, `primary` when it answers as a standby, as during a failover, or `migration:<name>` per migration not applied). ' +
      'Cheap and bounded: one statement, an answer within about a second, and concurrent probes share one check.',
  })
  @ApiOkResponse({ type: ReadyDto, description: 'Ready to serve.' })
  @ApiProblem(503, 'Not ready: the database does not answer within a second, answers as a standby (no primary), or a migration is not applied yet; `missing` says which (NOT_READY).')
  async ready(): Promise<ReadyDto> {
    const { missing } = await this.readiness.check();
    if (missing.length > 0) {
      const migrations = missing.filter((m) => m.startsWith('migration:'));
      const what = missing.includes('database')
        ? 'the database does not answer'
        : missing.includes('primary')
          ? 'the database answers as a standby (no primary reachable: a failover may be under way)'
          : `${migrations.length} migration(s) not applied: ${migrations.map((m) => m.replace(/^migration:/, '')).join(', ')}`;
      throw new ApiError(ErrorCode.NOT_READY, `Not ready to serve: ${what}.`, { missing, headers: { 'retry-after': '5' } });
    }
    return { status: 'ready', migrations: this.readiness.expectedCount };
  }
}
