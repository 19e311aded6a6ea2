import { isDatabaseUnavailable } from '../common/db-failures';
import type { ReadSource } from '../common/read-source';
import type { Reads } from './tx';
import type { UnitOfWork } from './unit-of-work';

/** How long a read waits for a standby that has not yet replayed the client's write, before it goes to the primary. */
export const REPLICA_WAIT_MS = 250;
const RETRY_MS = 25;

/**
 * In the read's own snapshot (its first statement): the standby is a standby still and has
 * replayed the WAL up to `atLeast`. Under REPEATABLE READ the snapshot is taken by this
 * statement, so every commit up to that position is visible to the reads that follow.
 */
const CAUGHT_UP_SQL = 'SELECT pg_is_in_recovery() AS standby, coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS caught_up';

/** The standby has not replayed the client's write yet. */
class Behind extends Error {}
/** The server is no standby (promoted, or a primary named as the standby): the primary answers at once. */
class NotAStandby extends Error {}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reads from a standby when the client accepts it. The standby must have replayed the
 * client's Consistency-Token; one that lags gets REPLICA_WAIT_MS to catch up, and a
 * standby that lags longer or is unreachable leaves the read to the primary, and so, at
 * once, does a server that is no standby (promoted in a failover).
 * A refusal the read itself raises (a 404, say) is the answer, wherever it ran.
 */
export class ReplicaReads {
  constructor(
    private readonly replica: UnitOfWork,
    private readonly primary: UnitOfWork,
  ) {}

  async read<T>(source: ReadSource, work: (tx: Reads) => Promise<T>): Promise<T> {
    const deadline = Date.now() + REPLICA_WAIT_MS;
    for (;;) {
      try {
        const value = await this.replica.read(async (tx) => {
          const state = await tx.maybeOne(CAUGHT_UP_SQL, [source.atLeast ?? '0/0'], (r) => ({ standby: r.standby === true, caughtUp: r.caught_up === true }));
          if (state?.standby !== true) throw new NotAStandby();
          if (!state.caughtUp) throw new Behind();
          return work(tx);
        });
        source.servedBy = 'replica';
        return value;
      } catch (e) {
        if (e instanceof Behind && Date.now() + RETRY_MS < deadline) {
          await sleep(RETRY_MS);
          continue;
        }
        if (!(e instanceof Behind) && !(e instanceof NotAStandby) && !isDatabaseUnavailable(e)) throw e;
        break;
      }
    }
    source.servedBy = 'primary';
    return this.primary.read(work);
  }
}

/**
 * The primary's WAL position for a Consistency-Token: at or past every commit that
 * returned before it was asked for. Shared: the position read by a query already running
 * may predate the caller's commit, so callers that arrive meanwhile share the next one
 * (at most two queries in flight however many writes answer at once).
 */
export class CommitPosition {
  private running: Promise<string | null> | null = null;
  private queued: Promise<string | null> | null = null;

  constructor(private readonly once: Reads) {}

  /** The position, or null when the primary did not answer (the write is answered without a token). */
  read(): Promise<string | null> {
    if (this.running === null) return this.start();
    this.queued ??= this.running.then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<string | null> {
    const run: Promise<string | null> = this.once
      .maybeOne('SELECT pg_current_wal_insert_lsn()::text AS lsn', [], (r) => String(r.lsn))
      .catch(() => null)
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run;
  }
}
