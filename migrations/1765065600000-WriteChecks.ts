import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * bg_expect_rows: the check a command's batched writes make on their guarded writes
 * (a locked row updated exactly once), inside the statement that is sent with COMMIT
 * (src/db/transaction.ts). A wrong count raises, so the COMMIT in the same message is
 * skipped and the transaction rolls back.
 */
export class WriteChecks1765065600000 implements MigrationInterface {
  name = 'WriteChecks1765065600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION bg_expect_rows(touched bigint, expected integer, what text) RETURNS integer
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF touched <> expected THEN
          RAISE EXCEPTION '%: expected % row(s), touched %', what, expected, touched USING ERRCODE = 'XX000';
        END IF;
        RETURN touched::integer;
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION bg_expect_rows(bigint, integer, text)');
  }
}
