import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A player's statement, a page at a time (GET /v1/players/{id}/statement): its sessions
 * by date (`startsAt`, else creation), then id, from a page key on. `sessions_dated_id_ix`
 * holds the id after the date, so the key is one range of the index and a page is read in
 * its order without a sort; it replaces `sessions_dated_ix` (its prefix, which served the
 * range reads that now use this one).
 */
export class StatementPages1796950800000 implements MigrationInterface {
  name = 'StatementPages1796950800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX sessions_dated_id_ix ON sessions (club_id, (coalesce(starts_at, created_at)), id)`);
    await q.query(`DROP INDEX sessions_dated_ix`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX sessions_dated_ix ON sessions (club_id, (coalesce(starts_at, created_at)))`);
    await q.query(`DROP INDEX sessions_dated_id_ix`);
  }
}
