import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuditModule } from './audit';
import { BoardsModule } from './boards';
import { ClubsModule } from './clubs';
import { ProblemFilter } from './common/problem.filter';
import type { AppLogger } from './common/logging';
import type { AppConfig } from './config';
import { ConfigModule } from './config.module';
import { CommandsModule } from './commands/commands.module';
import { EventsModule } from './events';
import { DbModule } from './db/db.module';
import { OutboxModule } from './outbox/outbox.module';
import { AuthGuard, AuthModule } from './guards';
import { HealthModule } from './health';
import { LedgerModule } from './ledger';
import { MetricsModule } from './metrics';
import { PlayerStatsModule } from './player-stats';
import { PlayersModule } from './players';
import { RatingsModule } from './ratings';
import { SessionsModule } from './sessions';
import { SettlementModule } from './settlement';
import { StandingsModule } from './standings';
import { SessionTablesModule, TablesModule } from './tables';
import { TeamEventsModule } from './team-events';
import { TournamentsModule } from './tournaments';
import { WebhooksModule } from './webhooks';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  logger: AppLogger;
  /** Build the module graph without connecting (OpenAPI generation); the pool connects on first use anyway. */
  offline?: boolean;
}

/**
 * The composition root: the kernel's modules (configuration, database), the feature
 * modules, and the guard and filter every route goes through. The OpenAPI document lists
 * the routes in the order Nest registers them: module by module, each the first time an
 * import reaches it; keep this order (`npm run openapi` must not change the document).
 */
@Module({})
export class AppModule {
  static register(o: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register({ config: o.config, databaseUrl: o.databaseUrl, logger: o.logger }),
        DbModule,
        CommandsModule,
        OutboxModule,
        AuthModule,
        HealthModule,
        ClubsModule,
        PlayersModule,
        PlayerStatsModule,
        SessionsModule,
        SettlementModule,
        AuditModule,
        RatingsModule,
        LedgerModule,
        TablesModule,
        SessionTablesModule,
        TeamEventsModule,
        TournamentsModule,
        StandingsModule,
        EventsModule,
        BoardsModule,
        WebhooksModule,
        MetricsModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
    };
  }
}
