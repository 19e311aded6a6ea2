/**
 * The read models rebuilt from what they sum (the games, the ledger, the payments), for
 * `npm run rebuild-read-models` (which writes them, or with `--check` compares them with
 * the stored ones) and the migration that introduced them. Plain SQL over any client
 * with `query(text, values)`: the app's, a migration's QueryRunner or a pg.Client.
 *
 * - `player_stats`: every finished game's and finished match's counters (the same
 *   functions the commands use, src/domain/player-stats.ts), summed.
 * - `party_volumes`: gross (R6.2), net, paid and received, and whether the party has a
 *   session total, per party and currency.
 * - `players.rated_matches`: finished backgammon matches that rated the player (R7.1, R8.9, R3.9).
 * - `session_totals`: each party's net and finished games per session (R6.5).
 * - `table_nets`: each party's net per table (received − paid over the table's entries).
 * - `party_sessions`: the sessions each party is on (a session total, a payment, a seat),
 *   with the session's date (`startsAt`, else creation).
 */
import { cols, type Row } from '../db/decode';
import { gameStatsRows, matchStatsRows, STATS_COUNTERS, sumStatsRows, type StatsRow } from '../domain/player-stats';
import { type FinishedGameRow, scoreOf, tableOf } from '../tables/pure';
import { CHOUETTE_REPLAY_SQL, decodeStatsRow, GAME_VARIANT_SQL, lowerSides, playerStatsUpsert, sideOf, statsGameRow, TABLE_SIDES_SQL } from './stats-rows';

/** Anything that runs a query and answers its rows. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<Row[]>;
}

/** A pg.Client (whose query answers a result) as an SqlClient. */
export const pgSqlClient = (c: { query(text: string, values?: unknown[]): Promise<{ rows: Row[] }> }): SqlClient => ({
  query: async (text, values) => (await c.query(text, values)).rows,
});

const BATCH = 2000;

/** The club's player_stats as the games and matches say they should be. */
export async function playerStatsFromHistory(db: SqlClient, clubId: string): Promise<StatsRow[]> {
  // Every finished game, in (table, game) batches, summed as they come.
  let rows: StatsRow[] = [];
  let after: [string, number] = ['00000000-0000-0000-0000-000000000000', 0];
  for (;;) {
    const batch = await db.query(
      `SELECT g.table_id, g.game_no, t.kind, ${TABLE_SIDES_SQL} AS sides, g.setup->'seatsAtStart' AS seats,
              g.winner_side, g.result, g.points, ${GAME_VARIANT_SQL} AS variant, g.actions, ${CHOUETTE_REPLAY_SQL}
         FROM games g JOIN game_tables t ON t.club_id = g.club_id AND t.id = g.table_id
        WHERE g.club_id = $1 AND g.status = 'finished' AND (g.table_id, g.game_no) > ($2::uuid, $3::int)
        ORDER BY g.table_id, g.game_no LIMIT ${BATCH}`,
      [clubId, after[0], after[1]],
    );
    rows = sumStatsRows([...rows, ...batch.flatMap((r) => gameStatsRows(statsGameRow(r)))]);
    if (batch.length < BATCH) break;
    const last = cols(batch[batch.length - 1]);
    after = [last.text('table_id'), last.int('game_no')];
  }
  // Every finished match, scored as the match itself is (R3.2, R3.6).
  const tables = (await db.query(`SELECT t.* FROM game_tables t WHERE t.club_id = $1 AND t.kind = 'match' AND t.status = 'finished' ORDER BY t.id`, [clubId])).map((r) =>
    tableOf('match')(r),
  );
  for (let i = 0; i < tables.length; i += BATCH) {
    const some = tables.slice(i, i + BATCH);
    const games = new Map<string, FinishedGameRow[]>();
    for (const r of await db.query(
      // R8.3: a draw scores nothing, so it is not in a match's history (as TablesRepository.finishedGames reads it).
      `SELECT table_id, game_no, winner_side, points FROM games
        WHERE club_id = $1 AND table_id = ANY($2::uuid[]) AND status = 'finished' AND winner_side IS NOT NULL ORDER BY table_id, game_no`,
      [clubId, some.map((t) => t.id)],
    )) {
      const c = cols(r);
      const list = games.get(c.text('table_id')) ?? [];
      list.push({ gameNo: c.int('game_no'), winnerSide: sideOf(c, 'winner_side'), points: c.int('points') });
      games.set(c.text('table_id'), list);
    }
    for (const t of some) {
      const winnerSide = scoreOf(t.setup, games.get(t.id) ?? [], t.state).winnerSide;
      rows.push(...matchStatsRows({ sides: lowerSides(t.setup.sides), winnerSide }, t.setup.variant ?? 'backgammon'));
    }
  }
  return sumStatsRows(rows).filter((r) => STATS_COUNTERS.some((k) => r[k] !== 0));
}

