import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit record names who acted: a club API key or the operator (whose club
 * creation is recorded in the new club's record, with no key). `request_id` is the
 * server's own id of the request; the caller's X-Request-Id, when it sent a sane one,
 * is kept beside it in `client_request_id`. (Rows written before this kept the
 * caller's id in `request_id` when it sent one; they are left as they were, the record
 * being append-only.)
 */
export class AuditActors1765163472000 implements MigrationInterface {
  name = 'AuditActors1765163472000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_log ADD COLUMN actor text NOT NULL DEFAULT 'key'`);
    await q.query(`ALTER TABLE audit_log ALTER COLUMN api_key_id DROP NOT NULL`);
    await q.query(`ALTER TABLE audit_log ADD COLUMN client_request_id text NULL`);
    await q.query(`
      ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_ck
        CHECK ((actor = 'key' AND api_key_id IS NOT NULL) OR (actor = 'operator' AND api_key_id IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_ck`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN client_request_id`);
    await q.query(`ALTER TABLE audit_log ALTER COLUMN api_key_id SET NOT NULL`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN actor`);
  }
}
