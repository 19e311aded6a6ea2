import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { defer } from '../db/write-batch';
import { prepared } from '../db/prepared';
import { SessionEntity, type SessionTables } from '../sessions';
import { GameEntity, StoredAction, TableEntity, TableKind } from './table.entity';

type Row = Record<string, unknown>;

const mapTable = (r: Row): TableEntity => ({
  clubId: r.club_id as string,
  id: r.id as string,
  kind: r.kind as TableKind,
  sessionId: (r.session_id as string | null) ?? null,
  status: r.status as TableEntity['status'],
  setup: r.setup as Record<string, unknown>,
  state: r.state as Record<string, unknown>,
  stakeMinor: (r.stake_minor as string | null) ?? null,
  nextGameNo: r.next_game_no as number,
  currentGameNo: (r.current_game_no as number | null) ?? null,
  version: r.version as number,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});

const mapGame = (r: Row): GameEntity => ({
  clubId: r.club_id as string,
  tableId: r.table_id as string,
  gameNo: r.game_no as number,
  status: r.status as GameEntity['status'],
  automaticDoubles: r.automatic_doubles as number,
  setup: r.setup as Record<string, unknown>,
  actions: r.actions as StoredAction[],
  result: (r.result as Record<string, unknown> | null) ?? null,
  points: (r.points as number | null) ?? null,
  winnerSide: (r.winner_side as number | null) ?? null,
  startedAt: r.started_at as Date,
  endedAt: (r.ended_at as Date | null) ?? null,
  voidedAt: (r.voided_at as Date | null) ?? null,
  voidReason: (r.void_reason as string | null) ?? null,
  voidedBy: (r.voided_by as string | null) ?? null,
  version: r.version as number,
  players: uuidArray(r.players),
});

/** A row read back through row_to_json: timestamps are text there. */
function withDates(r: Row, fields: string[]): Row {
  const out = { ...r };
  for (const f of fields) if (typeof out[f] === 'string') out[f] = new Date(out[f]);
  if (typeof out.stake_minor === 'number') out.stake_minor = String(out.stake_minor);
  return out;
}

const mapSessionRow = (r: Row): SessionEntity => ({
  clubId: r.club_id as string,
  id: r.id as string,
  name: r.name as string,
  currency: (r.currency as string).trim(),
  status: r.status as SessionEntity['status'],
  rakeBp: r.rake_bp as number,
  startsAt: (r.starts_at as Date | null) ?? null,
  closedAt: (r.closed_at as Date | null) ?? null,
  version: r.version as number,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});

/** node-pg leaves uuid[] as its text form, `{a,b}`. */
function uuidArray(v: unknown): string[] {
  if (Array.isArray(v)) return v as string[];
  if (typeof v !== 'string' || v === '{}') return [];
  return v.slice(1, -1).split(',');
}

export interface TableFilter {
  sessionId?: string;
  playerId?: string;
  status?: string;
}

