import { Global, Module } from '@nestjs/common';
import { Outbox } from './outbox';

/** The event log's write side, injectable in every module (a kernel module, like Commands). */
@Global()
@Module({ providers: [Outbox], exports: [Outbox] })
export class OutboxModule {}
