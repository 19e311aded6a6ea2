import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Running nets per table and party (a player or the house): received − paid over the
 * table's ledger entries, voids included. A money game's and a chouette's answers show
 * them (`netMinor`), and every game command reads them; summed from the ledger they grew
 * with the table's history (about 7 entries per chouette game). Kept in the same
 * transaction as the entries they sum (LedgerRepository.post), rebuilt by
 * `npm run rebuild-read-models`, and filled here from the ledger as it stands. No
 * currency: a table belongs to one session, so all its entries are in one currency.
 * Tournament entries (R9.9) belong to no table and are not summed.
 */
export class TableNets1796954400000 implements MigrationInterface {
  name = 'TableNets1796954400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE table_nets (
        club_id    uuid   NOT NULL,
        table_id   uuid   NOT NULL,
        party      text   NOT NULL,
        net_minor  bigint NOT NULL DEFAULT 0,
        CONSTRAINT table_nets_pk PRIMARY KEY (club_id, table_id, party),
        CONSTRAINT table_nets_table_fk FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, id)
      )`);
    await q.query(`
      INSERT INTO table_nets (club_id, table_id, party, net_minor)
      SELECT l.club_id, l.table_id, p.party, sum(p.amount)
        FROM ledger_entries l
       CROSS JOIN LATERAL (VALUES (l.to_party, l.amount_minor), (l.from_party, -l.amount_minor)) AS p (party, amount)
       WHERE l.table_id IS NOT NULL
       GROUP BY l.club_id, l.table_id, p.party`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON table_nets TO bgclub_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE table_nets');
  }
}