/** SQL of tables, their players and their games. Every statement is scoped by club_id. */
@Injectable()
export class TablesRepository implements SessionTables {
  async insert(m: EntityManager, t: TableEntity, playerIds: string[]): Promise<void> {
    await m.query(
      `INSERT INTO game_tables (club_id, id, kind, session_id, status, setup, state, stake_minor, next_game_no, current_game_no, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
      [t.clubId, t.id, t.kind, t.sessionId, t.status, t.setup, t.state, t.stakeMinor, t.nextGameNo, t.currentGameNo, t.version, t.createdAt],
    );
    await m.query(`INSERT INTO table_players (club_id, table_id, player_id) SELECT $1, $2, unnest($3::uuid[]) ON CONFLICT DO NOTHING`, [t.clubId, t.id, playerIds]);
  }

  async addPlayer(m: EntityManager, clubId: string, tableId: string, playerId: string): Promise<void> {
    await m.query(`INSERT INTO table_players (club_id, table_id, player_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [clubId, tableId, playerId]);
  }

  /** Every player who has sat at the table (a chouette keeps those who left). */
  async tablePlayers(m: EntityManager, clubId: string, tableId: string): Promise<string[]> {
    const rows = await m.query(`SELECT player_id FROM table_players WHERE club_id = $1 AND table_id = $2 ORDER BY player_id`, [clubId, tableId]);
    return rows.map((r: Row) => r.player_id as string);
  }

  /** Locks the table for the command: every change to a table or its games goes through here. */
  async lock(m: EntityManager, clubId: string, kind: TableKind, id: string): Promise<TableEntity | null> {
    const rows = await m.query(`SELECT * FROM game_tables WHERE club_id = $1 AND id = $2 AND kind = $3 FOR UPDATE`, [clubId, id, kind]);
    return rows.length ? mapTable(rows[0]) : null;
  }

  /**
   * One round trip for what a game command needs: the table locked FOR UPDATE, its
   * session share-locked (so a close waits for the command, R6.7), and the game. Locked
   * rows come back in their latest committed version; a game inserted by a command that
   * committed while this one waited for the lock is not in this statement's snapshot, so
   * a missing game is looked up again.
   */
  async lockForCommand(
    m: EntityManager,
    clubId: string,
    kind: TableKind,
    id: string,
    gameNo: number | null,
  ): Promise<{ t: TableEntity; session: SessionEntity | null; game: GameEntity | null } | null> {
    const rows = await prepared(
      m,
      // Every lookup by its whole primary key (no join), so that a plan cached while a
      // table was small never turns into a sequential scan. s and g are evaluated only
      // for a table found, after its lock.
      `WITH t AS (SELECT * FROM game_tables WHERE club_id = $1 AND id = $2 AND kind = $3 FOR UPDATE),
            s AS (SELECT * FROM sessions WHERE club_id = $1 AND id = (SELECT session_id FROM t) FOR SHARE),
            g AS (SELECT * FROM games WHERE club_id = $1 AND table_id = $2 AND game_no = $4 FOR UPDATE)
       SELECT row_to_json(t) AS t, (SELECT row_to_json(s) FROM s) AS s, (SELECT row_to_json(g) FROM g) AS g FROM t`,
      [clubId, id, kind, gameNo ?? 0],
    );
    if (rows.length === 0) return null;
    const t = mapTable(withDates(rows[0].t as Row, ['created_at', 'updated_at']));
    const session = rows[0].s ? mapSessionRow(withDates(rows[0].s as Row, ['starts_at', 'closed_at', 'created_at', 'updated_at'])) : null;
    let game = rows[0].g ? mapGame(withDates(rows[0].g as Row, ['started_at', 'ended_at', 'voided_at'])) : null;
    if (gameNo !== null && !game) game = await this.game(m, clubId, id, gameNo);
    return { t, session, game };
  }

  async find(m: EntityManager, clubId: string, kind: TableKind, id: string): Promise<TableEntity | null> {
    const rows = await m.query(`SELECT * FROM game_tables WHERE club_id = $1 AND id = $2 AND kind = $3`, [clubId, id, kind]);
    return rows.length ? mapTable(rows[0]) : null;
  }

  async list(m: EntityManager, clubId: string, kind: TableKind, f: TableFilter, after: string | null, limit: number): Promise<TableEntity[]> {
    const params: unknown[] = [clubId, kind];
    let where = 'club_id = $1 AND kind = $2';
    if (f.sessionId) where += ` AND session_id = $${params.push(f.sessionId)}`;
    if (f.status) where += ` AND status = $${params.push(f.status)}`;
    if (f.playerId) {
      where += ` AND EXISTS (SELECT 1 FROM table_players tp WHERE tp.club_id = game_tables.club_id AND tp.table_id = game_tables.id AND tp.player_id = $${params.push(f.playerId)})`;
    }
    if (after) where += ` AND id > $${params.push(after)}`;
    const rows = await m.query(`SELECT * FROM game_tables WHERE ${where} ORDER BY id LIMIT $${params.push(limit + 1)}`, params);
    return rows.map(mapTable);
  }

  /** Saves the table's mutable part and bumps its version (the row is locked). */
  async save(m: EntityManager, t: TableEntity): Promise<TableEntity> {
    // The row is locked by this command, so the version it read is the version there:
    // the update is deferred to the command's flush, guarded all the same.
    const updatedAt = new Date();
    await defer(m, {
      what: 'table update (changed under its lock)',
      sql: `UPDATE game_tables SET status = $3, state = $4, next_game_no = $5, current_game_no = $6, version = version + 1, updated_at = $8
        WHERE club_id = $1 AND id = $2 AND version = $7`,
      params: [t.clubId, t.id, t.status, t.state, t.nextGameNo, t.currentGameNo, t.version, updatedAt],
      expectRows: 1,
    });
    return { ...t, version: t.version + 1, updatedAt };
  }

  async insertGame(m: EntityManager, g: GameEntity): Promise<void> {
    await defer(m, {
      what: 'game insert',
      expectRows: 1,
      sql: `INSERT INTO games (club_id, table_id, game_no, status, automatic_doubles, setup, actions, result, points, winner_side, started_at, ended_at, version, players)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      params: [
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

  async saveGame(m: EntityManager, g: GameEntity): Promise<GameEntity> {
    await defer(m, {
      what: 'game update (changed under its table lock)',
      sql: `UPDATE games SET status = $4, actions = $5, result = $6, points = $7, winner_side = $8, ended_at = $9,
              voided_at = $10, void_reason = $11, voided_by = $12, version = version + 1
        WHERE club_id = $1 AND table_id = $2 AND game_no = $3 AND version = $13`,
      params: [g.clubId, g.tableId, g.gameNo, g.status, JSON.stringify(g.actions), g.result, g.points, g.winnerSide, g.endedAt, g.voidedAt, g.voidReason, g.voidedBy, g.version],
      expectRows: 1,
    });
    return { ...g, version: g.version + 1 };
  }

  async game(m: EntityManager, clubId: string, tableId: string, gameNo: number): Promise<GameEntity | null> {
    const rows = await m.query(`SELECT * FROM games WHERE club_id = $1 AND table_id = $2 AND game_no = $3`, [clubId, tableId, gameNo]);
    return rows.length ? mapGame(rows[0]) : null;
  }

  async games(m: EntityManager, clubId: string, tableId: string, afterGameNo = 0, limit = 100000): Promise<GameEntity[]> {
    const rows = await m.query(`SELECT * FROM games WHERE club_id = $1 AND table_id = $2 AND game_no > $3 ORDER BY game_no LIMIT $4`, [clubId, tableId, afterGameNo, limit]);
    return rows.map(mapGame);
  }

  /** Finished (not voided, not abandoned) games, in order: a match's history. */
  async finishedGames(m: EntityManager, clubId: string, tableId: string): Promise<Array<{ gameNo: number; winnerSide: 0 | 1; points: number }>> {
    const rows = await m.query(`SELECT game_no, winner_side, points FROM games WHERE club_id = $1 AND table_id = $2 AND status = 'finished' ORDER BY game_no`, [clubId, tableId]);
    return rows.map((r: Row) => ({ gameNo: r.game_no as number, winnerSide: r.winner_side as 0 | 1, points: r.points as number }));
  }

  /** R6.3: the most recent finished game (abandoned and voided games are skipped). */
  async latestFinishedGameNo(m: EntityManager, clubId: string, tableId: string): Promise<number | null> {
    const rows = await m.query(`SELECT max(game_no) AS n FROM games WHERE club_id = $1 AND table_id = $2 AND status = 'finished'`, [clubId, tableId]);
    return rows[0].n ?? null;
  }

  /** R6.7: unfinished games of the session's tables. */
  async gamesInProgress(m: EntityManager, clubId: string, sessionId: string): Promise<Array<{ tableId: string; kind: string; gameNo: number }>> {
    const rows = await m.query(`SELECT id, kind, current_game_no FROM game_tables WHERE club_id = $1 AND session_id = $2 AND current_game_no IS NOT NULL ORDER BY id`, [clubId, sessionId]);
    return rows.map((r: Row) => ({ tableId: r.id as string, kind: r.kind as string, gameNo: r.current_game_no as number }));
  }
}
