/** Sessions: what the rest of the app may use of src/sessions. */
export { SessionsModule } from './sessions.module';
export { decodeSession, SessionsRepository } from './sessions.repository';
export { SessionTables } from './session-tables';
export { SessionEntity } from './session.entity';
