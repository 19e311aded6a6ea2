// Filling sessions with finished games through the API (whole-game POSTs).

import { Api, expectOk, moneyGame } from './api.mjs';
import { now } from './util.mjs';

/**
 * A table the seeder can play whole games on: `next(k)` gives the request for its
 * k-th game, and `ok()` is told when that game was recorded.
 * @typedef {object} GameTable
 * @property {'money' | 'chouette'} kind
 * @property {(k: number) => { path: string, body: object, ok?: () => void }} next
 */

/**
 * A money table playing the five shapes of `moneyGame` in turn.
 * @param {string} id
 * @param {string} a
 * @param {string} b
 * @param {number} [shift=0]  where in the cycle of shapes it starts
 * @returns {GameTable}
 */
export function moneyTable(id, a, b, shift = 0) {
  return { kind: 'money', next: (k) => ({ path: `/v1/money-games/${id}/games`, body: { actions: moneyGame(a, b, k + shift) } }) };
}

/**
 * A per-member chouette: the box doubles everybody, all take, the box and the
 * captain win in turn; the seats rotate as R5.7 says.
 * @param {import('./api.mjs').ChouetteSeats} seats
 * @returns {GameTable}
 */
export function chouetteTable(seats) {
  return {
    kind: 'chouette',
    next: (k) => {
      const boxWins = k % 2 === 0;
      return { path: `/v1/chouettes/${seats.id}/games`, body: { actions: seats.game(boxWins) }, ok: () => seats.rotate(boxWins) };
    },
  };
}

/**
 * Records `total` whole games on `tables` with `workers` concurrent loops. Table i
 * belongs to loop i % workers, which plays its tables in turn, so no two requests
 * for one table are ever in flight. Any non-2xx answer stops the seeding.
 * @param {Api} api
 * @param {GameTable[]} tables
 * @param {number} total
 * @param {number} workers
 * @returns {Promise<{ money: number, chouette: number }>} games recorded per kind
 */
export async function playWholeGames(api, tables, total, workers) {
  let claimed = 0;
  const played = { money: 0, chouette: 0 };
  /** @type {unknown} */
  let failure = null;
  const tokens = await api.tabletKeys('Seeding tablet', workers);
  const loop = async (/** @type {number} */ w) => {
    const mine = tables.filter((_, i) => i % workers === w);
    const games = new Array(mine.length).fill(0);
    for (let turn = 0; mine.length > 0 && failure === null && claimed < total; turn++) {
      claimed += 1;
      const t = turn % mine.length;
      const { path, body, ok } = mine[t].next(games[t]);
      try {
        expectOk(await api.client.post(path, body, { token: tokens[w] }));
      } catch (e) {
        if (failure === null) failure = e;
        return;
      }
      ok?.();
      games[t] += 1;
      played[mine[t].kind] += 1;
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => loop(w)));
  if (failure !== null) throw failure;
  return played;
}

/**
 * The settlement session: 12 players, every pair at a money table (66 tables at
 * stakes of 50, 100 and 200) and two 6-player chouettes, rake 2.5 %, filled with
 * `games` whole games at concurrency `workers`.
 * @param {Api} api
 * @param {{ games: number, workers: number }} opts
 * @returns {Promise<{ sessionId: string, players: string[], money: number, chouette: number, seconds: number }>}
 */
export async function seedSettlementSession(api, { games, workers }) {
  const started = now();
  const players = await api.players('Settler', 12);
  const sessionId = await api.session('Settlement benchmark', 2.5);
  /** @type {Promise<GameTable>[]} */
  const creating = [];
  for (let i = 0; i < players.length; i++) {
    for (let j = i + 1; j < players.length; j++) {
      const stake = [50, 100, 200][(i + j) % 3];
      creating.push(api.moneyTable(sessionId, players[i], players[j], stake).then((id) => moneyTable(id, players[i], players[j], i * 7 + j)));
    }
  }
  creating.push(api.chouette(sessionId, players.slice(0, 6)).then(chouetteTable));
  creating.push(api.chouette(sessionId, players.slice(6, 12)).then(chouetteTable));
  const tables = await Promise.all(creating);
  const played = await playWholeGames(api, tables, games, workers);
  return { sessionId, players, ...played, seconds: (now() - started) / 1000 };
}
