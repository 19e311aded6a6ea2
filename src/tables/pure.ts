/**
 * The part of src/tables that needs no framework: how table and game rows are decoded and
 * a match is scored. For code that runs without Nest (the migrations, the read models'
 * rebuild, the tests that import it); the rest of the app uses src/tables/index.ts.
 */
export { penaltiesOf, scoreOf } from './engines';
export type { FinishedGameRow } from './engines';
export { decodeChouetteLog, decodeTable, toDomainAction } from './stored-state';
export { tableOf } from './table-rows';
export type { MatchTableRow, StoredGame, StoredTable } from './stored-state';
