import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit counters per API key, shared by every app instance (fixed windows on the
 * database clock), and the audit record of every command: which key did what, when.
 */
export class Guards1764806400000 implements MigrationInterface {
  name = 'Guards1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rate_limit_counters (
        club_id       uuid        NOT NULL,
        api_key_id    uuid        NOT NULL,
        window_start  timestamptz NOT NULL,
        hits          integer     NOT NULL,
        CONSTRAINT rate_limit_counters_pk PRIMARY KEY (club_id, api_key_id, window_start),
        CONSTRAINT rate_limit_counters_key_fk FOREIGN KEY (club_id, api_key_id) REFERENCES api_keys (club_id, id)
      )`);
    await q.query(`
      CREATE TABLE audit_log (
        club_id      uuid        NOT NULL,
        id           uuid        NOT NULL,
        api_key_id   uuid        NOT NULL,
        method       text        NOT NULL,
        route        text        NOT NULL,
        path         text        NOT NULL,
        status       smallint    NOT NULL,
        request_id   text        NULL,
        body         jsonb       NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT audit_log_pk PRIMARY KEY (club_id, id),
        CONSTRAINT audit_log_key_fk FOREIGN KEY (club_id, api_key_id) REFERENCES api_keys (club_id, id)
      )`);
    await q.query(`CREATE INDEX audit_log_key_ix ON audit_log (club_id, api_key_id, id)`);
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit record is append-only' USING ERRCODE = 'P0001';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER audit_log_no_change ON audit_log');
    await q.query('DROP FUNCTION audit_log_append_only()');
    await q.query('DROP TABLE audit_log');
    await q.query('DROP TABLE rate_limit_counters');
  }
}
