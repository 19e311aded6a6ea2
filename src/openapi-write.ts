import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from './app';
import type { AppConfig } from './config';
import { buildOpenApi } from './openapi/document';

/**
 * Generates the OpenAPI document from the code, without a database.
 *   node dist/src/openapi-write.js           writes openapi/openapi.json
 *   node dist/src/openapi-write.js --check   exits 1 when the committed file differs
 * An entry point of the composition root, like main.ts: it uses the app and its document.
 */
async function main(): Promise<void> {
  const config: AppConfig = {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: 'postgres://offline/offline',
    migrationDatabaseUrl: null,
    databasePoolMode: 'session',
    databaseListenUrl: null,
    databaseReplicaUrl: null,
    allowPrivilegedDatabaseRole: false,
    adminToken: 'offline-openapi-generation',
    adminTokenGenerated: false,
    adminTokenFile: null,
    logLevel: 'silent',
    dataDir: '.data',
    embeddedPgPort: 54329,
    idempotencyTtlHours: 24,
    dbPoolSize: 1,
    dbTimeoutMs: 4000,
    metricsToken: null,
    rateLimit: 100_000,
    rateLimitWindowSeconds: 60,
    authFailureLimit: 30,
    operatorRateLimit: 60,
    apiKeyCacheSeconds: 60,
    corsOrigins: [],
    headersTimeoutSeconds: 10,
    requestTimeoutSeconds: 30,
    keepAliveTimeoutSeconds: 5,
    eventsHeartbeatSeconds: 15,
    eventsStreamBufferBytes: 1024 * 1024,
    eventsMaxStreams: 1000,
    eventsMaxStreamsPerClub: 100,
    webhookAllowPrivate: false,
    webhookSecretKey: Buffer.alloc(32),
    webhookSecretKeySource: 'env',
    // No database: nothing to deliver.
    webhookWorker: false,
    webhookPollMs: 1000,
    webhookRetrySchedule: null,
  };
  const app = await createApp(config, config.databaseUrl!, { offline: true });
  await app.init();
  const text = `${JSON.stringify(buildOpenApi(app), null, 2)}\n`;
  await app.close();
  const file = join(process.cwd(), 'openapi', 'openapi.json');
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      /* missing counts as different */
    }
    if (committed !== text) {
      console.error('openapi/openapi.json differs from what the code generates: run `npm run openapi` and commit it.');
      process.exit(1);
    }
    console.log('openapi/openapi.json is up to date.');
    return;
  }
  writeFileSync(file, text);
  console.log(`Wrote ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
