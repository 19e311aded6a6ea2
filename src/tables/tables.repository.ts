import { Injectable } from '@nestjs/common';
import { Columns, cols, Decoder, Row, RowDecodeError } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { GAME_VARIANTS, type GameVariant } from '../domain/variants';
import { minorFromDb } from '../ledger';
import { decodeSession, SessionEntity, type SessionTables } from '../sessions';
import { decodeAnyGame, decodeGame, RawGame, StoredGame, StoredTable, TableKind, TableRowOf } from './stored-state';
import type { GameSummaryDto } from './tables.dto';
import type { TableView } from './table-views';
import { tableOf } from './table-rows';

const GAME_STATUSES: readonly StoredGame['status'][] = ['in-progress', 'finished', 'voided', 'abandoned'];

/** The columns of a `games` row; its setup and actions still to be checked. */
const gameColumns = (r: Row): RawGame => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    tableId: c.text('table_id'),
    gameNo: c.int('game_no'),
    status: c.oneOf('status', GAME_STATUSES),
    automaticDoubles: c.int('automatic_doubles'),
    setup: c.json('setup'),
    actions: c.json('actions'),
    result: c.objectOrNull('result'),
    points: c.intOrNull('points'),
    winnerSide: c.intOrNull('winner_side'),
    startedAt: c.date('started_at'),
    endedAt: c.dateOrNull('ended_at'),
    voidedAt: c.dateOrNull('voided_at'),
    voidReason: c.textOrNull('void_reason'),
    voidedBy: c.textOrNull('voided_by'),
    version: c.int('version'),
    players: c.textArray('players'),
  };
};

/** A game read without its table's kind: checked as the kind its setup names. */
const decodeStoredGame: Decoder<StoredGame> = (r) => decodeAnyGame(gameColumns(r));

/**
 * A game as its table lists it, from the columns of its row and the two fields of its
 * setup a summary shows: what gameSummary (table-views.ts) answers for the whole row.
 */
const decodeSummary: Decoder<GameSummaryDto> = (r) => {
  const c = cols(r);
  const variant = c.textOrNull('variant') ?? 'backgammon';
  if (!(GAME_VARIANTS as readonly string[]).includes(variant)) throw new RowDecodeError('variant', GAME_VARIANTS.join('|'), variant);
  const winner = c.intOrNull('winner_side');
  if (winner !== null && winner !== 0 && winner !== 1) throw new RowDecodeError('winner_side', '0|1', winner);
  return {
    gameNo: c.int('game_no'),
    variant: variant as GameVariant,
    status: c.oneOf('status', GAME_STATUSES),
    crawford: c.textOrNull('doubling') === 'crawford',
    result: c.objectOrNull('result') as GameSummaryDto['result'],
    points: c.intOrNull('points'),
    winnerSide: winner,
    startedAt: c.date('started_at').toISOString(),
    endedAt: c.dateOrNull('ended_at')?.toISOString() ?? null,
  };
};

/** A side of a two-sided game: 0 or 1. */
function side(c: Columns, name: string): 0 | 1 {
  const v = c.int(name);
  if (v !== 0 && v !== 1) throw new RowDecodeError(name, '0|1', v);
  return v;
}

/** What lockForCommand's one row holds: the table, its session and the game, each as row_to_json. */
interface LockedRows {
  t: Row;
  s: Row | null;
  g: Row | null;
}

const decodeLockedRows: Decoder<LockedRows> = (r) => {
  const c = cols(r);
  const t = c.nested('t', (x) => x);
  if (t === null) throw new RowDecodeError('t', 'row', null);
  return { t, s: c.nested('s', (x) => x), g: c.nested('g', (x) => x) };
};

export interface TableFilter {
  sessionId?: string;
  playerId?: string;
  status?: string;
}

/** A table with what its answer shows besides the row (findView, listView); `current`: a chouette's game in progress. */
export interface TableWithView<K extends TableKind> {
  t: TableRowOf<K>;
  view: TableView;
  current: StoredGame | null;
}

