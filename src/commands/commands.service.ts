import { Injectable } from '@nestjs/common';
import type { CommandContext } from '../common/command';
import { Db } from '../db/db.service';
import type { Tx } from '../db/tx';
import { recordAudit } from './audit-record';
import { claim, remember } from './idempotency';

/**
 * A command as the HTTP layer sees it: one transaction (the unit of work) wrapped in
 * what every write request gets. Before the work, its Idempotency-Key is claimed: when
 * it was answered before, `run` throws that answer (ReplayedAnswer, src/common/command.ts),
 * the transaction is rolled back having written nothing, and the edge answers it. After
 * the work, the audit record and the response for replay are written with the work's own COMMIT.
 */
@Injectable()
export class Commands {
  constructor(private readonly db: Db) {}

  /** `work` in one unit of work; the audit record and the answer kept for replay carry the route's success status (`ctx.successStatus`). */
  run<T>(ctx: CommandContext, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const idem = ctx.idempotency;
      if (idem) {
        const prior = await claim(tx, ctx, idem);
        // Not retried (no 40001/40P01) and rolled back: the claim wrote nothing.
        if (prior) throw prior;
      }
      const result = await work(tx);
      recordAudit(tx, ctx, ctx.successStatus);
      if (idem) remember(tx, ctx, idem, ctx.successStatus, JSON.stringify(result));
      return result;
    });
  }

  /** Forgets idempotency records older than the window (at least 24 h). */
  async purgeIdempotency(ttlHours: number): Promise<number> {
    const a = await this.db.once.write({ text: 'DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)', values: [ttlHours] });
    const b = await this.db.once.write({ text: 'DELETE FROM operator_idempotency_keys WHERE created_at < now() - make_interval(hours => $1)', values: [ttlHours] });
    return a + b;
  }
}
