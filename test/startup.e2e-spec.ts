import { execSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { bearer, MAIN, startApp, startProcess } from './support/app';
import { clubWith, double, finish, take } from './support/club';
import { freePort } from './support/concurrency';

const ROOT = join(__dirname, '..');

const run = (env: Record<string, string>) => spawnSync(process.execPath, [MAIN], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 20000 });

describe('configuration is validated at start', () => {
  it('requires ADMIN_TOKEN with DATABASE_URL, and says which value is wrong', () => {
    const r = run({ DATABASE_URL: 'postgres://u@127.0.0.1:1/x', PORT: 'abc', LOG_LEVEL: 'chatty' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ADMIN_TOKEN is required when DATABASE_URL is set/);
    expect(r.stderr).toMatch(/PORT must be a whole number/);
    expect(r.stderr).toMatch(/LOG_LEVEL must be one of/);
  });

  it('refuses a DATABASE_URL that is not a postgres URL and an embedded port of 5432', () => {
    const r = run({ DATABASE_URL: 'mysql://localhost/x', ADMIN_TOKEN: 'a-long-enough-operator-token' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/DATABASE_URL must be a postgres/);
    const p = run({ EMBEDDED_PG_PORT: '5432', DATA_DIR: join(tmpdir(), 'never-used') });
    expect(p.status).toBe(1);
    expect(p.stderr).toMatch(/EMBEDDED_PG_PORT must not be 5432/);
  });
});

describe('npm start on the embedded PostgreSQL', () => {
  it('initialises .data, migrates, prints the URL and operator token, serves, and shuts down leaving no postgres behind', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bgclub-start-'));
    const pgPort = await freePort();
    const running: Array<Awaited<ReturnType<typeof startProcess>>> = [];
    try {
      const app = await startProcess({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, 90000);
      running.push(app);
      const out = app.output();
      const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      expect(out).toContain(`Operator token (ADMIN_TOKEN, kept in ${join(dataDir, 'admin-token')}): ${token}`);
      expect(out).toMatch(/Applied migrations: /);
      expect((await request(app.url).get('/health')).body).toEqual({ status: 'ok', database: 'up' });
      const club = await request(app.url).post('/v1/clubs').set('authorization', `Bearer ${token}`).send({ name: 'Embedded club' });
      expect(club.status).toBe(201);
      expect(await app.stop('SIGTERM')).toBe(0);
      const left = execSync(`ps -eo args | grep -F -- "${join(dataDir, 'pg')}" | grep -v grep || true`, { encoding: 'utf8' });
      expect(left.trim()).toBe('');

      // A second start reuses the data folder and the token.
      const again = await startProcess({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, 60000);
      running.push(again);
      expect(again.output()).not.toMatch(/Applied migrations/);
      // The token was shown once, when it was made; later starts only say where it is kept.
      expect(again.output()).toContain(`Operator token: kept in ${join(dataDir, 'admin-token')}`);
      expect(again.output()).not.toContain(token);
      const key = club.body.apiKey.token;
      expect((await request(again.url).get('/v1/club').set('authorization', `Bearer ${key}`)).body.name).toBe('Embedded club');
      expect(await again.stop('SIGINT')).toBe(0);
      const left2 = execSync(`ps -eo args | grep -F -- "${join(dataDir, 'pg')}" | grep -v grep || true`, { encoding: 'utf8' });
      expect(left2.trim()).toBe('');
    } finally {
      for (const a of running) await a.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('shutting down with DATABASE_URL', () => {
  it('finishes the request in flight, then exits 0 on SIGTERM', async () => {
    const t = await startApp();
    const c = await clubWith(t, ['Anna', 'Ben']);
    const session = await c.session();
    const table = (await c.post('/v1/money-games', { sessionId: session, players: [c.ids.Anna, c.ids.Ben], stakeMinor: 100 })).body.id;
    // Hold the table's row so the game is still inside its transaction when the signal comes.
    await t.sql('BEGIN');
    await t.sql('SELECT id FROM game_tables WHERE id = $1 FOR UPDATE', [table]);
    const inFlight = t
      .http()
      .post(`/v1/money-games/${table}/games`)
      .set(bearer(c.owner))
      .send({ actions: [double(c.ids.Anna), take(c.ids.Ben), finish(c.ids.Anna)] })
      .then((r) => r);
    for (let i = 0; i < 100; i++) {
      const [w] = await t.sql<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()");
      if (w.n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const exited = t.app.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await t.sql('COMMIT');
    const res = await inFlight;
    expect(res.status).toBe(201);
    expect(await exited).toBe(0);
    const [g] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM games WHERE table_id = $1', [table]);
    expect(g.n).toBe(1);
    await t.close();
  });
});
