// Club boards under load: screens that hold a board's stream open and read the board
// again whenever it says something changed, as the page does (one read at a time, one more
// if an event came meanwhile). The `record_game_with_boards` and `board_streams` figures.

import http from 'node:http';
import { Api, expectOk } from './api.mjs';
import { rssMiB, sampleRss } from './app.mjs';
import { onCleanup } from './cleanup.mjs';
import { recordGameLoad } from './figures.mjs';
import { interleave, onSseFrames } from './http.mjs';
import { log, sleep } from './util.mjs';

/**
 * Board links on the given sessions, `perSession` each; answers their tokens.
 * @param {Api} api
 * @param {string[]} sessions
 * @param {number} perSession
 */
async function boardLinks(api, sessions, perSession) {
  const tokens = [];
  for (const sessionId of sessions) {
    for (let i = 0; i < perSession; i++) tokens.push((await api.post('/v1/boards', { name: `Screen ${tokens.length + 1}`, sessionId })).token);
  }
  return tokens;
}

/**
 * Opens one screen per token: its stream (the token in the query, as EventSource sends it)
 * and, on each event, a read of the board from that event on. Counts what they get.
 * @param {string} baseUrl
 * @param {string[]} tokens
 */
async function openScreens(baseUrl, tokens) {
  const u = new URL(baseUrl);
  // The screens' reads share a few sockets, as many screens behind a club's router would not;
  // the app sees the same requests either way.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const counts = { frames: 0, reads: 0, failedReads: 0, ended: 0 };
  let closing = false;
  const requests = [];

  const readBoard = (token, since) =>
    new Promise((resolve) => {
      const req = http.get({ host: u.hostname, port: u.port, path: `/v1/board?since=${since}`, agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) counts.reads++;
          else if (!closing) counts.failedReads++;
          resolve(undefined);
        });
      });
      req.on('error', () => {
        if (!closing) counts.failedReads++;
        resolve(undefined);
      });
    });

  const open = (token) =>
    new Promise((resolve, reject) => {
      let reading = false;
      let pending = null;
      const changed = async (id) => {
        if (reading) {
          pending = id;
          return;
        }
        reading = true;
        let since = id;
        while (since !== null && !closing) {
          pending = null;
          await readBoard(token, since);
          since = pending;
        }
        reading = false;
      };
      const req = http.get({ host: u.hostname, port: u.port, path: `/v1/board/stream?token=${encodeURIComponent(token)}`, headers: { accept: 'text/event-stream' } });
      requests.push(req);
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`a board stream answered ${res.statusCode}`));
          return;
        }
        onSseFrames(res, (frame) => {
          const id = /^id: (\S+)$/m.exec(frame)?.[1];
          if (id && /^event: /m.test(frame)) {
            counts.frames++;
            void changed(id);
          }
        });
        res.on('end', () => {
          if (!closing) counts.ended++;
        });
        resolve(undefined);
      });
      req.on('error', (e) => {
        if (!closing) reject(e);
      });
    });

  // A few at a time, as screens come on in a room.
  for (let i = 0; i < tokens.length; i += 50) await Promise.all(tokens.slice(i, i + 50).map(open));
  return {
    counts,
    close() {
      closing = true;
      for (const r of requests) r.destroy();
      agent.destroy();
    },
  };
}

/**
 * `record_game_with_boards`: the record_game load on 8 sessions with 200 board screens
 * open on them (25 each, so every game wakes 25), and the same load on 8 other sessions
 * of the club with none, taking turns (`rounds` slices each, as record_game and its
 * baseline do) so the machine's drift weighs on both alike. The screens stay open
 * throughout: in the other load's slices they are idle.
 * @param {{ api: Api, pid: number, warmupMs: number, durationMs: number, rounds: number, baseUrl: string }} o
 */
export async function recordGameWithBoards({ api, pid, warmupMs, durationMs, rounds, baseUrl }) {
  const withLoad = { ...(await recordGameLoad({ api, pid })), name: 'record_game_with_boards' };
  const withoutLoad = { ...(await recordGameLoad({ api, pid })), name: 'record_game_without_boards' };
  const tokens = await boardLinks(api, withLoad.sessions, 25);
  const screens = await openScreens(baseUrl, tokens);
  const closeScreens = onCleanup('close the board screens', () => screens.close());
  log(`record_game_with_boards: ${tokens.length} board screens open on ${withLoad.sessions.length} sessions`);
  let withBoards, without;
  try {
    [withBoards, without] = await interleave([withLoad, withoutLoad], { warmupMs, durationMs, rounds });
  } finally {
    await closeScreens();
  }
  return { withBoards, without, screens: tokens.length, counts: screens.counts };
}

/**
 * `board_streams`: 1,000 board screens open on one instance (4 clubs of 250, as the
 * per-club bound allows 500), the app's resident memory sampled while they are open and
 * while each club records games (one connection per club), every game waking its 250
 * screens, which read their board again.
 * @param {{ client: import('./http.mjs').HttpClient, adminToken: string, pid: number, baseUrl: string, durationMs: number }} o
 */
export async function boardStreams({ client, adminToken, pid, baseUrl, durationMs }) {
  const clubs = 4;
  const perClub = 250;
  const rss = sampleRss(pid);
  const opened = [];
  const cleanups = [];
  let peak = NaN;
  let idle = NaN;
  let games = 0;
  let before = NaN;
  try {
    const setups = [];
    for (let c = 0; c < clubs; c++) {
      const api = await Api.newClub(client, adminToken, `Board club ${c + 1}`);
      const [a, b] = await api.players(`Board club ${c + 1} player`, 2);
      const session = await api.session(`Board club ${c + 1} night`);
      const table = await api.moneyTable(session, a, b);
      setups.push({ api, a, table, tokens: await boardLinks(api, [session], perClub) });
    }
    before = rssMiB(pid);
    for (const s of setups) {
      const screens = await openScreens(baseUrl, s.tokens);
      opened.push(screens);
      cleanups.push(onCleanup('close the board screens', () => screens.close()));
    }
    log(`board_streams: ${clubs * perClub} board screens open`);
    await sleep(3000);
    idle = sampleRss(pid).stop();
    const until = Date.now() + durationMs;
    await Promise.all(
      setups.map(async (s) => {
        while (Date.now() < until) {
          expectOk(await s.api.client.post(`/v1/money-games/${s.table}/games`, { actions: [{ type: 'finish', winner: s.a, result: 'single', resigned: false }] }, { token: s.api.token }));
          games++;
          await sleep(100);
        }
      }),
    );
    await sleep(2000);
  } finally {
    peak = rss.stop();
    for (const close of cleanups) await close();
  }
  const total = (k) => opened.reduce((n, s) => n + s.counts[k], 0);
  return {
    open: clubs * perClub,
    beforeRssMiB: before,
    idleRssMiB: idle,
    peakRssMiB: peak,
    games,
    frames: total('frames'),
    reads: total('reads'),
    failedReads: total('failedReads'),
    ended: total('ended'),
  };
}
