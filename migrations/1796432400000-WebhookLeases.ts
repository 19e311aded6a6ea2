import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the webhook delivery worker needs beside the tables of the Events migration.
 *
 * `webhooks.lease_owner`: the claim that holds a subscription's lease (`lease_until`). One
 * worker at a time sends a subscription's deliveries, oldest event first; it renews and
 * releases the lease only while `lease_owner` is still its own claim, so a worker that
 * stalled past its lease cannot take the subscription back from the one that claimed it since.
 *
 * `webhook_deliveries_pending`: a subscription's pending deliveries in the order of the log,
 * without walking the delivered ones kept for 30 days. The BRIN indexes serve the purge.
 */
export class WebhookLeases1796432400000 implements MigrationInterface {
  name = 'WebhookLeases1796432400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks ADD COLUMN lease_owner uuid NULL`);
    await q.query(`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (club_id, webhook_id, event_tx, event_seq) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_created_at ON webhook_deliveries USING brin (created_at)`);
    await q.query(`CREATE INDEX webhook_attempts_at_brin ON webhook_attempts USING brin (at)`);
    // No new table or function: bgclub_app's table privileges (the Events migration) cover the new column.
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_attempts_at_brin`);
    await q.query(`DROP INDEX webhook_deliveries_created_at`);
    await q.query(`DROP INDEX webhook_deliveries_pending`);
    await q.query(`ALTER TABLE webhooks DROP COLUMN lease_owner`);
  }
}
