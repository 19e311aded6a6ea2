import { EventEmitter } from 'node:events';
import type { PoolClient } from 'pg';
import { CommitOutcomeUnknown, isDatabaseUnavailable } from '../../src/common/db-failures';
import { prefersReplica, ReadSource, readSource } from '../../src/common/read-source';
import { Connection } from '../../src/db/connection';
import { CommitPosition, ReplicaReads } from '../../src/db/replica-reads';
import type { Reads } from '../../src/db/tx';
import type { UnitOfWork } from '../../src/db/unit-of-work';

describe('Prefer: replica and the Consistency-Token', () => {
  it('reads the replica preference among others, in any case, with parameters', () => {
    expect(prefersReplica('replica')).toBe(true);
    expect(prefersReplica('respond-async, Replica; strict')).toBe(true);
    expect(prefersReplica(['wait=10', 'replica'])).toBe(true);
    expect(prefersReplica('return=minimal')).toBe(false);
    expect(prefersReplica('replicas')).toBe(false);
    expect(prefersReplica(undefined)).toBe(false);
  });

  it('answers null without Prefer: replica, whatever the token (the primary answers)', () => {
    expect(readSource({ 'consistency-token': '0/16B3748' })).toBeNull();
    expect(readSource({ 'consistency-token': 'not a token' })).toBeNull();
  });

  it('takes a WAL position as the token, and no token as no constraint', () => {
    expect(readSource({ prefer: 'replica', 'consistency-token': '0/16b3748' })).toEqual({ atLeast: '0/16B3748' });
    expect(readSource({ prefer: 'replica' })).toEqual({ atLeast: null });
    expect(readSource({ prefer: 'replica', 'consistency-token': '' })).toEqual({ atLeast: null });
  });

  it('refuses a token that is not a WAL position with 400 VALIDATION_FAILED', () => {
    for (const bad of ['16B3748', '0/16B3748; DROP TABLE x', '0/', 'G/1', '123456789/1']) {
      expect(() => readSource({ prefer: 'replica', 'consistency-token': bad })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', status: 400 }));
    }
  });
});

/** A unit of work whose read runs `work` on a fake transaction answering the standby check with `caughtUp` (or failing). */
function fakeUow(name: string, caughtUp: () => boolean | Error, log: string[]): UnitOfWork {
  return {
    read: async <T>(work: (tx: Reads) => Promise<T>): Promise<T> => {
      const tx: Reads = {
        rows: () => Promise.resolve([]),
        maybeOne: <U>(text: string, _values: readonly unknown[], decode: (r: Record<string, unknown>) => U): Promise<U | null> => {
          if (/pg_last_wal_replay_lsn/.test(text)) {
            const c = caughtUp();
            if (c instanceof Error) return Promise.reject(c);
            log.push(`${name}: check ${c}`);
            return Promise.resolve(decode({ standby: name === 'replica', caught_up: c }));
          }
          return Promise.resolve(null);
        },
      };
      log.push(`${name}: read`);
      return work(tx);
    },
  } as unknown as UnitOfWork;
}

describe('ReplicaReads', () => {
  it('serves the read from the standby once it has replayed the token', async () => {
    const log: string[] = [];
    const reads = new ReplicaReads(
      fakeUow('replica', () => true, log),
      fakeUow('primary', () => true, log),
    );
    const source: ReadSource = { atLeast: '0/10' };
    expect(await reads.read<string>(source, () => Promise.resolve('statement'))).toBe('statement');
    expect(source).toEqual({ atLeast: '0/10', servedBy: 'replica' });
    expect(log).toEqual(['replica: read', 'replica: check true']);
  });

  it('waits a little for a standby that lags, then reads from the primary', async () => {
    const log: string[] = [];
    const reads = new ReplicaReads(
      fakeUow('replica', () => false, log),
      fakeUow('primary', () => true, log),
    );
    const source: ReadSource = { atLeast: '0/10' };
    const started = Date.now();
    expect(await reads.read<string>(source, () => Promise.resolve('statement'))).toBe('statement');
    expect(source.servedBy).toBe('primary');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(log.filter((l) => l === 'replica: check false').length).toBeGreaterThan(2);
    expect(log[log.length - 1]).toBe('primary: read');
  });

  it('catches up: a standby behind at first answers once it has the write', async () => {
    const log: string[] = [];
    let checks = 0;
    const reads = new ReplicaReads(
      fakeUow('replica', () => ++checks >= 3, log),
      fakeUow('primary', () => true, log),
    );
    const source: ReadSource = { atLeast: '0/10' };
    await reads.read(source, () => Promise.resolve(1));
    expect(source.servedBy).toBe('replica');
    expect(checks).toBe(3);
  });

  it('reads from the primary at once when the "standby" is not one (promoted)', async () => {
    const log: string[] = [];
    const reads = new ReplicaReads(
      fakeUow('promoted', () => true, log),
      fakeUow('primary', () => true, log),
    );
    const source: ReadSource = { atLeast: '0/10' };
    const started = Date.now();
    await reads.read(source, () => Promise.resolve(1));
    expect(source.servedBy).toBe('primary');
    expect(Date.now() - started).toBeLessThan(100);
    expect(log).toEqual(['promoted: read', 'promoted: check true', 'primary: read']);
  });

  it('reads from the primary when the standby does not answer', async () => {
    const log: string[] = [];
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(down)).toBe(true);
    const reads = new ReplicaReads(
      fakeUow('replica', () => down, log),
      fakeUow('primary', () => true, log),
    );
    const source: ReadSource = { atLeast: null };
    expect(await reads.read(source, () => Promise.resolve('ok'))).toBe('ok');
    expect(source).toEqual({ atLeast: null, servedBy: 'primary' });
  });

  it("answers the read's own refusal as it came (a 404 is not retried on the primary)", async () => {
    const log: string[] = [];
    const reads = new ReplicaReads(
      fakeUow('replica', () => true, log),
      fakeUow('primary', () => true, log),
    );
    const notFound = Object.assign(new Error('No such session'), { code: 'NOT_FOUND' });
    await expect(reads.read({ atLeast: null }, () => Promise.reject(notFound))).rejects.toBe(notFound);
    expect(log).not.toContain('primary: read');
  });
});

