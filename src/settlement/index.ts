/** Settlement: what the rest of the app may use of src/settlement. */
export { SettlementModule } from './settlement.module';
export { SettlementRepository } from './settlement.repository';
export type { SessionMatchRow } from './settlement.repository';
