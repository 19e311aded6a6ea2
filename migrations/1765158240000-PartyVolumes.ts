import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * R6.2 bound: each party's gross money per currency (the sum of |amount| of every
 * ledger entry and payment it takes part in; a void takes back what its game added).
 * Every figure the API reports about a party — balances, session nets, paid, received,
 * outstanding, table nets, stats — is a sum of such amounts, so keeping the gross within
 * 2^53 − 1 keeps every figure a safe integer. The CHECK is what refuses a write that
 * would pass it (its violation is answered 422 AMOUNT_OUT_OF_RANGE). NOT VALID: rows
 * filled from data written before the bound may be beyond it; they are kept as they are
 * (a later write touching such a party is refused), and reads of such figures answer 422.
 */
/** Each party's gross money per currency, computed from the whole ledger and every payment. */
export const PARTY_VOLUMES_FROM_HISTORY = `
      INSERT INTO party_volumes (club_id, party, currency, gross_minor)
      SELECT club_id, party, currency, least(sum(amount), 9223372036854775807)::bigint FROM (
        SELECT l.club_id, p.party, s.currency, CASE WHEN l.kind = 'void' THEN -l.amount_minor ELSE l.amount_minor END AS amount
          FROM ledger_entries l JOIN sessions s ON s.club_id = l.club_id AND s.id = l.session_id
         CROSS JOIN LATERAL (VALUES (l.from_party), (l.to_party)) AS p (party)
        UNION ALL
        SELECT y.club_id, p.party, s.currency, y.amount_minor
          FROM payments y JOIN sessions s ON s.club_id = y.club_id AND s.id = y.session_id
         CROSS JOIN LATERAL (VALUES (y.from_party), (y.to_party)) AS p (party)
      ) x GROUP BY club_id, party, currency`;

export class PartyVolumes1765158240000 implements MigrationInterface {
  name = 'PartyVolumes1765158240000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE party_volumes (
        club_id      uuid    NOT NULL,
        party        text    NOT NULL,
        currency     char(3) NOT NULL,
        gross_minor  bigint  NOT NULL,
        CONSTRAINT party_volumes_pk PRIMARY KEY (club_id, party, currency),
        CONSTRAINT party_volumes_club_fk FOREIGN KEY (club_id) REFERENCES clubs (club_id)
      )`);
    await q.query(PARTY_VOLUMES_FROM_HISTORY);
    await q.query(`ALTER TABLE party_volumes ADD CONSTRAINT party_volumes_bound_ck CHECK (gross_minor <= 9007199254740991) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE party_volumes');
  }
}
