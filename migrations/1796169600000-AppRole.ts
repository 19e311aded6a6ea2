import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The app's privileges, granted to the group role `bgclub_app` (created here, NOLOGIN,
 * if the cluster has none yet). The app logs in as a role that is a member of it, never
 * as the owner that runs these migrations: it may read and change the working tables,
 * but only read and append the ledger, the payments and the audit record, and it may
 * TRUNCATE nothing. A later migration that creates a table grants bgclub_app what it
 * needs on it in that same migration (docs/architecture.md).
 */
const APP_GROUP_ROLE = 'bgclub_app';

const MUTABLE = [
  'clubs',
  'api_keys',
  'players',
  'sessions',
  'idempotency_keys',
  'operator_idempotency_keys',
  'game_tables',
  'table_players',
  'games',
  'rate_limit_counters',
  'session_totals',
  'team_events',
  'team_event_boards',
  'party_volumes',
  'auth_rate_counters',
];
const APPEND_ONLY = ['ledger_entries', 'payments', 'audit_log'];

export class AppRole1796169600000 implements MigrationInterface {
  name = 'AppRole1796169600000';

  async up(q: QueryRunner): Promise<void> {
    // Roles belong to the cluster: another database on it (or a migration running at the
    // same time on one) may have created the group already.
    await q.query(`
      DO $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_GROUP_ROLE}') THEN
          BEGIN
            CREATE ROLE ${APP_GROUP_ROLE} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
          EXCEPTION
            WHEN duplicate_object OR unique_violation THEN NULL;
            WHEN insufficient_privilege THEN
              RAISE EXCEPTION 'the role ${APP_GROUP_ROLE} does not exist and % may not create it', current_user
                USING ERRCODE = '42501', HINT = 'Create it once as an administrator: CREATE ROLE ${APP_GROUP_ROLE} NOLOGIN; then migrate again.';
          END;
        END IF;
      END $$`);
    await q.query(`
      DO $$
      BEGIN
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO ${APP_GROUP_ROLE}', current_schema());
        EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %I TO ${APP_GROUP_ROLE}', current_schema());
      END $$`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${MUTABLE.join(', ')} TO ${APP_GROUP_ROLE}`);
    await q.query(`GRANT SELECT, INSERT ON ${APPEND_ONLY.join(', ')} TO ${APP_GROUP_ROLE}`);
    // The app checks at start that no migration is pending (when it has no owner URL).
    await q.query(`GRANT SELECT ON migrations TO ${APP_GROUP_ROLE}`);
    await q.query(`GRANT EXECUTE ON FUNCTION bg_expect_rows(bigint, integer, text) TO ${APP_GROUP_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE EXECUTE ON FUNCTION bg_expect_rows(bigint, integer, text) FROM ${APP_GROUP_ROLE}`);
    await q.query(`REVOKE ALL ON ${[...MUTABLE, ...APPEND_ONLY, 'migrations'].join(', ')} FROM ${APP_GROUP_ROLE}`);
    await q.query(`
      DO $$
      BEGIN
        EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA %I FROM ${APP_GROUP_ROLE}', current_schema());
        EXECUTE format('REVOKE USAGE ON SCHEMA %I FROM ${APP_GROUP_ROLE}', current_schema());
      END $$`);
    // The role itself stays: other databases of the cluster may use it.
  }
}
