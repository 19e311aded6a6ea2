import { Module } from '@nestjs/common';
import { LedgerRepository } from './ledger.repository';

/** The ledger: the entries finished games post, read by tables and settlement. */
@Module({
  providers: [LedgerRepository],
  exports: [LedgerRepository],
})
export class LedgerModule {}
