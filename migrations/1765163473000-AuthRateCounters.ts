import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit counters that belong to no club: failed authentications per client
 * address (`ip:<address>`) and the operator token (`operator`). Fixed windows on the
 * database clock, shared by every app instance, like `rate_limit_counters`.
 */
export class AuthRateCounters1765163473000 implements MigrationInterface {
  name = 'AuthRateCounters1765163473000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth_rate_counters (
        subject       text        NOT NULL,
        window_start  timestamptz NOT NULL,
        hits          integer     NOT NULL,
        CONSTRAINT auth_rate_counters_pk PRIMARY KEY (subject, window_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE auth_rate_counters');
  }
}
