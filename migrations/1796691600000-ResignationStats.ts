import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resignation records (R3.10): each player's offers made, accepted and refused, kept per
 * variant with his other counters in `player_stats`. Games recorded before this had no
 * `offeredBy` and no refused offers, so every existing row starts, rightly, at zero.
 */
export class ResignationStats1796691600000 implements MigrationInterface {
  name = 'ResignationStats1796691600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE player_stats
        ADD COLUMN resignations_offered  integer NOT NULL DEFAULT 0,
        ADD COLUMN resignations_accepted integer NOT NULL DEFAULT 0,
        ADD COLUMN resignations_refused  integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE player_stats DROP COLUMN resignations_offered, DROP COLUMN resignations_accepted, DROP COLUMN resignations_refused`);
  }
}
