import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { SideIndex } from '../domain/types';
import { decodeTableJson, MatchTableRow } from '../tables/stored-state';
import { StoredTeam, TeamEventEntity } from './team-event.entity';

type Row = Record<string, unknown>;

/** An event as read, with its session's currency. */
export interface TeamEventRow extends TeamEventEntity {
  currency: string | null;
}

/** A board and the parts of its match the event reads. */
export interface BoardRow {
  eventId: string;
  boardNo: number;
  matchId: string;
  /** The match table's `setup` (sides, length, settings) and `state` (its penalties). */
  setup: MatchTableRow['setup'];
  state: MatchTableRow['state'];
  version: number;
}

/** A finished board game, as a match's history needs it. */
export interface BoardGameRow {
  matchId: string;
  gameNo: number;
  winnerSide: SideIndex;
  points: number;
  endedAt: Date | null;
}

const mapEvent = (r: Row): TeamEventRow => ({
  clubId: r.club_id as string,
  id: r.id as string,
  sessionId: (r.session_id as string | null) ?? null,
  name: (r.name as string | null) ?? null,
  target: r.target as number,
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a BIGINT column: pg answers a string
  stakeMinor: r.stake_minor === null || r.stake_minor === undefined ? null : String(r.stake_minor),
  teams: r.teams as StoredTeam[],
  createdAt: r.created_at as Date,
  version: r.version as number,
  currency: (r.currency as string | null) ?? null,
});

const SELECT_EVENT = `SELECT e.*, s.currency FROM team_events e LEFT JOIN sessions s ON s.club_id = e.club_id AND s.id = e.session_id`;

/** SQL of team events and their boards (R3.7). Every statement is scoped by club_id. */
@Injectable()
export class TeamEventsRepository {
  async insert(m: EntityManager, e: TeamEventEntity, boards: Array<{ boardNo: number; matchId: string }>): Promise<void> {
    await m.query(
      `INSERT INTO team_events (club_id, id, session_id, name, target, stake_minor, teams, created_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [e.clubId, e.id, e.sessionId, e.name, e.target, e.stakeMinor, JSON.stringify(e.teams), e.createdAt, e.version],
    );
    await m.query(
      `INSERT INTO team_event_boards (club_id, event_id, board_no, match_id)
       SELECT $1, $2, b.board_no, b.match_id FROM unnest($3::int[], $4::uuid[]) AS b (board_no, match_id)`,
      [e.clubId, e.id, boards.map((b) => b.boardNo), boards.map((b) => b.matchId)],
    );
  }

  async find(m: EntityManager, clubId: string, id: string): Promise<TeamEventRow | null> {
    const rows = await m.query(`${SELECT_EVENT} WHERE e.club_id = $1 AND e.id = $2`, [clubId, id]);
    return rows.length ? mapEvent(rows[0]) : null;
  }

  /** Keyset page by id (ids are UUIDv7: creation order). */
  async list(m: EntityManager, clubId: string, f: { sessionId?: string }, after: string | null, limit: number): Promise<TeamEventRow[]> {
    const params: unknown[] = [clubId];
    let where = 'e.club_id = $1';
    if (f.sessionId) where += ` AND e.session_id = $${params.push(f.sessionId)}`;
    if (after) where += ` AND e.id > $${params.push(after)}`;
    const rows = await m.query(`${SELECT_EVENT} WHERE ${where} ORDER BY e.id LIMIT $${params.push(limit + 1)}`, params);
    return rows.map(mapEvent);
  }

  /** The boards of these events, in board order, with their matches' setup, state and version. */
  async boards(m: EntityManager, clubId: string, eventIds: string[]): Promise<BoardRow[]> {
    if (eventIds.length === 0) return [];
    const rows = await m.query(
      `SELECT b.event_id, b.board_no, b.match_id, t.setup, t.state, t.version
         FROM team_event_boards b
         JOIN game_tables t ON t.club_id = b.club_id AND t.id = b.match_id
        WHERE b.club_id = $1 AND b.event_id = ANY($2::uuid[])
        ORDER BY b.event_id, b.board_no`,
      [clubId, eventIds],
    );
    return rows.map((r: Row) => {
      const matchId = r.match_id as string;
      const { setup, state } = decodeTableJson('match', matchId, r.setup, r.state);
      return { eventId: r.event_id as string, boardNo: r.board_no as number, matchId, setup, state, version: r.version as number };
    });
  }

  /** Finished (not voided, not abandoned) games of these matches, in play order. */
  async finishedGames(m: EntityManager, clubId: string, matchIds: string[]): Promise<BoardGameRow[]> {
    if (matchIds.length === 0) return [];
    const rows = await m.query(
      `SELECT table_id, game_no, winner_side, points, ended_at FROM games
        WHERE club_id = $1 AND table_id = ANY($2::uuid[]) AND status = 'finished'
        ORDER BY table_id, game_no`,
      [clubId, matchIds],
    );
    return rows.map((r: Row) => ({
      matchId: r.table_id as string,
      gameNo: r.game_no as number,
      winnerSide: r.winner_side as SideIndex,
      points: r.points as number,
      endedAt: (r.ended_at as Date | null) ?? null,
    }));
  }
}