/** The club's stored player_stats, rows with every counter 0 left out (a game and its void leave one). */
export async function storedPlayerStats(db: SqlClient, clubId: string): Promise<StatsRow[]> {
  const rows = (await db.query(`SELECT * FROM player_stats WHERE club_id = $1`, [clubId])).map(decodeStatsRow);
  return sumStatsRows(rows).filter((r) => STATS_COUNTERS.some((k) => r[k] !== 0));
}

/** SQL for each read model kept by SQL alone: what it should hold (`expected`), and where it is. */
interface SqlModel {
  name: string;
  /** SELECT of the model's rows for club $1, as they should be. */
  expected: string;
  /** SELECT of the same columns as stored. */
  stored: string;
  /** Replaces the stored rows of club $1 with the expected ones. */
  write: string[];
}

const SESSION_TOTALS_EXPECTED = `
  SELECT club_id, session_id, party, sum(net)::bigint AS net_minor, sum(games)::int AS games FROM (
    SELECT l.club_id, l.session_id, p.party, p.amount AS net, 0 AS games
      FROM ledger_entries l
     CROSS JOIN LATERAL (VALUES (l.to_party, l.amount_minor), (l.from_party, -l.amount_minor)) AS p (party, amount)
     WHERE l.club_id = $1
    UNION ALL
    SELECT g.club_id, t.session_id, p::text, 0, 1
      FROM games g JOIN game_tables t ON t.club_id = g.club_id AND t.id = g.table_id
     CROSS JOIN unnest(g.players) AS p
     WHERE g.club_id = $1 AND g.status = 'finished' AND t.session_id IS NOT NULL
  ) x GROUP BY club_id, session_id, party`;

/**
 * Each party's money per currency as the ledger, the session totals' parties and the
 * payments say (gross: R6.2, a void taking back its game's).
 */
const PARTY_VOLUMES_EXPECTED = `
  SELECT club_id, party, currency, sum(gross)::bigint AS gross_minor, sum(net)::bigint AS net_minor, sum(paid)::bigint AS paid_minor,
         sum(received)::bigint AS received_minor, bool_or(has_totals) AS has_totals FROM (
    SELECT l.club_id, p.party, s.currency, CASE WHEN l.kind = 'void' THEN -l.amount_minor ELSE l.amount_minor END AS gross,
           0::bigint AS net, 0::bigint AS paid, 0::bigint AS received, false AS has_totals
      FROM ledger_entries l JOIN sessions s ON s.club_id = l.club_id AND s.id = l.session_id
     CROSS JOIN LATERAL (VALUES (l.from_party), (l.to_party)) AS p (party)
     WHERE l.club_id = $1
    UNION ALL
    SELECT st.club_id, st.party, s.currency, 0, st.net_minor, 0, 0, true
      FROM session_totals st JOIN sessions s ON s.club_id = st.club_id AND s.id = st.session_id
     WHERE st.club_id = $1
    UNION ALL
    SELECT y.club_id, p.party, s.currency, y.amount_minor, 0, p.paid, p.received, false
      FROM payments y JOIN sessions s ON s.club_id = y.club_id AND s.id = y.session_id
     CROSS JOIN LATERAL (VALUES (y.from_party, y.amount_minor, 0::bigint), (y.to_party, 0::bigint, y.amount_minor)) AS p (party, paid, received)
     WHERE y.club_id = $1
  ) x GROUP BY club_id, party, currency`;

