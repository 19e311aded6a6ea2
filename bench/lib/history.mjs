// The `history` figure: how the club's everyday reads grow with its history. A club is
// seeded through the API with about 1,000 finished games, its reads are timed, then the
// history is cloned in SQL (as the database owner) to about 100,000 games and the same
// reads are timed again. Each read's ratio of the two medians is the figure; the target
// is 1.5 or less (docs/performance.md), but the figure reports and never fails the run.

import pg from 'pg';
import { Api, expectOk, finish, moneyGame } from './api.mjs';
import { HttpClient } from './http.mjs';
import { envNumber, log, now, percentile } from './util.mjs';

/** Nights seeded through the API; each copy of the history goes that many nights further back. */
const NIGHTS = 13;
/** Copies added by SQL: 1 + 99 copies of ~1,000 games ≈ 100,000 finished games (BENCH_HISTORY_COPIES for a quick try). */
const COPIES = Math.round(envNumber('BENCH_HISTORY_COPIES', 99, 1, 999));
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Plays `count` whole games on one table, one after the other.
 * @param {Api} api
 * @param {string} path  the table's `…/games` path
 * @param {(k: number) => object[]} actions  the k-th game's actions
 * @param {number} count
 * @param {(k: number) => void} [ok]  told each game recorded
 */
async function playTable(api, path, actions, count, ok) {
  let last = null;
  for (let k = 0; k < count; k++) {
    last = await api.post(path, { actions: actions(k) });
    ok?.(k);
  }
  return last;
}

/**
 * One night: R at three money tables, one per-member chouette of five, a match to 7
 * and board 1 of a three-board team event (target 3); one money game voided, one game
 * started and abandoned, two payments; closed unless it is the last night. R plays 40 + 15 + 13 + 3 = 71 games; the
 * night has 40 + 15 + 13 + 9 − 1 voided = 76 finished games.
 * @param {Api} api
 * @param {string} r  the regular
 * @param {string[]} others  the 12 other players
 * @param {number} n  the night's number, 0 first
 * @param {string} startsAt
 */
async function playNight(api, r, others, n, startsAt) {
  const o = (i) => others[(n * 5 + i) % others.length];
  const session = (await api.post('/v1/sessions', { name: `Club night ${n + 1}`, rakePercent: 2.5, startsAt })).id;
  const stakes = [50, 100, 200];
  const money = [];
  for (let i = 0; i < 3; i++) money.push({ id: await api.moneyTable(session, r, o(i), stakes[i]), b: o(i) });
  const chouette = await api.chouette(session, [r, o(3), o(4), o(5), o(6)]);
  const match = (await api.post('/v1/matches', { sessionId: session, sides: [[r], [o(7)]], target: 7, stakeMinor: 500 })).id;
  const team = await api.post('/v1/team-events', {
    sessionId: session,
    target: 3,
    stakeMinor: 200,
    teams: [
      { name: 'Regulars', players: [r, o(8), o(9)] },
      { name: 'Guests', players: [o(10), o(11), o(0)] },
    ],
  });
  const boards = team.boards.map((b) => b.matchId);
  const perMoney = [14, 13, 13];
  const [firstLast] = await Promise.all([
    ...money.map((t, i) => playTable(api, `/v1/money-games/${t.id}/games`, (k) => moneyGame(r, t.b, k + n + i), perMoney[i])),
    playTable(
      api,
      `/v1/chouettes/${chouette.id}/games`,
      (k) => chouette.game(k % 2 === 0),
      15,
      (k) => chouette.rotate(k % 2 === 0),
    ),
    // Alternate winners: 1–0, 1–1, … 6–6, then 7–6 ends the match after 13 games.
    playTable(api, `/v1/matches/${match}/games`, (k) => [finish(k % 2 === n % 2 ? r : o(7))], 13),
    // Each board: side 0 wins three singles, the match to 3 ends.
    ...boards.map((id, b) => playTable(api, `/v1/matches/${id}/games`, () => [finish(b === 0 ? r : [o(8), o(9)][b - 1])], 3)),
  ]);
  // A mistake corrected: the last game at the first table is voided.
  await api.post(`/v1/money-games/${money[0].id}/games/${firstLast.gameNo}/void`, { reason: 'Wrong winner recorded' });
  // A game started and left: abandoned.
  const started = await api.post(`/v1/money-games/${money[1].id}/games`, {});
  await api.post(`/v1/money-games/${money[1].id}/games/${started.gameNo}/abandon`);
  await api.post(`/v1/sessions/${session}/payments`, { from: o(0), to: r, amountMinor: 1500 + n, note: 'cash at the bar' });
  await api.post(`/v1/sessions/${session}/payments`, { from: r, to: 'house', amountMinor: 300 });
  // Every night but tonight's is over.
  if (n < NIGHTS - 1) await api.post(`/v1/sessions/${session}/close`);
  return session;
}

