import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event log (a transactional outbox) and the webhook subscriptions fed from it.
 *
 * `events`: one row per change a client could show, inserted by the command's own
 * transaction. Its place in the log is (tx, seq): the inserting transaction's id
 * (`pg_current_xact_id()`, a 64-bit xid8 kept as
 * bigint) then a global sequence. A reader only returns events whose
 * `tx` is below the oldest transaction still running (`pg_snapshot_xmin`), so every
 * event it could ever see before a position is already committed (or gone with its
 * rollback) when it passes that position: resuming after an id misses nothing
 * (docs/architecture.md, "The event log"). The app may read, append and purge (after
 * 30 days), never change an event.
 *
 * `webhook_deliveries`: one row per (subscription, event) to send, inserted by a trigger
 * on `events` in the same transaction, so an event committed is an event delivered even
 * if the app stops right after the COMMIT. `webhook_attempts` is the delivery log.
 */
const APP_GROUP_ROLE = 'bgclub_app';

export class Events1796342400000 implements MigrationInterface {
  name = 'Events1796342400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE events_seq AS bigint`);
    await q.query(`
      CREATE TABLE events (
        club_id uuid NOT NULL,
        tx bigint NOT NULL DEFAULT pg_current_xact_id()::text::bigint,
        seq bigint NOT NULL DEFAULT nextval('events_seq'),
        type text NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        session_id uuid NULL,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        data json NOT NULL,
        PRIMARY KEY (club_id, tx, seq)
      )`);
    await q.query(`CREATE INDEX events_session ON events (club_id, session_id, tx, seq) WHERE session_id IS NOT NULL`);
    await q.query(`CREATE INDEX events_occurred_at ON events USING brin (occurred_at)`);

    await q.query(`
      CREATE TABLE webhooks (
        club_id uuid NOT NULL REFERENCES clubs (club_id),
        id uuid NOT NULL,
        url text NOT NULL,
        types text[] NULL,
        session_id uuid NULL,
        description text NULL,
        secret_sealed text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text NULL,
        lease_until timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        version integer NOT NULL DEFAULT 1,
        PRIMARY KEY (club_id, id)
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        club_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        event_tx bigint NOT NULL,
        event_seq bigint NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (club_id, webhook_id, event_tx, event_seq),
        FOREIGN KEY (club_id, webhook_id) REFERENCES webhooks (club_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        club_id uuid NOT NULL,
        webhook_id uuid NOT NULL,
        id uuid NOT NULL,
        event_id text NOT NULL,
        attempt integer NOT NULL,
        status text NOT NULL,
        response_status integer NULL,
        error text NULL,
        at timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NULL,
        PRIMARY KEY (club_id, webhook_id, id),
        FOREIGN KEY (club_id, webhook_id) REFERENCES webhooks (club_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX webhook_attempts_at ON webhook_attempts (club_id, webhook_id, at DESC, id DESC)`);

    // Every event is queued for each enabled subscription that wants it, in the event's own
    // transaction: one statement per command (its events come in one INSERT), not one per event.
    await q.query(`
      CREATE FUNCTION bg_queue_webhook_deliveries() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (club_id, webhook_id, event_tx, event_seq)
        SELECT w.club_id, w.id, e.tx, e.seq
          FROM new_events e
          JOIN webhooks w
            ON w.club_id = e.club_id
           AND w.enabled
           AND (w.types IS NULL OR e.type = ANY (w.types))
           AND (w.session_id IS NULL OR w.session_id = e.session_id);
        RETURN NULL;
      END
      $$`);
    await q.query(`CREATE TRIGGER events_queue_webhooks AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION bg_queue_webhook_deliveries()`);

    await q.query(`GRANT SELECT, INSERT, DELETE ON events TO ${APP_GROUP_ROLE}`);
    await q.query(`GRANT USAGE ON SEQUENCE events_seq TO ${APP_GROUP_ROLE}`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON webhooks, webhook_deliveries, webhook_attempts TO ${APP_GROUP_ROLE}`);
    await q.query(`GRANT EXECUTE ON FUNCTION bg_queue_webhook_deliveries() TO ${APP_GROUP_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER events_queue_webhooks ON events`);
    await q.query(`DROP FUNCTION bg_queue_webhook_deliveries()`);
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhooks`);
    await q.query(`DROP TABLE events`);
    await q.query(`DROP SEQUENCE events_seq`);
  }
}
