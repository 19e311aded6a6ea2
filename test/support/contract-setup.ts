import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { Test } from 'supertest';
import { recordExchange, tally, violations } from './contract';

/**
 * Run before every test file (jest `setupFilesAfterEnv`): every answer a supertest request
 * receives, whatever helper or file made it, is checked against the committed OpenAPI
 * document (contract.ts), and the test during which an answer did not match fails in its
 * afterEach (an answer received in a beforeAll or afterAll fails the file's afterAll).
 */
type Assert = (this: Test, resError: unknown, res: Response | undefined, fn: unknown) => void;
const proto = Test.prototype as unknown as { assert: Assert; method: string; url: string };
const assert = proto.assert;
proto.assert = function (this: Test, resError, res, fn) {
  if (res) {
    const self = this as unknown as { method: string; url: string };
    const body = typeof res.text === 'string' ? res.text : Buffer.isBuffer(res.body) ? res.body : undefined;
    recordExchange({ method: self.method, url: self.url, status: res.status, headers: res.headers, body });
  }
  return assert.call(this, resError, res, fn);
};

const report = (when: string) => {
  if (violations.length === 0) return;
  const found = violations.splice(0);
  throw new Error(`${found.length} answer(s) ${when} do not match openapi/openapi.json:\n\n${found.join('\n\n')}`);
};

afterEach(() => report('received during this test'));

afterAll(() => {
  if (process.env.TEST_RUN_ID && tally.checked > 0) {
    appendFileSync(join(tmpdir(), `bgclub-contract-${process.env.TEST_RUN_ID}.count`), `${tally.checked}\n`);
  }
  report('received in beforeAll/afterAll');
});
