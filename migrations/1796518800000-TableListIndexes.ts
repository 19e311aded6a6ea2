import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What makes a page of tables O(page) under any filter (GET /v1/matches, /v1/money-games,
 * /v1/chouettes with `playerId` and `status`).
 *
 * `table_players.kind` and `.status`: copies of their table's kind (which never changes)
 * and status (kept current by TablesRepository.save in the transaction that changes the
 * table's), so that a player's tables of a kind and status are one range of
 * `table_players_player_kind_ix`, in table id order. `game_tables_kind_status_ix`: a
 * kind's tables of a status in id order (a full index: money tables without a lead to
 * stop at stay in progress for good).
 */
export class TableListIndexes1796518800000 implements MigrationInterface {
  name = 'TableListIndexes1796518800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE table_players ADD COLUMN kind text NULL, ADD COLUMN status text NULL`);
    await q.query(`UPDATE table_players tp SET kind = t.kind, status = t.status FROM game_tables t WHERE t.club_id = tp.club_id AND t.id = tp.table_id`);
    await q.query(`ALTER TABLE table_players ALTER COLUMN kind SET NOT NULL, ALTER COLUMN status SET NOT NULL`);
    await q.query(`ALTER TABLE table_players ADD CONSTRAINT table_players_kind_ck CHECK (kind IN ('match', 'money', 'chouette'))`);
    await q.query(`ALTER TABLE table_players ADD CONSTRAINT table_players_status_ck CHECK (status IN ('in-progress', 'finished'))`);
    await q.query(`CREATE INDEX table_players_player_kind_ix ON table_players (club_id, player_id, kind, status, table_id)`);
    await q.query(`CREATE INDEX game_tables_kind_status_ix ON game_tables (club_id, kind, status, id)`);
    // No new table or function: bgclub_app's privileges on both tables (the AppRole migration) cover the new columns.
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX game_tables_kind_status_ix`);
    await q.query(`DROP INDEX table_players_player_kind_ix`);
    await q.query(`ALTER TABLE table_players DROP CONSTRAINT table_players_status_ck, DROP CONSTRAINT table_players_kind_ck`);
    await q.query(`ALTER TABLE table_players DROP COLUMN status, DROP COLUMN kind`);
  }
}
