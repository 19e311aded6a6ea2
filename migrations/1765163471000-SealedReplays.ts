import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotent answers are now stored sealed under the caller's own token
 * (src/common/replay-seal.ts). Answers stored in the clear before that which carry a
 * token (a club's creation, an API key's) are forgotten: no usable token may rest in
 * the database, and no key exists to seal them with. A retry of one of those few
 * requests runs afresh. Answers without a token keep replaying as they are.
 */
export class SealedReplays1765163471000 implements MigrationInterface {
  name = 'SealedReplays1765163471000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM operator_idempotency_keys WHERE body NOT LIKE 'aes256gcm:%'`);
    await q.query(`DELETE FROM idempotency_keys WHERE body NOT LIKE 'aes256gcm:%' AND body LIKE '%"token":"bgk\\_%'`);
  }

  async down(): Promise<void> {
    // Nothing to restore: the forgotten answers are gone.
  }
}
