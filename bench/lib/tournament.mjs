// The `tournament` figures (R9): results that advance a 128-entry knockout, and reads of the
// whole tournament at that size.

import { expectOk } from './api.mjs';
import { HttpClient, runLoad } from './http.mjs';
import { log, sleep } from './util.mjs';

const ENTRIES = 128;

/**
 * Creates a 128-entry knockout of `players` (by rating), drawn: round 1's 64 matches exist.
 * @param {import('./api.mjs').Api} api
 * @param {string[]} players
 * @param {string} name
 */
async function knockout(api, players, name) {
  const t = await api.post('/v1/tournaments', { name, format: 'knockout', targets: [1] });
  for (const playerId of players) await api.post(`/v1/tournaments/${t.id}/entries`, { playerId });
  await api.post(`/v1/tournaments/${t.id}/draw`, { seeding: 'rating' });
  return t.id;
}

/** The pairings of the tournament that have a match and no result yet, as [matchId, winner]. */
async function openMatches(api, id) {
  const t = await api.get(`/v1/tournaments/${id}`);
  const out = [];
  for (const r of t.flights[0].rounds) for (const p of r.pairings) if (p.matchId && p.winnerSide === null) out.push([p.matchId, p.sides[p.no % 2][0]]);
  return { status: t.status, open: out };
}

/**
 * `tournament_result`: 16 connections, each playing out its own 128-entry knockouts (one
 * game to 1 point ends a match, R3.3); each request is a result the tournament carries on:
 * the winner advanced, the next pairing's match created when both its players are known
 * (R9.3, R9.5). The tournaments are made before the load; reading a tournament to find its
 * next matches is not timed. `tournament_get`: GET of a 128-entry tournament from 4
 * connections.
 * @param {{ api: import('./api.mjs').Api, warmupMs: number, durationMs: number, baseUrl: string, pid: number }} o
 */
export async function tournament({ api, warmupMs, durationMs, baseUrl, pid }) {
  const connections = 16;
  const perConnection = Math.max(1, Math.ceil((((warmupMs + durationMs) / 1000) * 20 * 1.5) / (ENTRIES - 1)));
  // Each connection's tournaments have players of their own, as a club's flights do: a
  // finished match rates its players (R7.1), and one player in 16 events at once would
  // make every result wait for the others' locks on his row.
  const entrants = async (c) => {
    const ids = [];
    for (let i = 0; i < ENTRIES; i++) ids.push((await api.post('/v1/players', { name: `Entrant ${c}.${i + 1}`, rating: 2000 - i })).id);
    return ids;
  };
  log(`tournament: drawing ${connections * perConnection} knockouts of ${ENTRIES}…`);
  const fields = await Promise.all(Array.from({ length: connections + 1 }, (_, c) => entrants(c)));
  const queues = await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      const players = fields[c];
      const ids = [];
      for (let k = 0; k < perConnection; k++) ids.push(await knockout(api, players, `Bench knockout ${c}.${k}`));
      return { ids, open: [] };
    }),
  );
  const tokens = await api.tabletKeys('Tournament tablet', connections);
  let exhausted = 0;
  const result = await runLoad({
    name: 'tournament_result',
    connections,
    warmupMs,
    durationMs,
    pid,
    step: async (c, record) => {
      const q = queues[c];
      while (q.open.length === 0) {
        if (q.ids.length === 0) {
          exhausted++;
          await sleep(50);
          return;
        }
        const next = await openMatches(api, q.ids[0]);
        if (next.status === 'finished') q.ids.shift();
        else q.open = next.open;
      }
      const [matchId, winner] = q.open.shift();
      const r = await api.client.post(`/v1/matches/${matchId}/games`, { actions: [{ type: 'finish', winner, result: 'single' }] }, { token: tokens[c] });
      record(r);
      if (!r.ok) throw new Error(`tournament_result: ${r.status} ${r.text().slice(0, 500)}`);
    },
  });
  if (exhausted > 0) log(`tournament_result: connections ran out of tournaments ${exhausted} times (raise the tournaments made)`);

  const big = await knockout(api, fields[connections], 'Bench knockout to read');
  // Half of it played: its first round decided, the second paired.
  for (const [matchId, winner] of (await openMatches(api, big)).open)
    expectOk(await api.client.post(`/v1/matches/${matchId}/games`, { actions: [{ type: 'finish', winner, result: 'single' }] }, { token: api.token }));
  const reader = new HttpClient(baseUrl, { connections: 4, token: api.token });
  try {
    const read = await runLoad({
      name: 'tournament_get',
      connections: 4,
      warmupMs: Math.min(warmupMs, 3000),
      durationMs,
      step: async (_c, record) => {
        const r = await reader.get(`/v1/tournaments/${big}`);
        record(r);
        if (!r.ok) throw new Error(`tournament_get: ${r.status}`);
      },
    });
    return { result, read };
  } finally {
    await reader.close();
  }
}