describe('CommitPosition', () => {
  it('gives callers that arrive while a read runs the next read, never the running one', async () => {
    let sent = 0;
    const pending: Array<(lsn: string) => void> = [];
    const once = {
      maybeOne: <U>(_t: string, _v: readonly unknown[], decode: (r: Record<string, unknown>) => U) => {
        sent++;
        return new Promise<U>((resolve) => pending.push((lsn) => resolve(decode({ lsn }))));
      },
    } as unknown as Reads;
    const position = new CommitPosition(once);
    const first = position.read();
    // Three writes that committed while the first read was running share the second.
    const later = [position.read(), position.read(), position.read()];
    expect(sent).toBe(1);
    pending[0]('0/100');
    expect(await first).toBe('0/100');
    await new Promise((r) => setImmediate(r));
    expect(sent).toBe(2);
    pending[1]('0/200');
    expect(await Promise.all(later)).toEqual(['0/200', '0/200', '0/200']);
  });

  it('answers null when the primary does not answer', async () => {
    const once = { maybeOne: () => Promise.reject(new Error('Connection terminated')) } as unknown as Reads;
    expect(await new CommitPosition(once).read()).toBeNull();
  });
});

/** A pooled client that answers every query at once, emitting `notice` first while sending a COMMIT. */
function fakeClient(notice: { message: string; detail?: string; severity?: string; code?: string } | null) {
  const client = new EventEmitter() as EventEmitter & { sent: string[]; query: (c: { text: string }) => Promise<unknown> };
  client.sent = [];
  client.query = (config: { text: string }) => {
    client.sent.push(config.text);
    if (notice && /COMMIT/.test(config.text)) client.emit('notice', notice);
    return Promise.resolve({ rows: [], rowCount: 0 });
  };
  return client;
}

describe('A COMMIT that stopped waiting for the synchronous standby', () => {
  const cancelled = {
    severity: 'WARNING',
    code: '01000',
    message: 'canceling wait for synchronous replication due to user request',
    detail: 'The transaction has already committed locally, but might not have been replicated to the standby.',
  };

  it('is not acknowledged: CommitOutcomeUnknown (503 COMMIT_OUTCOME_UNKNOWN), and the connection is dropped', async () => {
    const client = fakeClient(cancelled);
    const conn = new Connection(client as unknown as PoolClient, 'transaction', 4000);
    await conn.run('SELECT 1', [], false);
    const failure = await conn.commit(null).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(CommitOutcomeUnknown);
    expect(await conn.rollback(failure)).toBe(true);
    expect(client.sent.filter((t) => t === 'ROLLBACK')).toEqual([]);
    expect(client.listenerCount('notice')).toBe(0);
  });

  it('the same when PostgreSQL cancels it while the server shuts down (the other wording)', async () => {
    const client = fakeClient({ message: 'canceling the wait for synchronous replication and terminating connection due to administrator command', detail: cancelled.detail });
    const conn = new Connection(client as unknown as PoolClient, 'transaction', 4000);
    await conn.run('SELECT 1', [], false);
    await expect(conn.commit({ text: 'UPDATE t SET v = $1', values: [1] })).rejects.toBeInstanceOf(CommitOutcomeUnknown);
  });

  it('any other notice during a COMMIT leaves it acknowledged', async () => {
    const client = fakeClient({ message: 'there is no transaction in progress', code: '25P01', severity: 'WARNING' });
    const conn = new Connection(client as unknown as PoolClient, 'transaction', 4000);
    await conn.run('SELECT 1', [], false);
    await expect(conn.commit(null)).resolves.toBeUndefined();
    expect(client.listenerCount('notice')).toBe(0);
  });
});
