import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

/** `GET /health`: liveness and a database ping. */
@Module({ controllers: [HealthController] })
export class HealthModule {}
