import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Everything the service reads from its environment, validated once at start. */
export interface AppConfig {
  port: number;
  host: string;
  /** null: run the embedded PostgreSQL under dataDir. */
  databaseUrl: string | null;
  adminToken: string;
  /** true when the operator token was generated and stored under .data/. */
  adminTokenGenerated: boolean;
  logLevel: LogLevel;
  dataDir: string;
  embeddedPgPort: number;
  idempotencyTtlHours: number;
  dbPoolSize: number;
  /**
   * The longest the app waits on the database for one thing (a connection, a statement,
   * a lock): past it the request answers 503, so a client hears back even from a frozen server.
   */
  dbTimeoutMs: number;
  /** Requests per API key per window; 0 turns rate limiting off. */
  rateLimit: number;
  rateLimitWindowSeconds: number;
  /** How long an API key record may be served from memory; 0 = always read it. */
  apiKeyCacheSeconds: number;
  /** Origins allowed by CORS: empty = CORS off (the default), ['*'] = any origin. */
  corsOrigins: string[];
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return Number(raw);
}

/**
 * Reads and validates the environment. Every bad value is reported, not just the
 * first. On the embedded default the operator token is generated once and kept in
 * `.data/admin-token`; with DATABASE_URL it must be given.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const port = intVar(env, 'PORT', 3000, 0, 65535, problems);
  const embeddedPgPort = intVar(env, 'EMBEDDED_PG_PORT', 54329, 1024, 65535, problems);
  if (embeddedPgPort === 5432) problems.push('EMBEDDED_PG_PORT must not be 5432, where a system PostgreSQL may already listen');
  const idempotencyTtlHours = intVar(env, 'IDEMPOTENCY_TTL_HOURS', 24, 24, 24 * 30, problems);
  // Twice the cores, at least 4 and at most 20: the app and PostgreSQL share the machine's
  // cores, and more connections than that only add context switches (docs/performance.md).
  const dbPoolSize = intVar(env, 'DB_POOL_SIZE', Math.min(20, Math.max(4, 2 * availableParallelism())), 1, 200, problems);
  // 4 s: with the answer's own work, a client hears back within 5 s whatever the database does.
  const dbTimeoutMs = intVar(env, 'DB_TIMEOUT_MS', 4000, 500, 120_000, problems);
  // A guard against runaway clients, not a quota: 100,000 a minute (about 1,700 a second) per key.
  const rateLimit = intVar(env, 'RATE_LIMIT', 100_000, 0, 10_000_000, problems);
  const rateLimitWindowSeconds = intVar(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400, problems);
  const apiKeyCacheSeconds = intVar(env, 'API_KEY_CACHE_SECONDS', 60, 0, 3600, problems);
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const o of corsOrigins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+\/?$/i.test(o)) {
      problems.push(`CORS_ORIGINS must be "*" or a comma-separated list of origins like https://club.example (got "${o}")`);
    }
  }

  const databaseUrl = env.DATABASE_URL && env.DATABASE_URL !== '' ? env.DATABASE_URL : null;
  if (databaseUrl !== null) {
    try {
      const u = new URL(databaseUrl);
      if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
        problems.push(`DATABASE_URL must be a postgres:// or postgresql:// URL (got protocol "${u.protocol}")`);
      }
    } catch {
      problems.push('DATABASE_URL is not a valid URL (expected postgres://user:password@host:port/database)');
    }
  }

  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);

  const dataDir = resolve(env.DATA_DIR ?? '.data');
  let adminToken = env.ADMIN_TOKEN ?? '';
  let adminTokenGenerated = false;
  if (adminToken !== '' && adminToken.length < 16) problems.push('ADMIN_TOKEN must be at least 16 characters long');
  if (adminToken === '') {
    if (databaseUrl !== null) {
      problems.push('ADMIN_TOKEN is required when DATABASE_URL is set (the operator token that creates clubs)');
    } else if (problems.length === 0) {
      const file = join(dataDir, 'admin-token');
      if (existsSync(file)) {
        adminToken = readFileSync(file, 'utf8').trim();
      } else {
        mkdirSync(dataDir, { recursive: true });
        adminToken = `bgop_${randomBytes(32).toString('base64url')}`;
        writeFileSync(file, `${adminToken}\n`, { mode: 0o600 });
      }
      adminTokenGenerated = true;
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    adminToken,
    adminTokenGenerated,
    logLevel,
    dataDir,
    embeddedPgPort,
    idempotencyTtlHours,
    dbPoolSize,
    dbTimeoutMs,
    rateLimit,
    rateLimitWindowSeconds,
    apiKeyCacheSeconds,
    corsOrigins: corsOrigins.map((o) => (o === '*' ? o : o.replace(/\/$/, '').toLowerCase())),
  };
}
