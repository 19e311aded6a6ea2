import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { bearer, startApp, TestApp } from '../support/app';
import { clubWith, double, finish, take } from '../support/club';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * The club board in a real browser (Debian's chromium, driven by playwright-core): a match,
 * a chouette and a tournament played through the API while the page is open, its scores,
 * box and bracket checked against the API's own answers; a dropped connection, and a
 * revoked link. Screenshots of the TV and phone layouts go to test/browser/screenshots/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(__dirname, 'screenshots');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Waits until `check` answers true (polled), or fails with `what` after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 10000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the club board in a browser', () => {
  let t: TestApp;
  let c: Awaited<ReturnType<typeof clubWith>>;
  let proxy: TcpProxy;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const streamRequests: Array<{ url: string; lastEventId: string | undefined }> = [];
  const names: Record<string, string> = {};
  let match: string;
  let chouette: string;
  let tournament: string;
  let boardId: string;
  let boardPath: string;

  // Every script the PDF statement sets: Cyrillic, CJK, Greek, Turkish, Arabic, Hangul, Hebrew.
  const PLAYERS = ['Анна', '李雷', 'Γιώργος', 'Çağrı', 'سارة', '김민준', 'דוד', 'Ben', 'Dana'];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
    mkdirSync(SHOTS, { recursive: true });
    t = await startApp();
    c = await clubWith(t, PLAYERS);
    for (const [n, id] of Object.entries(c.ids)) names[id] = n;
    proxy = await TcpProxy.start(t.url);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await t?.close();
  });

  const api = async (url: string) => {
    const res = await c.get(url);
    expect(res.status).toBe(200);
    return res.body;
  };
  const text = (selector: string) => page.locator(selector).allInnerTexts();
  const status = () => page.locator('#status').innerText();
  /** The match's score as the page shows it, side by side. */
  const pageScore = async (id: string) => (await text(`[data-table="${id}"] .score`)).map(Number);
  const apiScore = async (id: string) => (await api(`/v1/matches/${id}`)).score as number[];

  it('sets up an evening: a match, a chouette and a 4-player knockout in the session, and a board link on it', async () => {
    const { Анна: anna, 李雷: li, Γιώργος: giorgos, سارة: sara, Ben: ben, Çağrı: cagri, 김민준: minjun, דוד: david, Dana: dana } = c.ids;
    const session = await c.session({ currency: 'EUR' });
    const m = await c.post('/v1/matches', { sessionId: session, sides: [[anna], [li]], target: 7 });
    expect(m.status).toBe(201);
    match = m.body.id;
    const ch = await c.post('/v1/chouettes', { sessionId: session, stakeMinor: 100, seating: { order: [giorgos, sara, ben] } });
    expect(ch.status).toBe(201);
    chouette = ch.body.id;
    const tm = await c.post('/v1/tournaments', { name: 'Friday knockout', format: 'knockout', targets: [3], sessionId: session });
    expect(tm.status).toBe(201);
    tournament = tm.body.id;
    for (const [i, playerId] of [cagri, minjun, david, dana].entries()) expect((await c.post(`/v1/tournaments/${tournament}/entries`, { playerId, seed: i + 1 })).status).toBe(201);
    expect((await c.post(`/v1/tournaments/${tournament}/draw`, { seeding: 'given' })).status).toBe(200);
    const link = await c.post('/v1/boards', { name: 'Club room TV', sessionId: session, tournamentId: tournament });
    expect(link.status).toBe(201);
    boardId = link.body.id;
    boardPath = link.body.path;
  });

  it('opens the board and shows the scores, the box and the bracket as the API has them', async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/ERR_CONNECTION|net::|Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => {
      // allHeaders: the headers the browser sent, Last-Event-ID included (headers() has only the provisional ones).
      if (r.url().includes('/v1/board/stream')) void r.allHeaders().then((h) => streamRequests.push({ url: r.url(), lastEventId: h['last-event-id'] }));
    });
    const res = await page.goto(proxy.url + boardPath);
    expect(res?.status()).toBe(200);
    await until('the board is live', async () => (await status()) === 'Live');
    await until('the tables are drawn', async () => (await page.locator('[data-table]').count()) >= 4);

    expect(await pageScore(match)).toEqual(await apiScore(match));
    const ch = await api(`/v1/chouettes/${chouette}`);
    const card = (await text(`[data-table="${chouette}"]`))[0];
    expect(card).toContain(`Box: ${names[ch.box]}`);
    expect(card).toContain(`Captain: ${names[ch.captain]}`);
    expect(card).toContain(`Team: ${(ch.team as string[]).map((p) => names[p]).join(', ')}`);

    // The bracket's first round, pairing by pairing, as the tournament answers it.
    const tm = await api(`/v1/tournaments/${tournament}`);
    const round1 = tm.flights[0].rounds[0].pairings.map((p: { sides: string[][] }) => p.sides.map((s) => names[s[0]]));
    expect(round1).toHaveLength(2);
    const shown = await page.locator('.round[data-round="1"] .pairing').evaluateAll((rows) => rows.map((r) => [...r.children].map((d) => d.textContent?.trim())));
    expect(shown).toEqual(round1);
  });

  it('shows a game recorded through the API within 2 s', async () => {
    const before = await pageScore(match);
    expect(before).toEqual([0, 0]);
    // Anna doubles, Li takes, Anna wins a gammon: 2 × 2 = 4 points (R1.1).
    const res = await c.post(`/v1/matches/${match}/games`, { actions: [double(c.ids['Анна']), take(c.ids['李雷']), finish(c.ids['Анна'], 'gammon')] });
    expect(res.status).toBe(201);
    const took = await until('the new score', async () => (await pageScore(match)).join('-') === '4-0', 2000);
    expect(took).toBeLessThan(2000);
    expect(await pageScore(match)).toEqual(await apiScore(match));
    expect(await text('#results li')).toContainEqual(expect.stringContaining('Анна v 李雷: Анна won 4 points'));
  });

  it('moves the box on the page as the chouette does (R5.7), and the winner on in the bracket (R9.3)', async () => {
    // The captain (Sara) beats the box: Sara is box, Giorgos goes to the end of the line.
    const { Γιώργος: giorgos, سارة: sara, Ben: ben } = c.ids;
    expect((await c.post(`/v1/chouettes/${chouette}/games`, { actions: [finish(sara)] })).status).toBe(201);
    const ch = await api(`/v1/chouettes/${chouette}`);
    expect([ch.box, ch.captain, ch.team]).toEqual([sara, ben, [ben, giorgos]]);
    await until('Sara in the box', async () => (await text(`[data-table="${chouette}"]`))[0]?.includes('Box: سارة') === true);
    expect((await text(`[data-table="${chouette}"]`))[0]).toContain('Team: Ben, Γιώργος');
    // The game is in the latest results: the box as it started against the team.
    expect(await text('#results li')).toContainEqual(expect.stringContaining('Γιώργος v سارة & Ben: سارة & Ben won'));

    // Both semi-finals won with a backgammon (3 points, the target): the final is drawn between their winners.
    let tm = await api(`/v1/tournaments/${tournament}`);
    const winners: string[] = [];
    for (const p of tm.flights[0].rounds[0].pairings as Array<{ matchId: string; sides: string[][] }>) {
      const winner = p.sides[1][0];
      winners.push(names[winner]);
      expect((await c.post(`/v1/matches/${p.matchId}/games`, { actions: [finish(winner, 'backgammon')] })).status).toBe(201);
    }
    tm = await api(`/v1/tournaments/${tournament}`);
    const final = tm.flights[0].rounds[1].pairings[0].sides.map((s: string[]) => names[s[0]]);
    expect(final).toEqual(winners);
    await until('the final in the bracket', async () => {
      const rows = await page.locator('.round[data-round="2"] .pairing div').allTextContents();
      return rows.map((r) => r.trim()).join('|') === final.join('|');
    });
    // The semi-finals show their winners and scores: 0 to 3 for the second side.
    const semis = await page.locator('.round[data-round="1"] .pairing .won').allTextContents();
    expect(semis.map((s) => s.trim())).toEqual(winners.map((w) => `${w} 3`));
  });

  it('says it is offline when the connection drops, and catches up when it comes back (Last-Event-ID)', async () => {
    const streamsBefore = streamRequests.length;
    proxy.down();
    await until('the page says offline', async () => (await status()).startsWith('Offline'));
    // Recorded while the board cannot hear: Li wins a single game (4-1).
    expect((await c.post(`/v1/matches/${match}/games`, { actions: [finish(c.ids['李雷'])] })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(await pageScore(match)).toEqual([4, 0]);
    proxy.up();
    await until('live again', async () => (await status()) === 'Live', 15000);
    await until('the missed game', async () => (await pageScore(match)).join('-') === '4-1');
    expect(await pageScore(match)).toEqual(await apiScore(match));
    // The stream came back from where it was: the browser sent the last event it had seen.
    const resumed = streamRequests.slice(streamsBefore);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.filter((r) => r.lastEventId === undefined && !r.url.includes('lastEventId='))).toEqual([]);
    // And it stays live: the next game shows too. It comes right after the catch-up, so the
    // stream may hold it back for its pace (a board's stream writes at most one frame per
    // 2 s, and the hub looks again each second): within 4 s.
    expect((await c.post(`/v1/matches/${match}/games`, { actions: [finish(c.ids['Анна'])] })).status).toBe(201);
    await until('the next game', async () => (await pageScore(match)).join('-') === '5-1', 4000);
  });

  it('sets every script in the fonts it serves, passes axe, and fits a TV and a phone', async () => {
    const families = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/["']/g, ''));
    });
    for (const f of ['Board Sans', 'Board CJK', 'Board Hangul', 'Board Arabic', 'Board Hebrew']) expect(families).toContain(f);
    for (const n of PLAYERS) expect(await page.locator('body').innerText()).toContain(n);

    await page.evaluate(AXE);
    const serious = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: unknown[] }> }> } }).axe;
      const r = await axe.run(document);
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
    });
    expect(serious).toEqual([]);

    // The TV: everything above the fold of a 1920×1080 screen, nothing wider than it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1920);
    await page.screenshot({ path: join(SHOTS, 'board-tv-1920x1080.png') });

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    await p.goto(proxy.url + boardPath);
    await until('the phone board is live', async () => (await p.locator('#status').innerText()) === 'Live');
    const tables = await page.locator('[data-table]').count();
    expect(tables).toBe(3); // the match, the final and the chouette
    await until('the phone board has the same tables', async () => (await p.locator('[data-table]').count()) === tables);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.screenshot({ path: join(SHOTS, 'board-phone-390x844.png'), fullPage: true });
    await phone.close();
  });

  it('stops when the link is revoked, and says so', async () => {
    const res = await t.http().delete(`/v1/boards/${boardId}`).set(bearer(c.owner));
    expect(res.status).toBe(204);
    await until('the page says revoked', async () => (await status()).includes('revoked'), 10000);
    expect(await page.locator('#board').innerText()).toContain('revoked');
    // Opened again, the link is gone.
    const again = await browser.newPage();
    const answer = await again.goto(proxy.url + boardPath);
    expect(answer?.status()).toBe(404);
    await again.close();
    expect(problems).toEqual([]);
  });
});
