/**
 * `npm run rebuild-read-models [-- --check] [-- --club <id>]`: rebuilds the read models
 * (player_stats, party_volumes, players.rated_matches, session_totals, table_nets, party_sessions) of every club, or
 * one, from the games, the ledger and the payments; with `--check`, writes nothing and
 * lists where the stored models differ from a rebuild (exit 1 when they do).
 *
 * Connects as MIGRATION_DATABASE_URL (the owner), else DATABASE_URL; with neither, to
 * the embedded PostgreSQL under DATA_DIR (started for the run if the app is not running).
 * Each club is rebuilt in its own transaction (rebuildClub).
 */
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../config';
import { keepGeneratedFiles } from '../config-files';
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedServer } from '../db/embedded';
import { rebuildClub } from './rebuild';

async function connect(): Promise<{ client: Client; embedded: EmbeddedServer | null }> {
  const config = loadConfig(process.env);
  keepGeneratedFiles(config);
  const url = config.migrationDatabaseUrl ?? config.databaseUrl;
  if (url !== null) {
    const client = new Client({ connectionString: url });
    await client.connect();
    return { client, embedded: null };
  }
  const running = new Client({ connectionString: embeddedUrl(config.embeddedPgPort, 'bgclub') });
  try {
    await running.connect();
    return { client: running, embedded: null };
  } catch {
    const embedded = await startEmbeddedPostgres(join(config.dataDir, 'pg'), config.embeddedPgPort);
    const client = new Client({ connectionString: embedded.url('bgclub') });
    await client.connect();
    return { client, embedded };
  }
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const at = argv.indexOf('--club');
  const only = at >= 0 ? argv[at + 1] : undefined;
  const { client, embedded } = await connect();
  try {
    const clubs = only ? [only] : (await client.query<{ club_id: string }>('SELECT club_id FROM clubs ORDER BY club_id')).rows.map((r) => r.club_id);
    let differing = 0;
    for (const club of clubs) {
      const found = await rebuildClub(client, club, check ? 'check' : 'write');
      if (found.length > 0) differing++;
      if (check) for (const d of found) console.log(`club ${club}: ${d}`);
    }
    console.log(check ? `${clubs.length} club(s) checked, ${differing} with differences` : `${clubs.length} club(s) rebuilt`);
    return check && differing > 0 ? 1 : 0;
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);