/**
 * The select-list of what a table's answer reads besides its row, for the table whose
 * keys are the SQL expressions `club` and `id` (parameters, or a row's columns: then the
 * subqueries run once per row, each by its table's keys): `games` (the summaries, in
 * order), `nets` (money games and chouettes: the table's running nets, table_nets, a row
 * per party whatever the table's history) and `players` (chouettes).
 */
function viewColumns(kind: TableKind, club: string, id: string, withGames = true): string {
  const games = !withGames
    ? `'[]'::json`
    : `(SELECT coalesce(json_agg(json_build_object('game_no', g.game_no, 'status', g.status, 'variant', g.setup->'variant', 'doubling', g.setup->'doubling',
                   'result', g.result, 'points', g.points, 'winner_side', g.winner_side, 'started_at', g.started_at, 'ended_at', g.ended_at) ORDER BY g.game_no), '[]'::json)
              FROM games g WHERE g.club_id = ${club} AND g.table_id = ${id})`;
  const nets =
    kind === 'match' ? `'{}'::json` : `(SELECT coalesce(json_object_agg(n.party, n.net_minor::text), '{}'::json) FROM table_nets n WHERE n.club_id = ${club} AND n.table_id = ${id})`;
  const players =
    kind === 'chouette'
      ? `(SELECT coalesce(json_agg(tp.player_id ORDER BY tp.player_id), '[]'::json) FROM table_players tp WHERE tp.club_id = ${club} AND tp.table_id = ${id})`
      : `'[]'::json`;
  return `${games} AS games, ${nets} AS nets, ${players} AS players`;
}

/** A chouette's game in progress as row_to_json (its seats are shown), for the table `t` of the statement. */
function currentColumn(kind: TableKind): string {
  return kind === 'chouette' ? `(SELECT row_to_json(g) FROM games g WHERE g.club_id = t.club_id AND g.table_id = t.id AND g.game_no = t.current_game_no)` : `NULL::json`;
}

/**
 * What a table's answer reads besides its row, for the row `t` of the statement, each
 * by its keys (primary keys and table_id indexes, so once per row of a page): viewColumns,
 * its session's currency and, for a chouette, its game in progress.
 */
function answerColumns(kind: TableKind): string {
  return `${viewColumns(kind, 't.club_id', 't.id')},
    (SELECT s.currency FROM sessions s WHERE s.club_id = t.club_id AND s.id = t.session_id) AS session_currency,
    ${currentColumn(kind)} AS current_game`;
}

/** The columns of viewColumns, checked. */
const decodeViewColumns: Decoder<{ games: GameSummaryDto[]; nets: Map<string, number>; players: string[] }> = (r) => {
  const c = cols(r);
  const games = c.json('games');
  const byParty = c.json('nets');
  const who = c.json('players');
  if (!Array.isArray(games)) throw new RowDecodeError('games', 'json array', games);
  if (typeof byParty !== 'object' || byParty === null || Array.isArray(byParty)) throw new RowDecodeError('nets', 'json object', byParty);
  if (!Array.isArray(who) || !who.every((p): p is string => typeof p === 'string')) throw new RowDecodeError('players', 'json array of text', who);
  return {
    games: games.map((g) => {
      if (typeof g !== 'object' || g === null || Array.isArray(g)) throw new RowDecodeError('games', 'rows', g);
      return decodeSummary(g as Row);
    }),
    nets: new Map(Object.entries(byParty as Record<string, unknown>).map(([party, net]) => [party, minorFromDb(net)])),
    players: who,
  };
};

/** A row of findView or listView: the table's columns and answerColumns. */
const withViewOf =
  <K extends TableKind>(kind: K): Decoder<TableWithView<K>> =>
  (r) => {
    const c = cols(r);
    const current = c.nested('current_game', decodeStoredGame);
    return { t: tableOf(kind)(r), view: { ...decodeViewColumns(r), currency: c.textOrNull('session_currency') }, current };
  };

/**
 * The status of each table row a command locked (lock, lockForCommand), as read under the
 * lock: the command changes the row object in place, and save writes the players' copy of
 * the status only when it differs.
 */
const locked = new WeakMap<object, StoredTable['status']>();

function lockedAs<T extends { status: StoredTable['status'] }>(t: T | null): T | null {
  if (t) locked.set(t, t.status);
  return t;
}

