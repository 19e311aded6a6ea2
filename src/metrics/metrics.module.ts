import { Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The Prometheus metrics of the instance (GET /metrics is registered on Fastify: metrics-route.ts). */
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
