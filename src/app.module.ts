import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApiKeysRepository } from './clubs/api-keys.repository';
import { ClubsController } from './clubs/clubs.controller';
import { ClubsRepository } from './clubs/clubs.repository';
import { ClubsService } from './clubs/clubs.service';
import { AuthGuard } from './guards/auth.guard';
import { ProblemFilter } from './common/problem.filter';
import { APP_LOGGER, AppLogger } from './common/logging';
import type { AppConfig } from './config';
import { CONFIG, DATABASE_URL } from './config.provider';
import { Commands } from './commands/commands.service';
import { Db } from './db/db.service';
import { HealthController } from './health/health.controller';
import { PlayersController } from './players/players.controller';
import { PlayersRepository } from './players/players.repository';
import { PlayersService } from './players/players.service';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { SessionTables } from './sessions/session-tables';
import { LedgerRepository } from './ledger/ledger.repository';
import { ChouetteGamesController, MatchGamesController, MoneyGamesGamesController } from './tables/games.controller';
import { ChouettesController } from './tables/chouettes.controller';
import { ChouettesService } from './tables/chouettes.service';
import { GamesService } from './tables/games.service';
import { SessionGate } from './tables/table-context';
import { MatchesController, MoneyGamesController } from './tables/tables.controller';
import { TablesRepository } from './tables/tables.repository';
import { TablesService } from './tables/tables.service';
import { TeamEventsController } from './team-events/team-events.controller';
import { TeamEventsRepository } from './team-events/team-events.repository';
import { TeamEventsService } from './team-events/team-events.service';
import { BalancesController, SessionMoneyController } from './settlement/settlement.controller';
import { SettlementRepository } from './settlement/settlement.repository';
import { SettlementService } from './settlement/settlement.service';
import { RateLimiter } from './guards/rate-limiter';
import { ApiKeyCache } from './guards/api-key-cache';
import { RatingsController } from './ratings/ratings.controller';
import { RatingsService } from './ratings/ratings.service';
import { AuditController, AuditService } from './guards/audit';
import { PlayerDetails } from './players/player-details';
import { PlayerStatsRepository } from './player-stats/player-stats.repository';
import { PlayerStatsService } from './player-stats/player-stats.service';
import { StandingsController } from './standings/standings.controller';
import { StandingsRepository } from './standings/standings.repository';
import { StandingsService } from './standings/standings.service';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  logger: AppLogger;
  /**
   * Build the module graph without connecting (OpenAPI generation). Building it never
   * connects: the pools open their first connection on their first statement.
   */
  offline?: boolean;
}

@Module({})
export class AppModule {
  static register(o: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      controllers: [
        HealthController,
        ClubsController,
        PlayersController,
        SessionsController,
        SessionMoneyController,
        BalancesController,
        AuditController,
        RatingsController,
        MatchesController,
        MatchGamesController,
        MoneyGamesController,
        MoneyGamesGamesController,
        ChouettesController,
        ChouetteGamesController,
        TeamEventsController,
        StandingsController,
      ],
      providers: [
        { provide: CONFIG, useValue: o.config },
        { provide: DATABASE_URL, useValue: o.databaseUrl },
        { provide: APP_LOGGER, useValue: o.logger },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ProblemFilter },
        Db,
        Commands,
        ClubsRepository,
        ApiKeysRepository,
        ClubsService,
        PlayersRepository,
        PlayersService,
        SessionsRepository,
        SessionsService,
        SessionGate,
        TablesRepository,
        { provide: SessionTables, useExisting: TablesRepository },
        LedgerRepository,
        TablesService,
        GamesService,
        ChouettesService,
        TeamEventsRepository,
        TeamEventsService,
        SettlementRepository,
        SettlementService,
        RateLimiter,
        ApiKeyCache,
        RatingsService,
        AuditService,
        PlayerStatsRepository,
        PlayerStatsService,
        { provide: PlayerDetails, useExisting: PlayerStatsService },
        StandingsRepository,
        StandingsService,
      ],
    };
  }
}