/** Below every table id: the cursor of a first page, so that a shape has one SQL text. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The page of a list, by the index that bounds it to the page (O(page) under any filter):
 * one SQL text per shape of the filter. With a session: game_tables_session_ix (the
 * session's tables). Otherwise with a player: table_players_player_kind_ix, and without a
 * status the first `limit` of each status, merged. Otherwise game_tables_kind_status_ix
 * with a status, game_tables_kind_ix without.
 */
function pageSql(clubId: string, kind: TableKind, f: TableFilter, after: string | null, limit: number): { text: string; values: unknown[] } {
  const values: unknown[] = [clubId, kind, after ?? NO_ID, limit];
  if (f.sessionId) {
    let where = `club_id = $1 AND session_id = $${values.push(f.sessionId)} AND kind = $2`;
    if (f.status) where += ` AND status = $${values.push(f.status)}`;
    if (f.playerId) where += ` AND EXISTS (SELECT 1 FROM table_players tp WHERE tp.club_id = $1 AND tp.table_id = game_tables.id AND tp.player_id = $${values.push(f.playerId)})`;
    return { text: `SELECT * FROM game_tables WHERE ${where} AND id > $3 ORDER BY id LIMIT $4`, values };
  }
  if (f.playerId) {
    const player = `$${values.push(f.playerId)}`;
    const ids = (status: string) =>
      `SELECT table_id FROM table_players WHERE club_id = $1 AND player_id = ${player} AND kind = $2 AND status = ${status} AND table_id > $3 ORDER BY table_id LIMIT $4`;
    const page = f.status ? ids(`$${values.push(f.status)}`) : `SELECT table_id FROM ((${ids(`'in-progress'`)}) UNION ALL (${ids(`'finished'`)})) u ORDER BY table_id LIMIT $4`;
    return { text: `SELECT t.* FROM (${page}) p JOIN game_tables t ON t.club_id = $1 AND t.id = p.table_id AND t.kind = $2`, values };
  }
  if (f.status) return { text: `SELECT * FROM game_tables WHERE club_id = $1 AND kind = $2 AND status = $${values.push(f.status)} AND id > $3 ORDER BY id LIMIT $4`, values };
  return { text: `SELECT * FROM game_tables WHERE club_id = $1 AND kind = $2 AND id > $3 ORDER BY id LIMIT $4`, values };
}