/** Each party's net at each table of club $1, from the table's ledger entries (voids included; a tournament's have no table). */
const TABLE_NETS_EXPECTED = `
  SELECT l.club_id, l.table_id, p.party, sum(p.amount)::bigint AS net_minor
    FROM ledger_entries l
   CROSS JOIN LATERAL (VALUES (l.to_party, l.amount_minor), (l.from_party, -l.amount_minor)) AS p (party, amount)
   WHERE l.club_id = $1 AND l.table_id IS NOT NULL
   GROUP BY l.club_id, l.table_id, p.party`;

/**
 * The sessions each party of club $1 is on, dated as the session is: a session total
 * (whatever its figures), a payment it made or received, or a seat at one of its tables.
 */
const PARTY_SESSIONS_EXPECTED = `
  SELECT x.club_id, x.session_id, x.party, coalesce(s.starts_at, s.created_at) AS dated
    FROM (SELECT club_id, session_id, party FROM session_totals WHERE club_id = $1
          UNION SELECT club_id, session_id, from_party FROM payments WHERE club_id = $1
          UNION SELECT club_id, session_id, to_party FROM payments WHERE club_id = $1
          UNION SELECT t.club_id, t.session_id, tp.player_id::text FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
                 WHERE tp.club_id = $1 AND t.session_id IS NOT NULL) x
    JOIN sessions s ON s.club_id = x.club_id AND s.id = x.session_id`;

/** Finished backgammon matches (R7.1, R8.9) that rated the player, per player of club $1 (players without one: 0). */
const RATED_MATCHES_EXPECTED = `
  SELECT p.club_id, p.id, (SELECT count(*) FROM table_players tp JOIN game_tables t ON t.club_id = tp.club_id AND t.id = tp.table_id
                            WHERE tp.club_id = p.club_id AND tp.player_id = p.id AND t.kind = 'match' AND t.status = 'finished'
                              AND COALESCE(t.setup->>'variant', 'backgammon') = 'backgammon'
                              -- R3.9: a forfeit with no finished game was rated for nobody (its ratings kept empty)
                              AND (NOT (t.state ? 'ratings') OR t.state->'ratings' @> jsonb_build_array(jsonb_build_object('playerId', p.id::text))))::int AS rated_matches
    FROM players p WHERE p.club_id = $1`;

