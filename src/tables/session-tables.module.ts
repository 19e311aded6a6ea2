import { Global, Module } from '@nestjs/common';
import { SessionTables } from '../sessions';
import { TablesModule } from './tables.module';
import { TablesRepository } from './tables.repository';

/**
 * SessionTables (what closing a session asks of its tables, declared by src/sessions)
 * answered by TablesRepository. Global, because SessionsModule cannot import the tables
 * (they import the sessions).
 */
@Global()
@Module({
  imports: [TablesModule],
  providers: [{ provide: SessionTables, useExisting: TablesRepository }],
  exports: [SessionTables],
})
export class SessionTablesModule {}
