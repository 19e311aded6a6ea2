import { Global, Module } from '@nestjs/common';
import { Commands } from './commands.service';

/** Commands (idempotency and audit around one transaction), injectable in every module. */
@Global()
@Module({ providers: [Commands], exports: [Commands] })
export class CommandsModule {}
