/** The ledger: what the rest of the app may use of src/ledger. */
export { LedgerModule } from './ledger.module';
export { addPaymentToParties, LEDGER_KINDS, LedgerRepository, minorFromDb } from './ledger.repository';
export type { NewEntry } from './ledger.repository';
export { LedgerEntryEntity } from './ledger-entry.entity';
export type { LedgerKind } from './ledger-entry.entity';