/**
 * Seeds the club: R and 12 others, `NIGHTS` nights, dated one a day up to today.
 * @param {Api} api
 */
async function seed(api) {
  const [r, ...others] = await api.players('Regular', 13);
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 19);
  const sessions = [];
  // Two nights at a time.
  for (let n = 0; n < NIGHTS; n += 2) {
    const batch = [n, n + 1].filter((x) => x < NIGHTS);
    sessions.push(...(await Promise.all(batch.map((x) => playNight(api, r, others, x, new Date(today - (NIGHTS - 1 - x) * DAY_MS).toISOString())))));
  }
  return { r, sessions };
}

/**
 * The reads, by figure name.
 * @param {string} r
 * @param {string} last  the last night's session
 */
function reads(r, last) {
  // The statement of the last week: what a player asks for (the whole history returns every session, and grows with it).
  const week = new Date(Date.now() - 6 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return {
    player: `/v1/players/${r}`,
    statement: `/v1/players/${r}/statement?from=${week}`,
    balances: '/v1/balances',
    ratings: '/v1/ratings',
    standings: `/v1/sessions/${last}/standings`,
    settlement: `/v1/sessions/${last}/settlement`,
    session_games: `/v1/sessions/${last}/games`,
    ledger: `/v1/sessions/${last}/ledger?limit=50`,
    // Lists by pages of 10, full at both sizes (13 nights already hold more of each kind), so
    // both sizes return the same amount.
    money_games: '/v1/money-games?limit=10',
    matches: `/v1/matches?playerId=${r}&limit=10`,
    chouettes: '/v1/chouettes?limit=10',
    team_events: '/v1/team-events?limit=10',
    events: '/v1/events?limit=100',
  };
}

/**
 * The median of each path's timed GETs from two connections: first `warmup`
 * unmeasured requests (or as many as `warmupMs` allows), then `measured` timed ones,
 * or as many as `budgetMs` allows but at least 5 (a read of seconds gets fewer).
 * @param {string} baseUrl
 * @param {string} token
 * @param {Record<string, string>} paths
 * @param {{ warmup: number, measured: number, warmupMs?: number, budgetMs?: number }} counts
 * @returns {Promise<Record<string, { p50: number, n: number }>>}
 */
async function medians(baseUrl, token, paths, { warmup, measured, warmupMs = 5000, budgetMs = 15000 }) {
  const client = new HttpClient(baseUrl, { connections: 2, token });
  try {
    /** @type {Record<string, { p50: number, n: number }>} */
    const out = {};
    for (const [name, path] of Object.entries(paths)) {
      const times = [];
      const run = async (/** @type {number} */ count, /** @type {number} */ ms, /** @type {number} */ least, /** @type {boolean} */ timed) => {
        const until = now() + ms;
        let sent = 0;
        const loop = async () => {
          while (sent < count && (sent < least || now() < until)) {
            sent++;
            const reply = await client.get(path);
            expectOk(reply);
            if (timed) times.push(reply.ms);
          }
        };
        await Promise.all([loop(), loop()]);
      };
      await run(warmup, warmupMs, 2, false);
      await run(measured, budgetMs, 5, true);
      times.sort((a, b) => a - b);
      out[name] = { p50: percentile(times, 50), n: times.length };
      log(`history: ${name} p50 ${out[name].p50.toFixed(2)} ms over ${times.length} requests`);
    }
    return out;
  } finally {
    client.close();
  }
}

/**
 * Copies the club's history `copies` times, copy k dated k × `nights` days earlier,
 * as the API would have written it: new version-7 ids whose time is the shifted
 * creation time (a pure function of the old id and k, so every reference maps the
 * same way), and the read models (session_totals, table_nets, party_volumes) to match. Players,
 * the club, keys, the audit record and the event log are not copied.
 * @param {string} ownerUrl
 * @param {string} clubId
 * @param {{ copies: number, nights: number, check: string }} o  `check`: a session
 * @returns {Promise<string>} the id of the first copy of session `check`
 */
async function cloneHistory(ownerUrl, clubId, { copies, nights, check }) {
  // The counters of player_stats, as the app names them (the bench runs after the build).
  const { STATS_COLUMNS } = await import(new URL('../../dist/src/player-stats/stats-rows.js', import.meta.url).href);
  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  let firstCopy;
  try {
    await db.query('BEGIN');
    // The JSON columns are copied as they are: they must name no session, table or
    // team event (players are shared by every copy, so naming them is fine).
    const named = await db.query(
      `SELECT count(*)::int AS n FROM (
         SELECT lower((regexp_matches(j, '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'gi'))[1])::uuid AS u FROM (
           SELECT setup::text || state::text AS j FROM game_tables WHERE club_id = $1
           UNION ALL SELECT setup::text || actions::text || coalesce(result::text, '') FROM games WHERE club_id = $1
           UNION ALL SELECT teams::text FROM team_events WHERE club_id = $1) x) m
        WHERE u IN (SELECT id FROM sessions WHERE club_id = $1 UNION ALL SELECT id FROM game_tables WHERE club_id = $1 UNION ALL SELECT id FROM team_events WHERE club_id = $1)`,
      [clubId],
    );
    if (named.rows[0].n > 0) throw new Error(`history: ${named.rows[0].n} JSON values name a session, table or team event; the copy would point at the originals`);
    await db.query(`
      CREATE FUNCTION pg_temp.clone_id(old uuid, k integer, shift_ms bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
        SELECT (lpad(to_hex(('x' || substr(replace(old::text, '-', ''), 1, 12))::bit(48)::bigint - shift_ms), 12, '0')
                || '7' || substr(h, 1, 3) || substr('89ab', 1 + get_byte(decode(substr(h, 4, 2), 'hex'), 0) % 4, 1) || substr(h, 6, 15))::uuid
          FROM (SELECT md5(old::text || ':' || k) AS h) x
      $$`);
    await db.query(
      `CREATE TEMP TABLE copies ON COMMIT DROP AS
      SELECT k, (k * $1::bigint * ${DAY_MS})::bigint AS ms, make_interval(days => k * $1::integer) AS back
        FROM generate_series(1, $2::integer) k`,
      [nights, copies],
    );
    const id = (col) => `pg_temp.clone_id(${col}, c.k, c.ms)`;
    const steps = [
      [
        'sessions',
        // Every copy is in the past: tonight's open session is copied as closed, as
        // closing it would have left it (status, closedAt, one more version).
        `INSERT INTO sessions (club_id, id, name, currency, status, rake_bp, starts_at, closed_at, version, created_at, updated_at)
         SELECT s.club_id, ${id('s.id')}, s.name, s.currency, 'closed', s.rake_bp, s.starts_at - c.back, coalesce(s.closed_at, s.updated_at) - c.back,
                s.version + (s.status = 'open')::integer, s.created_at - c.back, s.updated_at - c.back
           FROM sessions s CROSS JOIN copies c WHERE s.club_id = $1`,
      ],
      [
        'game_tables',
        `INSERT INTO game_tables (club_id, id, kind, session_id, status, setup, state, stake_minor, next_game_no, current_game_no, version, created_at, updated_at)
         SELECT t.club_id, ${id('t.id')}, t.kind, ${id('t.session_id')}, t.status, t.setup, t.state, t.stake_minor, t.next_game_no, t.current_game_no, t.version, t.created_at - c.back, t.updated_at - c.back
           FROM game_tables t CROSS JOIN copies c WHERE t.club_id = $1`,
      ],
      [
        'table_players',
        `INSERT INTO table_players (club_id, table_id, player_id, kind, status)
         SELECT p.club_id, ${id('p.table_id')}, p.player_id, p.kind, p.status FROM table_players p CROSS JOIN copies c WHERE p.club_id = $1`,
      ],
      [
        'games',
        `INSERT INTO games (club_id, table_id, game_no, status, automatic_doubles, setup, actions, result, points, winner_side, started_at, ended_at, voided_at, void_reason, voided_by, version, players)
         SELECT g.club_id, ${id('g.table_id')}, g.game_no, g.status, g.automatic_doubles, g.setup, g.actions, g.result, g.points, g.winner_side,
                g.started_at - c.back, g.ended_at - c.back, g.voided_at - c.back, g.void_reason, g.voided_by, g.version, g.players
           FROM games g CROSS JOIN copies c WHERE g.club_id = $1`,
      ],
      [
        'ledger_entries',
        `INSERT INTO ledger_entries (club_id, id, session_id, table_id, game_no, from_party, to_party, amount_minor, kind, created_at)
         SELECT l.club_id, ${id('l.id')}, ${id('l.session_id')}, ${id('l.table_id')}, l.game_no, l.from_party, l.to_party, l.amount_minor, l.kind, l.created_at - c.back
           FROM ledger_entries l CROSS JOIN copies c WHERE l.club_id = $1`,
      ],
      [
        'payments',
        `INSERT INTO payments (club_id, id, session_id, from_party, to_party, amount_minor, note, created_by, created_at)
         SELECT y.club_id, ${id('y.id')}, ${id('y.session_id')}, y.from_party, y.to_party, y.amount_minor, y.note, y.created_by, y.created_at - c.back
           FROM payments y CROSS JOIN copies c WHERE y.club_id = $1`,
      ],
      [
        'session_totals',
        `INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at)
         SELECT x.club_id, ${id('x.session_id')}, x.party, x.net_minor, x.games, x.last_at - c.back
           FROM session_totals x CROSS JOIN copies c WHERE x.club_id = $1`,
      ],
      [
        'table_nets',
        `INSERT INTO table_nets (club_id, table_id, party, net_minor)
         SELECT n.club_id, ${id('n.table_id')}, n.party, n.net_minor FROM table_nets n CROSS JOIN copies c WHERE n.club_id = $1`,
      ],
      [
        'team_events',
        `INSERT INTO team_events (club_id, id, session_id, name, target, stake_minor, teams, created_at, version)
         SELECT e.club_id, ${id('e.id')}, ${id('e.session_id')}, e.name, e.target, e.stake_minor, e.teams, e.created_at - c.back, e.version
           FROM team_events e CROSS JOIN copies c WHERE e.club_id = $1`,
      ],
      [
        'team_event_boards',
        `INSERT INTO team_event_boards (club_id, event_id, board_no, match_id)
         SELECT b.club_id, ${id('b.event_id')}, b.board_no, ${id('b.match_id')} FROM team_event_boards b CROSS JOIN copies c WHERE b.club_id = $1`,
      ],
      // Every copy moves the same money and plays the same games again: each party's money,
      // each player's counters and rated matches grow by the same amount per copy.
      [
        'party_volumes',
        `UPDATE party_volumes SET gross_minor = gross_minor * (1 + $2::integer), net_minor = net_minor * (1 + $2::integer),
                paid_minor = paid_minor * (1 + $2::integer), received_minor = received_minor * (1 + $2::integer) WHERE club_id = $1`,
      ],
      [
        'player_stats',
        `UPDATE player_stats SET ${Object.values(STATS_COLUMNS)
          .map((c) => `${c} = ${c} * (1 + $2::integer)`)
          .join(', ')} WHERE club_id = $1`,
      ],
      ['players', `UPDATE players SET rated_matches = rated_matches * (1 + $2::integer) WHERE club_id = $1`],
    ];
    // Parents first, for the foreign keys. Each statement reads only the table it copies
    // into, which holds no copies yet (a statement does not see its own inserts), so
    // every original row is copied exactly `copies` times.
    for (const [table, sql] of steps) {
      const t = now();
      const res = await db.query(sql, ['party_volumes', 'player_stats', 'players'].includes(table) ? [clubId, copies] : [clubId]);
      log(`history: ${table}: ${res.rowCount} rows in ${((now() - t) / 1000).toFixed(1)} s`);
    }
    firstCopy = await db.query(`SELECT pg_temp.clone_id($1, 1, ${nights * DAY_MS}) AS id`, [check]);
    await db.query('COMMIT');
    const t = now();
    await db.query('ANALYZE');
    log(`history: ANALYZE in ${((now() - t) / 1000).toFixed(1)} s`);
  } catch (e) {
    await db.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    await db.end();
  }
  return firstCopy.rows[0].id;
}

/**
 * `history`: see the top of this file.
 * @param {{ client: HttpClient, adminToken: string, baseUrl: string, ownerUrl: string, warmup?: number, measured?: number }} o
 * @returns {Promise<{ at1k: Record<string, { p50: number, n: number }>, at100k: Record<string, { p50: number, n: number }>, games1k: number, games100k: number, seedSeconds: number, cloneSeconds: number }>}
 */
export async function history({ client, adminToken, baseUrl, ownerUrl, warmup = 20, measured = 60 }) {
  const api = await Api.newClub(client, adminToken, 'History club');
  let t = now();
  log(`history: seeding ${NIGHTS} nights through the API…`);
  const { r, sessions } = await seed(api);
  const seedSeconds = (now() - t) / 1000;
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  let clubId;
  const finished = async () => Number((await owner.query(`SELECT count(*) FROM games WHERE club_id = $1 AND status = 'finished'`, [clubId])).rows[0].count);
  try {
    clubId = (await owner.query('SELECT club_id FROM players WHERE id = $1', [r])).rows[0].club_id;
    const games1k = await finished();
    log(`history: ${games1k} finished games in ${sessions.length} sessions seeded in ${seedSeconds.toFixed(1)} s`);
    const paths = reads(r, sessions[sessions.length - 1]);
    const at1k = await medians(baseUrl, api.token, paths, { warmup, measured });
    t = now();
    const last = sessions[sessions.length - 1];
    const copy = await cloneHistory(ownerUrl, clubId, { copies: COPIES, nights: NIGHTS, check: last });
    const cloneSeconds = (now() - t) / 1000;
    const games100k = await finished();
    log(`history: cloned to ${games100k} finished games in ${cloneSeconds.toFixed(1)} s`);
    // A copy must read as its original: the same settlement (players, house, transfers)
    // and the same standings, under its own id.
    for (const view of ['settlement', 'standings']) {
      // Ids of the session and its matches and times differ by design (a copy is dated earlier), and
      // the copy of tonight's session is closed.
      const strip = (/** @type {any} */ x) =>
        JSON.stringify(x, (k, v) =>
          ['sessionId', 'matchId', 'id', 'sessionName', 'name', 'status', 'version', 'closedAt'].includes(k) || (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) ? undefined : v,
        );
      const [a, b] = [await api.get(`/v1/sessions/${last}/${view}`), await api.get(`/v1/sessions/${copy}/${view}`)];
      const [sa, sb] = [strip(a), strip(b)];
      if (sa !== sb) {
        let at = 0;
        while (sa[at] === sb[at]) at++;
        throw new Error(
          `history: the copy's ${view} differs from the original's from character ${at}:\n${sa.slice(Math.max(0, at - 200), at + 300)}\n${sb.slice(Math.max(0, at - 200), at + 300)}`,
        );
      }
    }
    log(`history: the first copy of the last night has the original's settlement and standings`);
    // And the read models the copy multiplied are what a rebuild from the copied history gives.
    t = now();
    const { rebuildClub } = await import(new URL('../../dist/src/player-stats/rebuild.js', import.meta.url).href);
    const found = await rebuildClub(owner, clubId, 'check');
    if (found.length > 0) throw new Error(`history: the read models differ from a rebuild of the copied history:\n${found.join('\n')}`);
    log(`history: the read models equal a rebuild from the ${games100k} games (checked in ${((now() - t) / 1000).toFixed(1)} s)`);
    const at100k = await medians(baseUrl, api.token, paths, { warmup, measured });
    return { at1k, at100k, games1k, games100k, seedSeconds, cloneSeconds };
  } finally {
    await owner.end();
  }
}