const SQL_MODELS: SqlModel[] = [
  {
    name: 'session_totals',
    expected: SESSION_TOTALS_EXPECTED,
    stored: `SELECT club_id, session_id, party, net_minor, games FROM session_totals WHERE club_id = $1`,
    // last_at is kept: it dates the latest change, which the history does not hold for games.
    write: [
      `UPDATE session_totals st SET net_minor = coalesce(y.net_minor, 0), games = coalesce(y.games, 0)
         FROM (SELECT o.session_id, o.party, x.net_minor, x.games FROM session_totals o
                 LEFT JOIN (${SESSION_TOTALS_EXPECTED}) x ON x.session_id = o.session_id AND x.party = o.party
                WHERE o.club_id = $1) y
        WHERE st.club_id = $1 AND st.session_id = y.session_id AND st.party = y.party`,
      `INSERT INTO session_totals (club_id, session_id, party, net_minor, games, last_at)
       SELECT x.club_id, x.session_id, x.party, x.net_minor, x.games, now() FROM (${SESSION_TOTALS_EXPECTED}) x
       ON CONFLICT (club_id, session_id, party) DO NOTHING`,
    ],
  },
  {
    name: 'party_volumes',
    expected: PARTY_VOLUMES_EXPECTED,
    stored: `SELECT club_id, party, currency, gross_minor, net_minor, paid_minor, received_minor, has_totals FROM party_volumes WHERE club_id = $1`,
    write: [
      `UPDATE party_volumes v SET gross_minor = 0, net_minor = 0, paid_minor = 0, received_minor = 0 WHERE v.club_id = $1`,
      `INSERT INTO party_volumes (club_id, party, currency, gross_minor, net_minor, paid_minor, received_minor, has_totals)
       SELECT club_id, party, currency, least(gross_minor, 9007199254740991), net_minor, paid_minor, received_minor, has_totals FROM (${PARTY_VOLUMES_EXPECTED}) x
       ON CONFLICT (club_id, party, currency) DO UPDATE SET gross_minor = excluded.gross_minor, net_minor = excluded.net_minor,
         paid_minor = excluded.paid_minor, received_minor = excluded.received_minor, has_totals = excluded.has_totals`,
    ],
  },
  {
    name: 'table_nets',
    expected: TABLE_NETS_EXPECTED,
    stored: `SELECT club_id, table_id, party, net_minor FROM table_nets WHERE club_id = $1`,
    write: [
      `DELETE FROM table_nets WHERE club_id = $1`,
      `INSERT INTO table_nets (club_id, table_id, party, net_minor) SELECT club_id, table_id, party, net_minor FROM (${TABLE_NETS_EXPECTED}) x`,
    ],
  },
  {
    // After session_totals, whose rebuilt rows it lists.
    name: 'party_sessions',
    expected: PARTY_SESSIONS_EXPECTED,
    stored: `SELECT club_id, session_id, party, dated FROM party_sessions WHERE club_id = $1`,
    write: [
      `DELETE FROM party_sessions WHERE club_id = $1`,
      `INSERT INTO party_sessions (club_id, session_id, party, dated) SELECT club_id, session_id, party, dated FROM (${PARTY_SESSIONS_EXPECTED}) x`,
    ],
  },
  {
    name: 'players.rated_matches',
    expected: RATED_MATCHES_EXPECTED,
    stored: `SELECT club_id, id, rated_matches FROM players WHERE club_id = $1`,
    write: [`UPDATE players p SET rated_matches = x.rated_matches FROM (${RATED_MATCHES_EXPECTED}) x WHERE p.club_id = $1 AND p.id = x.id`],
  },
];

/** A column's value as comparable text (bigint and numeric columns come as strings, int as numbers). */
const scalarText = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
};

/** Rows as comparable text, sorted. Zero rows of the SQL models left out (a game and its void leave one). */
function canonical(rows: Row[]): string[] {
  return rows
    .map((r) =>
      JSON.stringify(
        Object.keys(r)
          .sort()
          .map((k) => [k, scalarText(r[k])]),
      ),
    )
    .sort();
}

/** The differences between two lists of rows: what only one of them has. */
function differences(name: string, expected: string[], stored: string[], limit = 20): string[] {
  const e = new Set(expected);
  const s = new Set(stored);
  const out: string[] = [];
  for (const x of expected) if (!s.has(x)) out.push(`${name}: expected ${x}`);
  for (const x of stored) if (!e.has(x)) out.push(`${name}: stored   ${x}`);
  return out.slice(0, limit);
}

/**
 * Zero rows: a party whose session total or volume is back to 0 (a game and its void) still
 * has its row; the history has none. A row with no counter (party_sessions) is never one.
 */
const COUNTER = /(_minor|games|rated_matches)$/;
const isZero = (r: Row) => Object.keys(r).some((k) => COUNTER.test(k)) && Object.entries(r).every(([k, v]) => !COUNTER.test(k) || Number(v) === 0) && r.has_totals !== true;

