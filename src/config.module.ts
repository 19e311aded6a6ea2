import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from './common/logging';
import type { AppConfig } from './config';
import { CONFIG, DATABASE_URL } from './config.provider';

export interface ConfigModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  logger: AppLogger;
}

/**
 * What the process was started with, injectable in every module: the validated
 * configuration (CONFIG), the database URL the app serves on (DATABASE_URL) and the
 * app's one logger (APP_LOGGER).
 */
@Global()
@Module({})
export class ConfigModule {
  static register(o: ConfigModuleOptions): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: CONFIG, useValue: o.config },
        { provide: DATABASE_URL, useValue: o.databaseUrl },
        { provide: APP_LOGGER, useValue: o.logger },
      ],
      exports: [CONFIG, DATABASE_URL, APP_LOGGER],
    };
  }
}
