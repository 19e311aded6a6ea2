/** Tables and games: what the rest of the app may use of src/tables. */
export { TablesModule } from './tables.module';
export { SessionTablesModule } from './session-tables.module';
export { TablesRepository } from './tables.repository';
export { assertPlayersInClub, SessionGate } from './table-context';
export { newMatchSetup, penaltiesOf, scoreOf, standingForfeit, standingPenalties } from './engines';
export type { FinishedGameRow, MatchTableSetup, MatchTableState } from './engines';
export { decodeChouetteLog, decodeTable, decodeTableJson, toDomainAction } from './stored-state';
export { GameStats } from './game-stats';
export type { StatsChange } from './game-stats';
export type { MatchTableRow } from './stored-state';
export { newTableRow, TableEntity, TablePlayerEntity } from './table.entity';
export { MatchEndDto, MatchRulesDto, MatchRulesStateDto, VariantMatchRulesDto, VariantMatchRulesStateDto } from './tables.dto';
export { matchEnd, matchView } from './table-views';
export { tableEvent } from './table-events';
export { MatchEndHooks } from './match-end-hooks';
export type { MatchChange, MatchEndHook, HookWrites } from './match-end-hooks';
export { MatchResultsService } from './match-results.service';
export type { MatchTournamentRef } from './engines';
