import { Module } from '@nestjs/common';
import { ClubsModule } from '../clubs';
import { SessionsModule } from '../sessions';
import { BalancesController, SessionMoneyController } from './settlement.controller';
import { SettlementRepository } from './settlement.repository';
import { SettlementService } from './settlement.service';

/** Settlement: a session's ledger, payments and statement (R6.5), balances per party. */
@Module({
  imports: [SessionsModule, ClubsModule],
  controllers: [SessionMoneyController, BalancesController],
  providers: [SettlementRepository, SettlementService],
  exports: [SettlementRepository],
})
export class SettlementModule {}
