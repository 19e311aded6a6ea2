import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, TestApp } from './support/app';

const ROOT = join(__dirname, '..');
const committed = () => JSON.parse(readFileSync(join(ROOT, 'openapi', 'openapi.json'), 'utf8'));

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('is committed exactly as the code generates it (run `npm run openapi` after changing the API)', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'dist', 'src', 'openapi-write.js'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
  });

  it('is served at /openapi.json without a token, identical to the committed file', async () => {
    const res = await t.http().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(committed());
  });

  it('serves interactive docs at /docs', async () => {
    const res = await t.http().get('/docs').redirects(2);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger-ui/i);
  });

  it("documents every operation's success, its errors as problem+json, and bearer security", () => {
    const doc = committed();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // /metrics takes METRICS_TOKEN when one is set, never an API key.
    const publicPaths = ['/health', '/ready', '/metrics'];
    let operations = 0;
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { content?: Record<string, unknown> }>; security?: unknown[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        const statuses = Object.keys(op.responses);
        expect({ path, method, success: statuses.some((s) => /^2/.test(s)) }).toEqual({ path, method, success: true });
        expect({ path, method, has500: statuses.includes('500') }).toEqual({ path, method, has500: true });
        for (const s of statuses.filter((x) => /^[45]/.test(x) && !(path === '/health' && x === '503'))) {
          expect({ path, method, s, content: Object.keys(op.responses[s].content ?? {}) }).toEqual({ path, method, s, content: ['application/problem+json'] });
        }
        if (!publicPaths.includes(path)) {
          expect({ path, method, security: op.security }).toEqual({ path, method, security: [{ bearer: [] }] });
          expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(14);
  });
});