/** player_stats of one club rebuilt (`write`) or compared (`check`); the differences found (write: before the rewrite). */
export async function rebuildPlayerStats(db: SqlClient, clubId: string, mode: 'write' | 'check'): Promise<string[]> {
  const expected = await playerStatsFromHistory(db, clubId);
  const toRows = (rows: StatsRow[]): Row[] => rows.map((r) => ({ ...r }));
  const found = mode === 'check' ? differences('player_stats', canonical(toRows(expected)), canonical(toRows(await storedPlayerStats(db, clubId)))) : [];
  if (mode === 'write') {
    await db.query(`DELETE FROM player_stats WHERE club_id = $1`, [clubId]);
    for (let i = 0; i < expected.length; i += 500) {
      const { text, values } = playerStatsUpsert(clubId, expected.slice(i, i + 500));
      await db.query(text, values);
    }
  }
  return found;
}

/** Every read model of one club rebuilt (`write`) or compared with a rebuild (`check`): the differences found. */
export async function rebuildReadModels(db: SqlClient, clubId: string, mode: 'write' | 'check'): Promise<string[]> {
  const found: string[] = [];
  for (const m of SQL_MODELS) {
    if (mode === 'check') {
      const expected = (await db.query(m.expected, [clubId])).filter((r) => !isZero(r));
      const stored = (await db.query(m.stored, [clubId])).filter((r) => !isZero(r));
      found.push(...differences(m.name, canonical(expected), canonical(stored)));
    } else {
      for (const sql of m.write) await db.query(sql, [clubId]);
    }
  }
  found.push(...(await rebuildPlayerStats(db, clubId, mode)));
  // A rebuilt page may show other figures: every player's version goes up, so no client keeps a page the rebuild changed (a 304 for its old ETag).
  if (mode === 'write') await db.query(`UPDATE players SET version = version + 1, updated_at = now() WHERE club_id = $1`, [clubId]);
  return found;
}

/** A client that runs queries on one connection (a pg.Client): what a rebuild in transactions needs. */
export interface PgLikeClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

/** The models' tables, locked against the commands' upserts while a rebuild writes them. */
const LOCK_MODELS = 'LOCK TABLE player_stats, party_volumes, session_totals, table_nets, party_sessions IN SHARE ROW EXCLUSIVE MODE';

/**
 * `work` in one REPEATABLE READ transaction, committed when it writes (`write`), rolled
 * back otherwise. A writing one locks the models' tables first, before its snapshot is
 * taken (at its first query after the lock): a command that already holds its table waits
 * at its upsert, then adds to the rebuilt rows, its game being outside the snapshot; every
 * command that wrote before is inside it.
 */
async function rebuildTransaction<T>(client: PgLikeClient, write: boolean, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  try {
    if (write) await client.query(LOCK_MODELS);
    const out = await work();
    await client.query(write ? 'COMMIT' : 'ROLLBACK');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** Rebuilds one club's read models (`write`) or compares them (`check`) in one transaction (rebuildTransaction): the differences found. */
export function rebuildClub(client: PgLikeClient, clubId: string, mode: 'write' | 'check'): Promise<string[]> {
  return rebuildTransaction(client, mode === 'write', () => rebuildReadModels(pgSqlClient(client), clubId, mode));
}

/**
 * The clubs a migration queued in read_model_rebuilds (new read models to fill from the
 * history), rebuilt one by one, each dequeued in its transaction; run at start, before
 * serving. Several instances starting at once share the queue (SKIP LOCKED). The number
 * of clubs rebuilt.
 */
export async function rebuildQueued(client: PgLikeClient): Promise<number> {
  // Nothing queued (every start but the first after such a migration): no lock taken.
  if ((await client.query('SELECT 1 FROM read_model_rebuilds LIMIT 1')).rows.length === 0) return 0;
  let done = 0;
  for (;;) {
    const rebuilt = await rebuildTransaction(client, true, async () => {
      const next = (await client.query(`SELECT club_id FROM read_model_rebuilds ORDER BY club_id LIMIT 1 FOR UPDATE SKIP LOCKED`)).rows[0];
      if (!next) return false;
      const clubId = String(next.club_id);
      await rebuildReadModels(pgSqlClient(client), clubId, 'write');
      await client.query(`DELETE FROM read_model_rebuilds WHERE club_id = $1`, [clubId]);
      return true;
    });
    if (!rebuilt) return done;
    done++;
  }
}
