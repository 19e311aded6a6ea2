import { Global, Module } from '@nestjs/common';
import { Db } from './db.service';
import { PgListener } from './listener';

/**
 * The unit of work (Db) on the app's own pool, and the instance's one LISTEN connection
 * (PgListener), injectable in every module. Their settings come from the global ConfigModule.
 */
@Global()
@Module({ providers: [Db, PgListener], exports: [Db, PgListener] })
export class DbModule {}
