/** The audit record: what the rest of the app may use of src/audit. */
export { AuditModule } from './audit.module';