/** SQL of tables, their players and their games. Every statement is scoped by club_id. */
@Injectable()
export class TablesRepository implements SessionTables {
  /** A new table and its players, written now (a command reads them back for its answer). */
  async insert(tx: Tx, t: StoredTable, playerIds: string[]): Promise<void> {
    await tx.write({
      text: `INSERT INTO game_tables (club_id, id, kind, session_id, status, setup, state, stake_minor, next_game_no, current_game_no, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
      values: [t.clubId, t.id, t.kind, t.sessionId, t.status, t.setup, t.state, t.stakeMinor, t.nextGameNo, t.currentGameNo, t.version, t.createdAt],
    });
    await tx.write({
      text: `INSERT INTO table_players (club_id, table_id, player_id, kind, status) SELECT $1::uuid, $2::uuid, unnest($3::uuid[]), $4, $5 ON CONFLICT DO NOTHING`,
      values: [t.clubId, t.id, playerIds, t.kind, t.status],
    });
  }

  /** A new table written with the command's COMMIT (a tournament's next pairing, R9.5, decided after the command's reads). */
  insertDeferred(tx: Tx, t: StoredTable, playerIds: string[]): void {
    tx.defer({
      what: 'new table',
      text: `INSERT INTO game_tables (club_id, id, kind, session_id, status, setup, state, stake_minor, next_game_no, current_game_no, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
      values: [t.clubId, t.id, t.kind, t.sessionId, t.status, t.setup, t.state, t.stakeMinor, t.nextGameNo, t.currentGameNo, t.version, t.createdAt],
      guard: 1,
    });
    tx.defer({
      what: 'new table players',
      text: `INSERT INTO table_players (club_id, table_id, player_id, kind, status) SELECT $1::uuid, $2::uuid, unnest($3::uuid[]), $4, $5 ON CONFLICT DO NOTHING`,
      values: [t.clubId, t.id, playerIds, t.kind, t.status],
    });
  }

  /**
   * R9.10: a match of a tournament taken back before any game of it was started, removed
   * with the command's COMMIT (the guard: it still has no game, or the command fails whole).
   */
  removeUnplayed(tx: Tx, clubId: string, id: string): void {
    tx.defer({
      what: 'table players removed',
      text: `DELETE FROM table_players WHERE club_id = $1 AND table_id = $2`,
      values: [clubId, id],
    });
    tx.defer({
      what: 'unplayed match removed',
      text: `DELETE FROM game_tables t WHERE t.club_id = $1 AND t.id = $2 AND t.kind = 'match' AND NOT EXISTS (SELECT 1 FROM games g WHERE g.club_id = t.club_id AND g.table_id = t.id)`,
      values: [clubId, id],
      guard: 1,
    });
  }

  /** How many games (of any status) each of these tables has had started. */
  async startedGames(tx: Reads, clubId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const n = await tx.maybeOne(`SELECT count(*)::int AS n FROM games WHERE club_id = $1 AND table_id = ANY($2::uuid[])`, [clubId, ids], (r) => cols(r).int('n'));
    return n ?? 0;
  }

  /** A player joins the table (locked by the command, as read: its kind and status copied), written now. */
  async addPlayer(tx: Tx, t: StoredTable, playerId: string): Promise<void> {
    await tx.write({
      text: `INSERT INTO table_players (club_id, table_id, player_id, kind, status) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      values: [t.clubId, t.id, playerId, t.kind, locked.get(t) ?? t.status],
    });
  }

  /** Locks the table for the command: every change to a table or its games goes through here. */
  async lock<K extends TableKind>(tx: Tx, clubId: string, kind: K, id: string): Promise<TableRowOf<K> | null> {
    return lockedAs(await tx.maybeOne(`SELECT * FROM game_tables WHERE club_id = $1 AND id = $2 AND kind = $3 FOR UPDATE`, [clubId, id, kind], tableOf(kind)));
  }

  /**
   * One round trip for what a game command needs: the table locked FOR UPDATE, its
   * session share-locked (so a close waits for the command, R6.7), and the game. Locked
   * rows come back in their latest committed version; a game inserted by a command that
   * committed while this one waited for the lock is not in this statement's snapshot, so
   * a missing game is looked up again.
   */
  async lockForCommand<K extends TableKind>(
    tx: Tx,
    clubId: string,
    kind: K,
    id: string,
    gameNo: number | null,
  ): Promise<{ t: TableRowOf<K>; session: SessionEntity | null; game: StoredGame<K> | null } | null> {
    const found = await tx.maybeOne(
      // Every lookup by its whole primary key (no join), so that a plan cached while a
      // table was small never turns into a sequential scan. s and g are evaluated only
      // for a table found, after its lock.
      `WITH t AS (SELECT * FROM game_tables WHERE club_id = $1 AND id = $2 AND kind = $3 FOR UPDATE),
            s AS (SELECT * FROM sessions WHERE club_id = $1 AND id = (SELECT session_id FROM t) FOR SHARE),
            g AS (SELECT * FROM games WHERE club_id = $1 AND table_id = $2 AND game_no = $4 FOR UPDATE)
       SELECT row_to_json(t) AS t, (SELECT row_to_json(s) FROM s) AS s, (SELECT row_to_json(g) FROM g) AS g FROM t`,
      [clubId, id, kind, gameNo ?? 0],
      decodeLockedRows,
      { prepare: true },
    );
    if (!found) return null;
    const t = tableOf(kind)(found.t);
    lockedAs(t);
    const session = found.s ? decodeSession(found.s) : null;
    let game = found.g ? decodeStoredGame(found.g) : null;
    if (gameNo !== null && !game) game = await this.game(tx, clubId, id, gameNo);
    return { t, session, game: game && decodeGame(game, kind) };
  }

  /**
   * What a table's answer reads besides its row and its session, in one statement: its
   * games in order as the table lists them (the columns a summary shows, not their
   * setup and action log), each party's net at the table (received − paid, voids
   * included: the running nets the ledger's postings keep, table_nets; money games and
   * chouettes) and everyone who sat there (chouettes). A command reads it before its
   * writes, so its nets are those before the command's own postings (netsWith adds them).
   * `withGames` false: no games (`[]`), for an answer that does not show them.
   */
  async view(tx: Reads, t: StoredTable, withGames = true): Promise<{ games: GameSummaryDto[]; nets: Map<string, number>; players: string[] }> {
    const found = await tx.maybeOne(`SELECT ${viewColumns(t.kind, '$1', '$2', withGames)}`, [t.clubId, t.id], decodeViewColumns, { prepare: true });
    if (!found) throw new RowDecodeError('view', 'row', null);
    return found;
  }

  /**
   * A table as its GET answers it, in one statement: the row, what `view` reads, its
   * session's currency and, for a chouette, its game in progress (whose seats it shows).
   */
  async findView<K extends TableKind>(tx: Reads, clubId: string, kind: K, id: string): Promise<TableWithView<K> | null> {
    return tx.maybeOne(
      `SELECT t.*, ${answerColumns(kind)}
       FROM game_tables t
       WHERE t.club_id = $1 AND t.id = $2 AND t.kind = $3`,
      [clubId, id, kind],
      withViewOf(kind),
      { prepare: true },
    );
  }

  /**
   * A page of a kind's tables (ids after `after`, `limit` + 1 of them) with everything
   * their answers show, in one statement: the page (see pageSql), then per listed table
   * what findView reads, each by its table's keys.
   */
  listView<K extends TableKind>(tx: Reads, clubId: string, kind: K, f: TableFilter, after: string | null, limit: number): Promise<Array<TableWithView<K>>> {
    const { text, values } = pageSql(clubId, kind, f, after, limit + 1);
    return tx.rows(
      `SELECT t.*, ${answerColumns(kind)}
       FROM (${text}) t
       ORDER BY t.id`,
      values,
      withViewOf(kind),
    );
  }

  find<K extends TableKind>(tx: Reads, clubId: string, kind: K, id: string): Promise<TableRowOf<K> | null> {
    return tx.maybeOne(`SELECT * FROM game_tables WHERE club_id = $1 AND id = $2 AND kind = $3`, [clubId, id, kind], tableOf(kind));
  }

  /** A session of the club, or null (a table's session, read without a lock). */
  session(tx: Reads, clubId: string, id: string): Promise<SessionEntity | null> {
    return tx.maybeOne(`SELECT * FROM sessions WHERE club_id = $1 AND id = $2`, [clubId, id], decodeSession);
  }

  /**
   * Saves the table's mutable part and bumps its version (the row is locked). The update
   * is deferred to the command's COMMIT, guarded all the same; the table as saved is
   * returned (its version one higher).
   */
  save<T extends StoredTable>(tx: Tx, t: T): T {
    // The row is locked by this command, so the version it read is the version there.
    const updatedAt = new Date();
    tx.defer({
      what: 'table update (changed under its lock)',
      text: `UPDATE game_tables SET status = $3, state = $4, next_game_no = $5, current_game_no = $6, version = version + 1, updated_at = $8
        WHERE club_id = $1 AND id = $2 AND version = $7`,
      values: [t.clubId, t.id, t.status, t.state, t.nextGameNo, t.currentGameNo, t.version, updatedAt],
      guard: 1,
    });
    // The players' copy of the status (table_players_player_kind_ix), when the command
    // changed it or when the status read under the lock is not known here.
    const atLock = locked.get(t);
    if (atLock !== t.status) {
      tx.defer({
        what: 'table players status',
        text: `UPDATE table_players SET status = $3 WHERE club_id = $1 AND table_id = $2 AND status <> $3`,
        values: [t.clubId, t.id, t.status],
      });
    }
    return { ...t, version: t.version + 1, updatedAt };
  }

  /** A new game, written with the command's COMMIT. */
  insertGame(tx: Tx, g: StoredGame): void {
    tx.defer({
      what: 'game insert',
      guard: 1,
      text: `INSERT INTO games (club_id, table_id, game_no, status, automatic_doubles, setup, actions, result, points, winner_side, started_at, ended_at, version, players)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      values: [
        g.clubId,
        g.tableId,
        g.gameNo,
        g.status,
        g.automaticDoubles,
        g.setup,
        JSON.stringify(g.actions),
        g.result,
        g.points,
        g.winnerSide,
        g.startedAt,
        g.endedAt,
        g.version,
        g.players,
      ],
    });
  }

  /** Saves the game's mutable part with the command's COMMIT (guarded by its version); the game as saved is returned. */
  saveGame<G extends StoredGame>(tx: Tx, g: G): G {
    tx.defer({
      what: 'game update (changed under its table lock)',
      text: `UPDATE games SET status = $4, actions = $5, result = $6, points = $7, winner_side = $8, ended_at = $9,
              voided_at = $10, void_reason = $11, voided_by = $12, version = version + 1
        WHERE club_id = $1 AND table_id = $2 AND game_no = $3 AND version = $13`,
      values: [g.clubId, g.tableId, g.gameNo, g.status, JSON.stringify(g.actions), g.result, g.points, g.winnerSide, g.endedAt, g.voidedAt, g.voidReason, g.voidedBy, g.version],
      guard: 1,
    });
    return { ...g, version: g.version + 1 };
  }

  game(tx: Reads, clubId: string, tableId: string, gameNo: number): Promise<StoredGame | null> {
    return tx.maybeOne(`SELECT * FROM games WHERE club_id = $1 AND table_id = $2 AND game_no = $3`, [clubId, tableId, gameNo], decodeStoredGame);
  }

  games(tx: Reads, clubId: string, tableId: string, afterGameNo = 0, limit = 100000): Promise<StoredGame[]> {
    return tx.rows(`SELECT * FROM games WHERE club_id = $1 AND table_id = $2 AND game_no > $3 ORDER BY game_no LIMIT $4`, [clubId, tableId, afterGameNo, limit], decodeStoredGame);
  }

  /**
   * Finished (not voided, not abandoned) games that have a winner, in order: a match's
   * history, a money table's points (a Plakoto draw scores nothing, R8.3).
   */
  finishedGames(tx: Reads, clubId: string, tableId: string): Promise<Array<{ gameNo: number; winnerSide: 0 | 1; points: number }>> {
    return tx.rows(
      `SELECT game_no, winner_side, points FROM games WHERE club_id = $1 AND table_id = $2 AND status = 'finished' AND winner_side IS NOT NULL ORDER BY game_no`,
      [clubId, tableId],
      (r) => {
        const c = cols(r);
        return { gameNo: c.int('game_no'), winnerSide: side(c, 'winner_side'), points: c.int('points') };
      },
    );
  }

  /** R8.5: how many games of the table are finished, draws included (voided and abandoned ones not). */
  async finishedGameCount(tx: Reads, clubId: string, tableId: string): Promise<number> {
    const n = await tx.maybeOne(`SELECT count(*)::int AS n FROM games WHERE club_id = $1 AND table_id = $2 AND status = 'finished'`, [clubId, tableId], (r) => cols(r).int('n'));
    return n ?? 0;
  }

  /** R6.3: the most recent finished game (abandoned and voided games are skipped). */
  async latestFinishedGameNo(tx: Reads, clubId: string, tableId: string): Promise<number | null> {
    const n = await tx.maybeOne(`SELECT max(game_no) AS n FROM games WHERE club_id = $1 AND table_id = $2 AND status = 'finished'`, [clubId, tableId], (r) => cols(r).intOrNull('n'));
    return n ?? null;
  }

  /** R6.7: unfinished games of the session's tables. */
  gamesInProgress(tx: Reads, clubId: string, sessionId: string): Promise<Array<{ tableId: string; kind: string; gameNo: number }>> {
    return tx.rows(`SELECT id, kind, current_game_no FROM game_tables WHERE club_id = $1 AND session_id = $2 AND current_game_no IS NOT NULL ORDER BY id`, [clubId, sessionId], (r) => {
      const c = cols(r);
      return { tableId: c.text('id'), kind: c.text('kind'), gameNo: c.int('current_game_no') };
    });
  }
}
