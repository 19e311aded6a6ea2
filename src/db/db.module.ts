import { Global, Module } from '@nestjs/common';
import { Db } from './db.service';

/** The unit of work (Db) on the app's own pool, injectable in every module. Its settings come from the global ConfigModule. */
@Global()
@Module({ providers: [Db], exports: [Db] })
export class DbModule {}
