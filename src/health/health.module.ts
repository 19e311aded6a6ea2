import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { ReadinessCheck } from './readiness';

/** `GET /health`: liveness and a database ping; `GET /ready`: readiness (database and migrations). */
@Module({ controllers: [HealthController], providers: [ReadinessCheck] })
export class HealthModule {}
