import { Global, Module } from '@nestjs/common';
import { Db } from './db.service';

/**
 * The unit of work (Db), injectable in every module. Its DataSource comes from
 * TypeOrmModule.forRoot, which the app module imports.
 */
@Global()
@Module({ providers: [Db], exports: [Db] })
export class DbModule {}
