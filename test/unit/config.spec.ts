import { availableParallelism } from 'node:os';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { keepGeneratedFiles } from '../../src/config-files';

/** What a start does with the configuration: parse it, then keep what it generated (src/main.ts). */
function start(env: NodeJS.ProcessEnv) {
  const c = loadConfig(env);
  keepGeneratedFiles(c);
  return c;
}

describe('loadConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cfg-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to port 3000, the embedded database and a generated operator token kept under .data', () => {
    const c = start({ DATA_DIR: dir });
    expect(c).toMatchObject({ port: 3000, databaseUrl: null, logLevel: 'info', embeddedPgPort: 54329, adminTokenGenerated: true });
    expect(c.adminToken).toMatch(/^bgop_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(dir, 'admin-token'), 'utf8').trim()).toBe(c.adminToken);
    expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(start({ DATA_DIR: dir }).adminToken).toBe(c.adminToken);
  });

  it('writes nothing itself: what it generated is listed for the start to keep', () => {
    const c = loadConfig({ DATA_DIR: join(dir, 'fresh') });
    expect(readdirSync(dir)).toEqual([]);
    expect(c.generatedFiles?.map((f) => f.file)).toEqual([join(dir, 'fresh', 'admin-token'), join(dir, 'fresh', 'webhook-secret-key')]);
    expect(c.generatedFiles?.[0].text).toBe(`${c.adminToken}\n`);
    expect(start({ DATA_DIR: join(dir, 'fresh') }).generatedFiles).toBeDefined();
    expect(loadConfig({ DATA_DIR: join(dir, 'fresh') }).generatedFiles).toBeUndefined();
  });

  it('marks the operator token as generated only on the start that made it, and says where it is kept', () => {
    const file = join(dir, 'admin-token');
    expect(start({ DATA_DIR: dir })).toMatchObject({ adminTokenGenerated: true, adminTokenFile: file });
    expect(start({ DATA_DIR: dir })).toMatchObject({ adminTokenGenerated: false, adminTokenFile: file });
    expect(start({ DATA_DIR: dir, ADMIN_TOKEN: 'a-long-enough-operator-token' })).toMatchObject({ adminTokenGenerated: false, adminTokenFile: null });
  });

  it('METRICS_TOKEN: unset leaves /metrics open; a token must be at least 16 characters without spaces', () => {
    expect(loadConfig({ DATA_DIR: dir }).metricsToken).toBeNull();
    expect(loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'scraper-token-0123456789' }).metricsToken).toBe('scraper-token-0123456789');
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'with a space in it, long enough' })).toThrow(/METRICS_TOKEN/);
  });

  it('reports every bad value at once', () => {
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'nonsense', LOG_LEVEL: 'loud', IDEMPOTENCY_TTL_HOURS: '1', DATA_DIR: dir });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT must be a whole number from 0 to 65535/);
      expect(problems).toMatch(/DATABASE_URL is not a valid URL/);
      expect(problems).toMatch(/LOG_LEVEL must be one of/);
      expect(problems).toMatch(/IDEMPOTENCY_TTL_HOURS must be a whole number from 24/);
      expect(problems).toMatch(/ADMIN_TOKEN is required/);
    }
  });

  it('sizes the connection pool by the cores (twice, 10 to 20) and caches API keys for 60 s unless told otherwise', () => {
    const cores = availableParallelism();
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ dbPoolSize: Math.min(20, Math.max(10, 2 * cores)), apiKeyCacheSeconds: 60 });
    expect(loadConfig({ DATA_DIR: dir, DB_POOL_SIZE: '7', API_KEY_CACHE_SECONDS: '0' })).toMatchObject({ dbPoolSize: 7, apiKeyCacheSeconds: 0 });
    expect(() => loadConfig({ DATA_DIR: dir, API_KEY_CACHE_SECONDS: '3601' })).toThrow(/API_KEY_CACHE_SECONDS must be a whole number from 0 to 3600/);
  });

  it('bounds every database wait at 4 s unless DB_TIMEOUT_MS says otherwise (0.5 s to 120 s)', () => {
    expect(loadConfig({ DATA_DIR: dir }).dbTimeoutMs).toBe(4000);
    expect(loadConfig({ DATA_DIR: dir, DB_TIMEOUT_MS: '1500' }).dbTimeoutMs).toBe(1500);
    for (const bad of ['0', '499', '120001', '2s', '-1']) {
      expect(() => loadConfig({ DATA_DIR: dir, DB_TIMEOUT_MS: bad })).toThrow(/DB_TIMEOUT_MS must be a whole number from 500 to 120000/);
    }
  });

  it('limits 100,000 requests per key per minute and leaves CORS off unless told otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ rateLimit: 100_000, rateLimitWindowSeconds: 60, corsOrigins: [] });
    const c = loadConfig({ DATA_DIR: dir, RATE_LIMIT: '0', RATE_LIMIT_WINDOW_SECONDS: '10', CORS_ORIGINS: 'https://Scores.example/, http://localhost:5173' });
    expect(c).toMatchObject({ rateLimit: 0, rateLimitWindowSeconds: 10, corsOrigins: ['https://scores.example', 'http://localhost:5173'] });
    expect(loadConfig({ DATA_DIR: dir, CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadConfig({ DATA_DIR: dir, RATE_LIMIT: '-1', RATE_LIMIT_WINDOW_SECONDS: '0', CORS_ORIGINS: 'scores.example' })).toThrow(
      /RATE_LIMIT must be[\s\S]*RATE_LIMIT_WINDOW_SECONDS must be[\s\S]*CORS_ORIGINS must be/,
    );
  });

  it('takes the owner connection for migrations from MIGRATION_DATABASE_URL, and serves a privileged role only when allowed', () => {
    const base = { DATABASE_URL: 'postgres://bgclub@127.0.0.1:5432/club', ADMIN_TOKEN: 'operator-token-1234' };
    expect(loadConfig(base)).toMatchObject({ migrationDatabaseUrl: null, allowPrivilegedDatabaseRole: false });
    const c = loadConfig({ ...base, MIGRATION_DATABASE_URL: 'postgresql://owner:pw@127.0.0.1:5432/club', ALLOW_PRIVILEGED_DATABASE_ROLE: '1' });
    expect(c).toMatchObject({ migrationDatabaseUrl: 'postgresql://owner:pw@127.0.0.1:5432/club', allowPrivilegedDatabaseRole: true });
    expect(() => loadConfig({ ...base, MIGRATION_DATABASE_URL: 'mysql://owner@h/club', ALLOW_PRIVILEGED_DATABASE_ROLE: 'yes' })).toThrow(
      /MIGRATION_DATABASE_URL must be a postgres[\s\S]*ALLOW_PRIVILEGED_DATABASE_ROLE must be 0 or 1/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, MIGRATION_DATABASE_URL: 'postgres://owner@127.0.0.1/club' })).toThrow(/MIGRATION_DATABASE_URL needs DATABASE_URL/);
  });

  it('limits failed logins to 30 per address and the operator token to 60 per window unless told otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ authFailureLimit: 30, operatorRateLimit: 60 });
    expect(loadConfig({ DATA_DIR: dir, AUTH_FAILURE_LIMIT: '0', OPERATOR_RATE_LIMIT: '5' })).toMatchObject({ authFailureLimit: 0, operatorRateLimit: 5 });
    expect(() => loadConfig({ DATA_DIR: dir, AUTH_FAILURE_LIMIT: 'many', OPERATOR_RATE_LIMIT: '-3' })).toThrow(
      /AUTH_FAILURE_LIMIT must be a whole number from 0[\s\S]*OPERATOR_RATE_LIMIT must be a whole number from 0/,
    );
  });

  it('cuts slow clients: headers within 10 s, the whole request within 30 s, idle keep-alive after 5 s, unless told otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ headersTimeoutSeconds: 10, requestTimeoutSeconds: 30, keepAliveTimeoutSeconds: 5 });
    expect(loadConfig({ DATA_DIR: dir, HEADERS_TIMEOUT_SECONDS: '2', REQUEST_TIMEOUT_SECONDS: '2', KEEP_ALIVE_TIMEOUT_SECONDS: '1' })).toMatchObject({
      headersTimeoutSeconds: 2,
      requestTimeoutSeconds: 2,
      keepAliveTimeoutSeconds: 1,
    });
    expect(() => loadConfig({ DATA_DIR: dir, REQUEST_TIMEOUT_SECONDS: '0', HEADERS_TIMEOUT_SECONDS: 'ten', KEEP_ALIVE_TIMEOUT_SECONDS: '0' })).toThrow(
      /REQUEST_TIMEOUT_SECONDS must be a whole number from 1[\s\S]*HEADERS_TIMEOUT_SECONDS must be a whole number from 1[\s\S]*KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number from 1/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, HEADERS_TIMEOUT_SECONDS: '40' })).toThrow(/HEADERS_TIMEOUT_SECONDS \(40\) must not exceed REQUEST_TIMEOUT_SECONDS \(30\)/);
  });

  it('uses DATABASE_URL and ADMIN_TOKEN when given', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/club', ADMIN_TOKEN: 'operator-token-1234', PORT: '8080' });
    expect(c).toMatchObject({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/club', adminToken: 'operator-token-1234', port: 8080, adminTokenGenerated: false });
  });

  describe('webhooks', () => {
    const server = { DATABASE_URL: 'postgres://bgclub@127.0.0.1:5432/club', ADMIN_TOKEN: 'operator-token-1234' };

    it('refuses private targets, runs the worker every second and keeps the default retry schedule unless told otherwise', () => {
      expect(loadConfig(server)).toMatchObject({ webhookAllowPrivate: false, webhookWorker: true, webhookPollMs: 1000, webhookRetrySchedule: null });
      expect(loadConfig({ ...server, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'off', WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '1, 2,3' })).toMatchObject({
        webhookAllowPrivate: true,
        webhookWorker: false,
        webhookPollMs: 100,
        webhookRetrySchedule: [1, 2, 3],
      });
      expect(() => loadConfig({ ...server, WEBHOOK_ALLOW_PRIVATE: 'yes', WEBHOOK_WORKER: 'maybe', WEBHOOK_POLL_MS: '10', WEBHOOK_RETRY_SCHEDULE: '1,,2' })).toThrow(
        /WEBHOOK_ALLOW_PRIVATE must be true or false[\s\S]*WEBHOOK_WORKER must be on or off[\s\S]*WEBHOOK_POLL_MS must be a whole number from 50[\s\S]*WEBHOOK_RETRY_SCHEDULE must be/,
      );
    });

    it('takes the sealing key from WEBHOOK_SECRET_KEY (base64 of 32 bytes), else derives it from ADMIN_TOKEN with DATABASE_URL', () => {
      const key = Buffer.alloc(32, 7);
      expect(loadConfig({ ...server, WEBHOOK_SECRET_KEY: key.toString('base64') })).toMatchObject({ webhookSecretKey: key, webhookSecretKeySource: 'env' });
      const derived = loadConfig(server);
      expect(derived.webhookSecretKeySource).toBe('admin-token');
      expect(derived.webhookSecretKey).toHaveLength(32);
      expect(loadConfig(server).webhookSecretKey.equals(derived.webhookSecretKey)).toBe(true);
      expect(loadConfig({ ...server, ADMIN_TOKEN: 'another-operator-token' }).webhookSecretKey.equals(derived.webhookSecretKey)).toBe(false);
      for (const bad of ['short', Buffer.alloc(31).toString('base64'), `${key.toString('base64')}!`]) {
        expect(() => loadConfig({ ...server, WEBHOOK_SECRET_KEY: bad })).toThrow(/WEBHOOK_SECRET_KEY must be the base64 of 32 bytes/);
      }
    });

    it('on the embedded default, generates the sealing key once and keeps it beside the operator token (0600)', () => {
      const c = start({ DATA_DIR: dir });
      const file = join(dir, 'webhook-secret-key');
      expect(c.webhookSecretKeySource).toBe('file');
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(c.webhookSecretKey)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(start({ DATA_DIR: dir }).webhookSecretKey.equals(c.webhookSecretKey)).toBe(true);
    });
  });
});
