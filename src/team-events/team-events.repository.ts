import { Injectable } from '@nestjs/common';
import { Columns, cols, Decoder, RowDecodeError } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import type { SideIndex } from '../domain/types';
import { sideOf } from '../player-stats';
import { decodeTableJson, MatchTableRow } from '../tables';
import { StoredTeam, TeamEventEntity } from './team-event.entity';

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

/** A match table's `setup` and `state`, as jsonb keeps them. */
export interface StoredBoard {
  setup: MatchTableRow['setup'];
  state: MatchTableRow['state'];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `teams`: the two teams as stored (name, players in board order). */
function teamsOf(c: Columns, name: string): StoredTeam[] {
  const v = c.json(name);
  if (!Array.isArray(v)) throw new RowDecodeError(name, 'json array of teams', v);
  return v.map((t: unknown) => {
    if (!isObject(t) || typeof t.name !== 'string' || !Array.isArray(t.players) || !t.players.every((p) => typeof p === 'string')) {
      throw new RowDecodeError(name, 'teams (name, players)', t);
    }
    return { name: t.name, players: t.players };
  });
}

const decodeEvent: Decoder<TeamEventRow> = (r) => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    sessionId: c.textOrNull('session_id'),
    name: c.textOrNull('name'),
    target: c.int('target'),
    stakeMinor: c.bigintTextOrNull('stake_minor'),
    teams: teamsOf(c, 'teams'),
    createdAt: c.date('created_at'),
    version: c.int('version'),
    currency: c.currencyOrNull('currency'),
  };
};

const SELECT_EVENT = `SELECT e.*, s.currency FROM team_events e LEFT JOIN sessions s ON s.club_id = e.club_id AND s.id = e.session_id`;

/** SQL of team events and their boards (R3.7). Every statement is scoped by club_id. */
@Injectable()
export class TeamEventsRepository {
  /** The event and its boards, written with the command's COMMIT (nothing in the command reads them back). */
  insert(tx: Tx, e: TeamEventEntity, boards: Array<{ boardNo: number; matchId: string }>): void {
    tx.defer({
      what: 'team event',
      text: `INSERT INTO team_events (club_id, id, session_id, name, target, stake_minor, teams, created_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      values: [e.clubId, e.id, e.sessionId, e.name, e.target, e.stakeMinor, JSON.stringify(e.teams), e.createdAt, e.version],
    });
    tx.defer({
      what: 'team event boards',
      text: `INSERT INTO team_event_boards (club_id, event_id, board_no, match_id)
       SELECT $1, $2, b.board_no, b.match_id FROM unnest($3::int[], $4::uuid[]) AS b (board_no, match_id)`,
      values: [e.clubId, e.id, boards.map((b) => b.boardNo), boards.map((b) => b.matchId)],
    });
  }

  /**
   * Board setups and states as the database gives them back once stored (jsonb: its key
   * order, its numbers), read without the rows: what a read of new boards would answer,
   * before the command writes them.
   */
  async asStored(tx: Reads, boards: StoredBoard[]): Promise<StoredBoard[]> {
    const stored = await tx.maybeOne(`SELECT $1::jsonb AS boards`, [JSON.stringify(boards)], (r) => cols(r).json('boards'));
    if (!Array.isArray(stored) || stored.length !== boards.length) throw new RowDecodeError('boards', `json array of ${boards.length}`, stored);
    return stored.map((b: unknown, i) => {
      if (!isObject(b)) throw new RowDecodeError('boards', 'setup and state', b);
      return decodeTableJson('match', `new board ${i + 1}`, b.setup, b.state);
    });
  }

  find(tx: Reads, clubId: string, id: string): Promise<TeamEventRow | null> {
    return tx.maybeOne(`${SELECT_EVENT} WHERE e.club_id = $1 AND e.id = $2`, [clubId, id], decodeEvent);
  }

  /** Keyset page by id (ids are UUIDv7: creation order). */
  list(tx: Reads, clubId: string, f: { sessionId?: string }, after: string | null, limit: number): Promise<TeamEventRow[]> {
    const values: unknown[] = [clubId];
    let where = 'e.club_id = $1';
    if (f.sessionId) where += ` AND e.session_id = $${values.push(f.sessionId)}`;
    if (after) where += ` AND e.id > $${values.push(after)}`;
    return tx.rows(`${SELECT_EVENT} WHERE ${where} ORDER BY e.id LIMIT $${values.push(limit + 1)}`, values, decodeEvent);
  }

  /** The boards of these events, in board order, with their matches' setup, state and version. */
  async boards(tx: Reads, clubId: string, eventIds: string[]): Promise<BoardRow[]> {
    if (eventIds.length === 0) return [];
    return tx.rows(
      `SELECT b.event_id, b.board_no, b.match_id, t.setup, t.state, t.version
         FROM team_event_boards b
         JOIN game_tables t ON t.club_id = b.club_id AND t.id = b.match_id
        WHERE b.club_id = $1 AND b.event_id = ANY($2::uuid[])
        ORDER BY b.event_id, b.board_no`,
      [clubId, eventIds],
      (r) => {
        const c = cols(r);
        const matchId = c.text('match_id');
        const { setup, state } = decodeTableJson('match', matchId, c.json('setup'), c.json('state'));
        return { eventId: c.text('event_id'), boardNo: c.int('board_no'), matchId, setup, state, version: c.int('version') };
      },
    );
  }

  /** Finished (not voided, not abandoned) games of these matches, in play order. */
  async finishedGames(tx: Reads, clubId: string, matchIds: string[]): Promise<BoardGameRow[]> {
    if (matchIds.length === 0) return [];
    return tx.rows(
      `SELECT table_id, game_no, winner_side, points, ended_at FROM games
        WHERE club_id = $1 AND table_id = ANY($2::uuid[]) AND status = 'finished'
        ORDER BY table_id, game_no`,
      [clubId, matchIds],
      (r) => {
        const c = cols(r);
        return {
          matchId: c.text('table_id'),
          gameNo: c.int('game_no'),
          winnerSide: sideOf(c, 'winner_side'),
          points: c.int('points'),
          endedAt: c.dateOrNull('ended_at'),
        };
      },
    );
  }
}
