import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { CONFIG_FIELDS, type IntegerName } from './config-fields';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = CONFIG_FIELDS.LOG_LEVEL.choices;

/** A file the start must write (mode 0600): a secret generated on the embedded default, kept for the next starts. */
export interface GeneratedFile {
  file: string;
  text: string;
}

/** Everything the service reads from its environment, validated once at start. */
export interface AppConfig {
  port: number;
  host: string;
  /** The app's own connection (a member of bgclub_app); null: run the embedded PostgreSQL under dataDir. */
  databaseUrl: string | null;
  /** The owner's connection, used only to run the migrations; null: migrate with databaseUrl. */
  migrationDatabaseUrl: string | null;
  /**
   * How DATABASE_URL reaches PostgreSQL: `session` (directly, the default) or
   * `transaction` (through a pooler in transaction mode, e.g. PgBouncer).
   */
  databasePoolMode: 'session' | 'transaction';
  /** A direct (unpooled) connection for LISTEN; null: DATABASE_URL in session mode, no LISTEN in transaction mode. */
  databaseListenUrl: string | null;
  /**
   * A standby (or a proxy to the standbys) that the statement, the standings and the
   * games export may be read from when the client asks (`Prefer: replica`), never older
   * than the client's `Consistency-Token`; null: every read goes to DATABASE_URL.
   */
  databaseReplicaUrl: string | null;
  /** Serve even when the app's database role is a superuser or may rewrite the ledger (not for production). */
  allowPrivilegedDatabaseRole: boolean;
  adminToken: string;
  /** true only on the start that generated the operator token (and stored it in adminTokenFile). */
  adminTokenGenerated: boolean;
  /** Where the generated operator token is kept; null when ADMIN_TOKEN is given. */
  adminTokenFile: string | null;
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
  /** Failed authentications (401) per client address per window; 0 turns it off. */
  authFailureLimit: number;
  /** Requests with the operator token per window; 0 turns it off. */
  operatorRateLimit: number;
  /** How long an API key record may be served from memory; 0 = always read it. */
  apiKeyCacheSeconds: number;
  /** Origins allowed by CORS: empty = CORS off (the default), ['*'] = any origin. */
  corsOrigins: string[];
  /** A request's headers must arrive within this; never more than requestTimeoutSeconds. */
  headersTimeoutSeconds: number;
  /** The whole request (headers and body) must arrive within this. */
  requestTimeoutSeconds: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutSeconds: number;
  /** The live event stream sends a comment at least this often (the HTTP contract: at most 15 s). */
  eventsHeartbeatSeconds: number;
  /** A stream's client that leaves more than this many bytes untaken is dropped. */
  eventsStreamBufferBytes: number;
  /** Open event streams per instance; past it, 503. */
  eventsMaxStreams: number;
  /** Open event streams per club on one instance; past it, 429. */
  eventsMaxStreamsPerClub: number;
  /**
   * Webhook URLs on loopback, private, link-local, CGNAT, unique-local or unspecified
   * addresses are accepted (a receiver on the same network, tests); off by default.
   */
  webhookAllowPrivate: boolean;
  /** The key (32 bytes) webhook signing secrets are sealed with in the database (AES-256-GCM). */
  webhookSecretKey: Buffer;
  /**
   * Where that key comes from: WEBHOOK_SECRET_KEY (`env`), the file kept beside the
   * operator token on the embedded default (`file`), or derived from ADMIN_TOKEN (`admin-token`).
   */
  webhookSecretKeySource: 'env' | 'file' | 'admin-token';
  /** Run the webhook delivery worker in this instance (WEBHOOK_WORKER=on, the default). */
  webhookWorker: boolean;
  /** How often the worker looks for due deliveries, in milliseconds. */
  webhookPollMs: number;
  /** The waits before each retry, in seconds (WEBHOOK_RETRY_SCHEDULE); null: the default schedule. */
  webhookRetrySchedule: number[] | null;
  /** The bearer token GET /metrics requires (METRICS_TOKEN); null: /metrics is open. */
  metricsToken: string | null;
  /** What this start generated and must keep before serving (keepGeneratedFiles, src/config-files.ts); absent when nothing. */
  generatedFiles?: readonly GeneratedFile[];
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** An integer field by its bounds in CONFIG_FIELDS; `fallback` when unset (the field's default unless given). */
function intVar(env: NodeJS.ProcessEnv, name: IntegerName, problems: string[], fallback?: number): number {
  const field: { default?: number; min: number; max: number } = CONFIG_FIELDS[name];
  const { min, max } = field;
  fallback ??= field.default ?? min;
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return Number(raw);
}

/**
 * Reads and validates the environment by CONFIG_FIELDS (src/config-fields.ts). Every bad
 * value is reported, not just the first. On the embedded default the operator token is
 * read from `.data/admin-token`, or generated when that file is missing: then the caller
 * writes it (`generatedFiles`, keepGeneratedFiles). With DATABASE_URL it must be given.
 * Writes nothing: it reads the environment and the files it names.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const port = intVar(env, 'PORT', problems);
  const embeddedPgPort = intVar(env, 'EMBEDDED_PG_PORT', problems);
  if (embeddedPgPort === 5432) problems.push('EMBEDDED_PG_PORT must not be 5432, where a system PostgreSQL may already listen');
  const idempotencyTtlHours = intVar(env, 'IDEMPOTENCY_TTL_HOURS', problems);
  // Twice the cores, at least 10 and at most 20. A command holds its connection while its
  // COMMIT waits for the WAL flush, and one flush carries the commits waiting with it: on a
  // slow disk the pool size caps the commits per flush, so a pool of 4 on 2 cores capped
  // the write rate whatever the CPU (docs/performance.md, "Writes on a slow disk").
  const dbPoolSize = intVar(env, 'DB_POOL_SIZE', problems, Math.min(20, Math.max(10, 2 * availableParallelism())));
  // 4 s: with the answer's own work, a client hears back within 5 s whatever the database does.
  const dbTimeoutMs = intVar(env, 'DB_TIMEOUT_MS', problems);
  // A guard against runaway clients, not a quota: 100,000 a minute (about 1,700 a second) per key.
  const rateLimit = intVar(env, 'RATE_LIMIT', problems);
  const rateLimitWindowSeconds = intVar(env, 'RATE_LIMIT_WINDOW_SECONDS', problems);
  // Failed logins per client address, and the operator token (which only creates clubs), per window.
  const authFailureLimit = intVar(env, 'AUTH_FAILURE_LIMIT', problems);
  const operatorRateLimit = intVar(env, 'OPERATOR_RATE_LIMIT', problems);
  const apiKeyCacheSeconds = intVar(env, 'API_KEY_CACHE_SECONDS', problems);
  // Slow clients are cut: a phone on club wifi sends a request in well under a second.
  const requestTimeoutSeconds = intVar(env, 'REQUEST_TIMEOUT_SECONDS', problems);
  const headersTimeoutSeconds = intVar(env, 'HEADERS_TIMEOUT_SECONDS', problems, Math.min(CONFIG_FIELDS.HEADERS_TIMEOUT_SECONDS.default, requestTimeoutSeconds));
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    problems.push(`HEADERS_TIMEOUT_SECONDS (${headersTimeoutSeconds}) must not exceed REQUEST_TIMEOUT_SECONDS (${requestTimeoutSeconds})`);
  }
  const keepAliveTimeoutSeconds = intVar(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', problems);
  // The live event stream (GET /v1/events/stream): a comment at least every 15 s keeps
  // proxies from closing it; a client that leaves 1 MiB untaken is dropped.
  const eventsHeartbeatSeconds = intVar(env, 'EVENTS_HEARTBEAT_SECONDS', problems);
  const eventsStreamBufferBytes = intVar(env, 'EVENTS_STREAM_BUFFER_BYTES', problems);
  const eventsMaxStreams = intVar(env, 'EVENTS_MAX_STREAMS', problems);
  const eventsMaxStreamsPerClub = intVar(env, 'EVENTS_MAX_STREAMS_PER_CLUB', problems);
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const o of corsOrigins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+\/?$/i.test(o)) {
      problems.push(`CORS_ORIGINS must be "*" or a comma-separated list of origins like https://club.example (got "${o}")`);
    }
  }

  const postgresUrl = (name: string): string | null => {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    try {
      const u = new URL(raw);
      if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
        problems.push(`${name} must be a postgres:// or postgresql:// URL (got protocol "${u.protocol}")`);
      }
    } catch {
      problems.push(`${name} is not a valid URL (expected postgres://user:password@host:port/database)`);
    }
    return raw;
  };
  const databaseUrl = postgresUrl('DATABASE_URL');
  const migrationDatabaseUrl = postgresUrl('MIGRATION_DATABASE_URL');
  if (migrationDatabaseUrl !== null && databaseUrl === null) {
    problems.push("MIGRATION_DATABASE_URL needs DATABASE_URL (the app's own connection); the embedded database sets up both roles itself");
  }
  const databaseListenUrl = postgresUrl('DATABASE_LISTEN_URL');
  const databaseReplicaUrl = postgresUrl('DATABASE_REPLICA_URL');
  if (databaseReplicaUrl !== null && databaseUrl === null) problems.push('DATABASE_REPLICA_URL needs DATABASE_URL (the primary the writes go to)');
  const databasePoolMode = env.DATABASE_POOL_MODE || CONFIG_FIELDS.DATABASE_POOL_MODE.default;
  if (!(CONFIG_FIELDS.DATABASE_POOL_MODE.choices as readonly string[]).includes(databasePoolMode)) {
    problems.push(`DATABASE_POOL_MODE must be session or transaction (got "${databasePoolMode}")`);
  }
  const allowPrivileged = env.ALLOW_PRIVILEGED_DATABASE_ROLE ?? '';
  if (!['', ...CONFIG_FIELDS.ALLOW_PRIVILEGED_DATABASE_ROLE.choices].includes(allowPrivileged)) {
    problems.push(`ALLOW_PRIVILEGED_DATABASE_ROLE must be 0 or 1 (got "${allowPrivileged}")`);
  }

  const logLevel = (env.LOG_LEVEL ?? CONFIG_FIELDS.LOG_LEVEL.default) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);

  const dataDir = resolve(env.DATA_DIR ?? CONFIG_FIELDS.DATA_DIR.default);
  let adminToken = env.ADMIN_TOKEN ?? '';
  let adminTokenGenerated = false;
  let adminTokenFile: string | null = null;
  const generatedFiles: GeneratedFile[] = [];
  if (adminToken !== '' && adminToken.length < 16) problems.push('ADMIN_TOKEN must be at least 16 characters long');
  if (adminToken === '') {
    if (databaseUrl !== null) {
      problems.push('ADMIN_TOKEN is required when DATABASE_URL is set (the operator token that creates clubs)');
    } else if (problems.length === 0) {
      adminTokenFile = join(dataDir, 'admin-token');
      if (existsSync(adminTokenFile)) {
        adminToken = readFileSync(adminTokenFile, 'utf8').trim();
      } else {
        adminToken = `bgop_${randomBytes(32).toString('base64url')}`;
        generatedFiles.push({ file: adminTokenFile, text: `${adminToken}\n` });
        adminTokenGenerated = true;
      }
    }
  }

  const webhooks = webhookSettings(env, databaseUrl, dataDir, adminToken, problems, generatedFiles);

  // The scraper's token: unset, /metrics is open (bind it where only the scraper reaches it).
  const metricsToken = env.METRICS_TOKEN ?? '';
  if (metricsToken !== '' && (metricsToken.length < 16 || /\s/.test(metricsToken))) problems.push('METRICS_TOKEN must be at least 16 characters long, without spaces');

  if (problems.length > 0 || webhooks === null) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST ?? CONFIG_FIELDS.HOST.default,
    databaseUrl,
    migrationDatabaseUrl,
    databasePoolMode: databasePoolMode === 'transaction' ? 'transaction' : 'session',
    databaseListenUrl,
    databaseReplicaUrl,
    allowPrivilegedDatabaseRole: allowPrivileged === '1',
    adminToken,
    adminTokenGenerated,
    adminTokenFile,
    logLevel,
    dataDir,
    embeddedPgPort,
    idempotencyTtlHours,
    dbPoolSize,
    dbTimeoutMs,
    rateLimit,
    rateLimitWindowSeconds,
    authFailureLimit,
    operatorRateLimit,
    apiKeyCacheSeconds,
    corsOrigins: corsOrigins.map((o) => (o === '*' ? o : o.replace(/\/$/, '').toLowerCase())),
    headersTimeoutSeconds,
    requestTimeoutSeconds,
    keepAliveTimeoutSeconds,
    eventsHeartbeatSeconds,
    eventsStreamBufferBytes,
    eventsMaxStreams,
    eventsMaxStreamsPerClub,
    ...webhooks,
    metricsToken: metricsToken === '' ? null : metricsToken,
    ...(generatedFiles.length > 0 ? { generatedFiles } : {}),
  };
}

type WebhookSettings = Pick<AppConfig, 'webhookAllowPrivate' | 'webhookSecretKey' | 'webhookSecretKeySource' | 'webhookWorker' | 'webhookPollMs' | 'webhookRetrySchedule'>;

/** The HKDF parameters of the key derived from ADMIN_TOKEN (changing them makes every stored secret unreadable). */
const WEBHOOK_KEY_SALT = 'bgclub webhook secrets';
const WEBHOOK_KEY_INFO = 'webhook secret sealing key v1';

/**
 * The webhook settings. The sealing key: WEBHOOK_SECRET_KEY (base64 of 32 bytes); else,
 * on the embedded default, one generated once and kept in `DATA_DIR/webhook-secret-key`
 * (like the operator token); else (DATABASE_URL) one derived from ADMIN_TOKEN with HKDF,
 * so it stays the same only as long as ADMIN_TOKEN does. null when a value is bad (in `problems`).
 */
function webhookSettings(
  env: NodeJS.ProcessEnv,
  databaseUrl: string | null,
  dataDir: string,
  adminToken: string,
  problems: string[],
  generatedFiles: GeneratedFile[],
): WebhookSettings | null {
  const bad = problems.length;
  const allowPrivate = (env.WEBHOOK_ALLOW_PRIVATE ?? '').toLowerCase();
  if (!['', ...CONFIG_FIELDS.WEBHOOK_ALLOW_PRIVATE.choices].includes(allowPrivate)) problems.push(`WEBHOOK_ALLOW_PRIVATE must be true or false (got "${env.WEBHOOK_ALLOW_PRIVATE}")`);
  const worker = (env.WEBHOOK_WORKER ?? '').toLowerCase();
  if (!['', ...CONFIG_FIELDS.WEBHOOK_WORKER.choices].includes(worker)) problems.push(`WEBHOOK_WORKER must be on or off (got "${env.WEBHOOK_WORKER}")`);
  const pollMs = intVar(env, 'WEBHOOK_POLL_MS', problems);

  let schedule: number[] | null = null;
  const rawSchedule = env.WEBHOOK_RETRY_SCHEDULE ?? '';
  if (rawSchedule !== '') {
    const parts = rawSchedule.split(',').map((p) => p.trim());
    if (parts.length > 30 || !parts.every((p) => /^\d{1,7}$/.test(p) && Number(p) >= 1 && Number(p) <= 7 * 86_400)) {
      problems.push(`WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of at most 30 waits in whole seconds, each from 1 to 604800 (got "${rawSchedule}")`);
    } else {
      schedule = parts.map(Number);
    }
  }

  let key: Buffer | null = null;
  let source: WebhookSettings['webhookSecretKeySource'] = 'env';
  const rawKey = env.WEBHOOK_SECRET_KEY ?? '';
  if (rawKey !== '') {
    const decoded = Buffer.from(rawKey, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(rawKey) || decoded.length !== 32) {
      problems.push('WEBHOOK_SECRET_KEY must be the base64 of 32 bytes (e.g. `openssl rand -base64 32`)');
    } else {
      key = decoded;
    }
  } else if (databaseUrl === null) {
    source = 'file';
    if (problems.length === 0) {
      const file = join(dataDir, 'webhook-secret-key');
      if (existsSync(file)) {
        const kept = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
        if (kept.length === 32) key = kept;
        else problems.push(`${file} must hold the base64 of 32 bytes; restore it (the webhook secrets are sealed with it)`);
      } else {
        key = randomBytes(32);
        generatedFiles.push({ file, text: `${key.toString('base64')}\n` });
      }
    }
  } else if (adminToken !== '') {
    source = 'admin-token';
    key = Buffer.from(hkdfSync('sha256', adminToken, WEBHOOK_KEY_SALT, WEBHOOK_KEY_INFO, 32));
  }

  if (problems.length > bad || key === null) return null;
  return {
    webhookAllowPrivate: allowPrivate === 'true' || allowPrivate === '1',
    webhookSecretKey: key,
    webhookSecretKeySource: source,
    webhookWorker: worker !== 'off',
    webhookPollMs: pollMs,
    webhookRetrySchedule: schedule,
  };
}
