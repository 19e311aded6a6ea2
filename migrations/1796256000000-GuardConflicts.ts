import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * bg_expect_rows raises with its own SQLSTATE, BG409, instead of XX000 (internal error):
 * a guarded write sent with the COMMIT that missed its row is then answered like one sent
 * on its own, 409 CONFLICT (the row moved on since it was read), not 500. The function
 * keeps its signature, owner and grants.
 */
export class GuardConflicts1796256000000 implements MigrationInterface {
  name = 'GuardConflicts1796256000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(body('BG409'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(body('XX000'));
  }
}

function body(sqlstate: string): string {
  return `
    CREATE OR REPLACE FUNCTION bg_expect_rows(touched bigint, expected integer, what text) RETURNS integer
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      IF touched <> expected THEN
        RAISE EXCEPTION '%: expected % row(s), touched %', what, expected, touched USING ERRCODE = '${sqlstate}';
      END IF;
      RETURN touched::integer;
    END
    $$`;
}
