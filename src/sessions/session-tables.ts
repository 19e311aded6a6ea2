import type { Reads } from '../db/tx';

/**
 * What a session asks of its tables (R6.7: closing waits for no game). The tables depend on
 * their session, not the other way round: TablesRepository (src/tables) implements this
 * and SessionTablesModule (src/tables) provides it under this token to every module.
 */
export abstract class SessionTables {
  /** Unfinished games of the session's tables (a read, in the closing command's transaction). */
  abstract gamesInProgress(tx: Reads, clubId: string, sessionId: string): Promise<Array<{ tableId: string; kind: string; gameNo: number }>>;
}
