import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger';
import { RatingsModule } from '../ratings';
import { ChouettesController } from './chouettes.controller';
import { ChouettesService } from './chouettes.service';
import { ChouetteGamesController, MatchGamesController, MoneyGamesGamesController } from './games.controller';
import { GamesService } from './games.service';
import { MatchResultsService } from './match-results.service';
import { MatchEndHooks } from './match-end-hooks';
import { MatchEnds } from './match-ends';
import { GameOutcomes } from './game-outcomes';
import { SessionGate } from './table-context';
import { MatchesController, MoneyGamesController } from './tables.controller';
import { TablesRepository } from './tables.repository';
import { TablesService } from './tables.service';

/**
 * Tables and their games: matches, money games and chouettes. A finished game posts to
 * the ledger and a finished match is rated, in the same transaction.
 */
@Module({
  imports: [LedgerModule, RatingsModule],
  // In this order: the OpenAPI document lists the routes as they are registered.
  controllers: [MatchesController, MatchGamesController, MoneyGamesController, MoneyGamesGamesController, ChouettesController, ChouetteGamesController],
  providers: [TablesRepository, SessionGate, TablesService, GamesService, GameOutcomes, MatchResultsService, ChouettesService, MatchEndHooks, MatchEnds],
  exports: [TablesRepository, SessionGate, MatchEndHooks, MatchResultsService, TablesService, ChouettesService, GamesService],
})
export class TablesModule {}
