import { join } from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { ApiError } from '../../src/common/api-error';
import { DatabaseBusy, isDatabaseUnavailable, WriteConflict } from '../../src/common/db-failures';
import { ErrorCode, titleOf } from '../../src/common/error-codes';
import { render } from '../../src/common/problem';
import { isRetryable } from '../../src/common/retryable';
import { Connection } from '../../src/db/connection';
import { Tx } from '../../src/db/tx';
import { UnitOfWork } from '../../src/db/unit-of-work';
import { matching, ROOT, sourceFiles } from '../support/source-lines';

/**
 * The database layer raises failures that carry no HTTP (src/common/db-failures.ts):
 * a guarded write that missed is a WriteConflict, a command refused as 40001/40P01 on
 * every attempt a DatabaseBusy. The edge (src/common/problem.ts) gives each its answer.
 */

const DB = join(ROOT, 'src', 'db');

/** An import (static, dynamic or require) of the HTTP layer's errors: api-error.ts or error-codes.ts. */
const HTTP_ERRORS_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"][^'"]*\/(api-error|error-codes)['"]/;

/** Each line of a file under src/db importing the HTTP layer's errors, where it is. */
const httpErrorImports = (files: string[]) => matching(files, (line) => HTTP_ERRORS_IMPORT.test(line));

const CONFLICT_DETAIL = 'Someone else changed this at the same moment; read it again and retry.';
const BUSY_DETAIL = 'Too many scorers changed this at once; try again.';

/** A serialization failure as node-postgres reports it. */
const serializationFailure = () => Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });

describe('src/db builds no HTTP errors', () => {
  it('no file under src/db imports api-error or error-codes', () => {
    const files = sourceFiles(DB);
    expect(files.length).toBeGreaterThan(10);
    expect(httpErrorImports(files)).toEqual([]);
  });

  it('the check finds such an import, in each form', () => {
    expect(HTTP_ERRORS_IMPORT.test("import { ApiError } from '../common/api-error';")).toBe(true);
    expect(HTTP_ERRORS_IMPORT.test("import { ErrorCode } from '../common/error-codes';")).toBe(true);
    expect(HTTP_ERRORS_IMPORT.test("const { ApiError } = require('../common/api-error');")).toBe(true);
    expect(HTTP_ERRORS_IMPORT.test("const m = await import('../common/error-codes');")).toBe(true);
    expect(HTTP_ERRORS_IMPORT.test("import { ErrorCode } from '../domain/error-codes-of-rules';")).toBe(false);
    expect(HTTP_ERRORS_IMPORT.test("import { CommitOutcomeUnknown } from '../common/db-failures';")).toBe(false);
  });
});

describe('the failures src/db raises', () => {
  it('a guarded write sent at once that touched no row: a WriteConflict naming it', async () => {
    const conn = { run: () => Promise.resolve({ rows: [], rowCount: 0 }) } as unknown as Connection;
    const missed = new Tx(conn).guardedReturning({ text: 'UPDATE sessions SET version = version + 1 WHERE id = $1 AND version = $2 RETURNING version', values: [1, 2] }, () => 1);
    await expect(missed).rejects.toBeInstanceOf(WriteConflict);
    await expect(missed).rejects.toMatchObject({ what: 'UPDATE sessions', expected: 1, touched: 0 });
  });

  it('a deferred guarded write that missed at the COMMIT (BG409): a WriteConflict with what bg_expect_rows said', async () => {
    const refusal = Object.assign(new Error('game update: expected 1 row(s), touched 0'), { code: 'BG409' });
    const client = {
      query: () => Promise.reject(refusal),
      on: () => undefined,
      off: () => undefined,
    } as unknown as PoolClient;
    const commit = new Connection(client, 'transaction', 1000).commit({ text: 'WITH w0 AS (UPDATE t SET v = 1 RETURNING 1) SELECT 1', values: [] });
    await expect(commit).rejects.toBeInstanceOf(WriteConflict);
    await expect(commit).rejects.toMatchObject({ what: 'game update', expected: 1, touched: 0, cause: refusal });
  });

  it('a command refused as 40001 on every attempt: a DatabaseBusy after 5 attempts, the last refusal its cause', async () => {
    let connects = 0;
    const client = {
      query: () => Promise.reject(serializationFailure()),
      release: () => undefined,
    } as unknown as PoolClient;
    const pool = {
      on: () => undefined,
      connect: () => {
        connects++;
        return Promise.resolve(client);
      },
    } as unknown as Pool;
    const busy = new UnitOfWork(pool, 'transaction', 1000).transaction((tx) => tx.rows('SELECT 1', [], () => 1));
    await expect(busy).rejects.toBeInstanceOf(DatabaseBusy);
    await expect(busy).rejects.toMatchObject({ attempts: 5, cause: expect.objectContaining({ driverError: expect.objectContaining({ code: '40001' }) }) });
    expect(connects).toBe(5);
  });

  it('neither is taken for the database being unavailable, nor for a refusal to retry', () => {
    for (const e of [new WriteConflict('game update', 1, 0), new DatabaseBusy(5, serializationFailure())]) {
      expect(isDatabaseUnavailable(e)).toBe(false);
      expect(isRetryable(e)).toBe(false);
    }
  });
});

describe('their answers at the edge (problem.ts)', () => {
  it('a WriteConflict is 409 CONFLICT, without Retry-After, not logged as a failure of ours', () => {
    const r = render(new WriteConflict('game update', 1, 0), 'req-1');
    expect(r.problem).toEqual({ type: 'urn:bgclub:problem:conflict', title: titleOf(409), status: 409, detail: CONFLICT_DETAIL, code: 'CONFLICT', requestId: 'req-1' });
    expect(r.headers).toEqual({});
    expect(r.internal).toBeUndefined();
    expect(r.commitLost).toBeUndefined();
  });

  it('a DatabaseBusy is 503 DATABASE_BUSY with Retry-After: 1, not logged as a failure of ours', () => {
    const r = render(new DatabaseBusy(5, serializationFailure()), 'req-2');
    expect(r.problem).toEqual({ type: 'urn:bgclub:problem:database-busy', title: titleOf(503), status: 503, detail: BUSY_DETAIL, code: 'DATABASE_BUSY', requestId: 'req-2' });
    expect(r.headers).toEqual({ 'retry-after': '1' });
    expect(r.internal).toBeUndefined();
    expect(r.commitLost).toBeUndefined();
  });

  it('each answers byte for byte what the ApiError src/db raised before answered', () => {
    const json = (e: unknown) => {
      const r = render(e, 'req-3');
      return JSON.stringify({ problem: r.problem, headers: r.headers });
    };
    expect(json(new WriteConflict('game update', 1, 0))).toBe(json(new ApiError(ErrorCode.CONFLICT, CONFLICT_DETAIL)));
    expect(json(new DatabaseBusy(5, serializationFailure()))).toBe(json(new ApiError(ErrorCode.DATABASE_BUSY, BUSY_DETAIL, { headers: { 'retry-after': '1' } })));
  });
});
