/**
 * Every environment variable the service reads: its type, default, bounds and meaning.
 * `loadConfig` (src/config.ts) parses the environment by these, and the README's
 * "Configuration" table is `configTable()` (test/unit/config-readme.spec.ts fails when it
 * differs). Pure data: no I/O.
 */
export interface ConfigField {
  /** `integer`: a whole number from `min` to `max`; `choice`: one of `choices`; `url`, `text`, `list` (comma-separated): checked by loadConfig. */
  readonly type: 'integer' | 'choice' | 'url' | 'text' | 'list';
  /** The value when the variable is unset or empty (an integer's, unless loadConfig works it out). */
  readonly default?: number | string;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  /** The default as the README shows it, when it is not the value itself (`unset`, `generated`, …). */
  readonly shown?: string;
  readonly description: string;
}

export const CONFIG_FIELDS = {
  PORT: { type: 'integer', default: 3000, min: 0, max: 65535, description: 'HTTP port (`0` = any free port).' },
  HOST: { type: 'text', default: '0.0.0.0', description: 'Address to listen on.' },
  DATABASE_URL: {
    type: 'url',
    shown: 'unset',
    description: "The app's connection, `postgres://user:password@host:port/db`, as a member of `bgclub_app` (Database roles). Unset: the embedded PostgreSQL under `DATA_DIR`.",
  },
  MIGRATION_DATABASE_URL: {
    type: 'url',
    shown: 'unset',
    description: "The owner's connection, used only to run pending migrations at start. Unset: migrations run with `DATABASE_URL`. Needs `DATABASE_URL`.",
  },
  DATABASE_POOL_MODE: {
    type: 'choice',
    choices: ['session', 'transaction'],
    default: 'session',
    description:
      'How `DATABASE_URL` reaches PostgreSQL: `session` (directly, or a pooler in session mode) or `transaction` (a pooler in transaction mode such as PgBouncer\'s `pool_mode = transaction`: nothing is prepared, timeouts are set per transaction). See "Behind a connection pooler".',
  },
  DATABASE_LISTEN_URL: {
    type: 'url',
    shown: 'unset',
    description:
      'A direct (unpooled) connection for LISTEN, one per instance (API key revocations, new events). Unset: `DATABASE_URL` in session mode; in transaction mode the app does not LISTEN, its key cache stays off and event streams only poll.',
  },
  DATABASE_REPLICA_URL: {
    type: 'url',
    shown: 'unset',
    description:
      "A standby, or a proxy to the standbys (HAProxy's standby port in docs/deployment.md): the statement, standings and games export may be read from it when the client sends `Prefer: replica`, never older than its `Consistency-Token`. Set, every write answered 2xx carries `Consistency-Token`. Unset: every read goes to `DATABASE_URL`. Needs `DATABASE_URL`.",
  },
  ALLOW_PRIVILEGED_DATABASE_ROLE: {
    type: 'choice',
    choices: ['0', '1'],
    default: '0',
    description: "`1`: serve even when the app's role is a superuser or may rewrite the ledger, payments or audit record (a warning is printed).",
  },
  ADMIN_TOKEN: {
    type: 'text',
    shown: 'generated',
    description:
      'The operator token (only creates clubs). Required with `DATABASE_URL`; at least 16 characters. On the embedded default it is generated once and kept in `DATA_DIR/admin-token` and printed only then.',
  },
  LOG_LEVEL: {
    type: 'choice',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    description:
      '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines with the request id and club id; tokens are never logged, and a database error is logged by its SQLSTATE and statement (which tables), never the values sent.',
  },
  DATA_DIR: { type: 'text', default: '.data', description: "Where the embedded PostgreSQL, the generated token and the app role's generated password live." },
  EMBEDDED_PG_PORT: { type: 'integer', default: 54329, min: 1024, max: 65535, description: 'Port of the embedded PostgreSQL (never 5432).' },
  DB_POOL_SIZE: {
    type: 'integer',
    min: 1,
    max: 200,
    shown: 'twice the CPU cores, 10 to 20',
    description: 'Database connections per app instance (a COMMIT holds its connection while it waits for the disk; see docs/performance.md).',
  },
  DB_TIMEOUT_MS: {
    type: 'integer',
    default: 4000,
    min: 500,
    max: 120000,
    description:
      'The longest a request waits on the database for one thing (a connection, a statement, a lock; 500 to 120000): past it the answer is 503, so a client hears back within about 5 s even from a frozen server or a silent network. PostgreSQL cancels statements and lock waits a little earlier; a connection that stopped answering is discarded, never reused.',
  },
  IDEMPOTENCY_TTL_HOURS: {
    type: 'integer',
    default: 24,
    min: 24,
    max: 720,
    description:
      "How long `Idempotency-Key` answers are kept (at least 24), encrypted under a key derived from the caller's own token, so a new club's or key's token never rests readable in the database.",
  },
  RATE_LIMIT: {
    type: 'integer',
    default: 100000,
    min: 0,
    max: 10000000,
    description:
      'Requests per API key per window (a guard against runaway clients: about 1,700 a second); over it, 429 with `Retry-After`. Counted in PostgreSQL, so all instances share it (each instance takes hits in leases of 1 % of the limit, so a busy key costs one database write per lease). `0` = off.',
  },
  RATE_LIMIT_WINDOW_SECONDS: { type: 'integer', default: 60, min: 1, max: 86400, description: 'The rate-limit window (of every limit here).' },
  AUTH_FAILURE_LIMIT: {
    type: 'integer',
    default: 30,
    min: 0,
    max: 1000000,
    description:
      "Failed authentications (401) per client address per window; past it the address gets 429 with `Retry-After` instead of 401 until the window ends, and the operator token is refused from it too (valid club keys keep working). The address is the socket's (Fastify `trustProxy` is off; an IPv6 client counts by its /64): behind a reverse proxy every client shares the proxy's address and so one count. `0` = off.",
  },
  OPERATOR_RATE_LIMIT: { type: 'integer', default: 60, min: 0, max: 1000000, description: 'Requests with the operator token per window; over it, 429 with `Retry-After`. `0` = off.' },
  API_KEY_CACHE_SECONDS: {
    type: 'integer',
    default: 60,
    min: 0,
    max: 3600,
    description:
      'How long an instance may answer from memory which club and role an API key has. A revoked key is dropped at once on every instance (PostgreSQL `LISTEN`/`NOTIFY`); while an instance cannot listen, it reads the key on every request. `0` = always read it.',
  },
  CORS_ORIGINS: { type: 'list', shown: 'unset (CORS off)', description: 'Comma-separated origins allowed to call the API from a browser (`https://scores.example`), or `*`.' },
  HEADERS_TIMEOUT_SECONDS: {
    type: 'integer',
    default: 10,
    min: 1,
    max: 3600,
    description: "A request's headers must arrive within this (at most `REQUEST_TIMEOUT_SECONDS`); else 408 `REQUEST_TIMEOUT` and the connection is closed.",
  },
  REQUEST_TIMEOUT_SECONDS: {
    type: 'integer',
    default: 30,
    min: 1,
    max: 3600,
    description: 'The whole request, body included, must arrive within this; a connection silent for this long is closed too.',
  },
  KEEP_ALIVE_TIMEOUT_SECONDS: { type: 'integer', default: 5, min: 1, max: 3600, description: 'An idle keep-alive connection is closed after this.' },
  EVENTS_HEARTBEAT_SECONDS: {
    type: 'integer',
    default: 15,
    min: 1,
    max: 15,
    description:
      'A live event stream (`GET /v1/events/stream`) sends a comment line at least this often (1 to 15), so proxies keep it open. Streams are not cut by `REQUEST_TIMEOUT_SECONDS`.',
  },
  EVENTS_STREAM_BUFFER_BYTES: {
    type: 'integer',
    default: 1048576,
    min: 1024,
    max: 67108864,
    description: "A stream's client that leaves more than this untaken is dropped (it resumes with `Last-Event-ID`): memory per stream stays bounded.",
  },
  EVENTS_MAX_STREAMS: { type: 'integer', default: 1000, min: 1, max: 100000, description: 'Live event streams one instance serves; past it, 503 `STREAMS_AT_CAPACITY`.' },
  EVENTS_MAX_STREAMS_PER_CLUB: { type: 'integer', default: 100, min: 1, max: 100000, description: 'Live event streams of one club on one instance; past it, 429 `TOO_MANY_STREAMS`.' },
  WEBHOOK_ALLOW_PRIVATE: {
    type: 'choice',
    choices: ['true', 'false', '1', '0'],
    default: 'false',
    description:
      '`true`: webhook URLs may point at loopback, private (RFC 1918), link-local, CGNAT, unique-local or unspecified addresses (a receiver on the same network, tests). Otherwise such a URL, or one whose host name resolves to such an address, is refused with 422 `WEBHOOK_URL_PRIVATE`, and checked again at every delivery.',
  },
  WEBHOOK_SECRET_KEY: {
    type: 'text',
    shown: 'see meaning',
    description:
      'The key the webhook signing secrets are sealed with in the database (AES-256-GCM): the base64 of 32 bytes (`openssl rand -base64 32`). Unset: on the embedded default, generated once and kept in `DATA_DIR/webhook-secret-key`; with `DATABASE_URL`, derived from `ADMIN_TOKEN` (HKDF). **Keep it stable**: with another key, no stored secret opens and no webhook is delivered (every attempt fails, saying so) until the subscriptions are created again. So set it before changing `ADMIN_TOKEN`, and give every instance the same one.',
  },
  WEBHOOK_WORKER: {
    type: 'choice',
    choices: ['on', 'off'],
    default: 'on',
    description: '`off`: this instance sends no webhooks (others on the same database do). Every instance may run one: they share the work without sending an attempt twice.',
  },
  WEBHOOK_POLL_MS: { type: 'integer', default: 1000, min: 50, max: 60000, description: 'How often the webhook worker looks for due deliveries (50 to 60000 ms).' },
  METRICS_TOKEN: {
    type: 'text',
    shown: 'unset (open)',
    description:
      'The bearer token `GET /metrics` requires (`Authorization: Bearer <token>`, compared in constant time; at least 16 characters). Unset: `/metrics` answers anyone who reaches it.',
  },
  WEBHOOK_RETRY_SCHEDULE: {
    type: 'list',
    default: '5,300,1800,7200,18000,36000,36000',
    description: 'The waits in seconds before each retry of a failed delivery (each spread by ±10 %), so by default 8 attempts over about 27.6 h. Meant for tests (`1,1,1`).',
  },
} as const satisfies Record<string, ConfigField>;

export type ConfigName = keyof typeof CONFIG_FIELDS;

/** The names of the integer fields (parsed by their bounds). */
export type IntegerName = { [N in ConfigName]: (typeof CONFIG_FIELDS)[N]['type'] extends 'integer' ? N : never }[ConfigName];

/** The README's configuration table (Markdown), one row per field in the order above. */
export function configTable(): string {
  const rows = Object.entries(CONFIG_FIELDS).map(([name, f]: [string, ConfigField]) => {
    const shown = f.shown ?? `\`${String(f.default)}\``;
    return `| \`${name}\` | ${shown} | ${f.description} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
