import { Injectable } from '@nestjs/common';
import { TABLE_KINDS, type TableKind } from '../domain/table-kinds';
import { cols, Row } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { API_KEY_CHANNEL } from '../guards';

/** A board link: its key (role `board`) and what its board shows. */
export interface BoardLinkRow {
  clubId: string;
  id: string;
  name: string;
  sessionId: string | null;
  tournamentId: string | null;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** A finished game for the board's latest results (matches and money games). */
export interface BoardResultRow {
  kind: TableKind;
  /** Side 0 first; a chouette's are the box (with his partner, R5.9) and the team, as the game started. */
  sides: string[][];
  winnerSide: number | null;
  points: number | null;
  endedAt: Date;
}

/** The tables whose games the latest results are taken from: the latest this many of the session (or club). */
const RESULT_TABLES = 200;

const LINK_COLUMNS = `k.club_id, k.id, k.name, b.session_id, b.tournament_id, k.hint, k.created_at, k.revoked_at`;
const FROM_LINKS = `FROM api_keys k JOIN board_links b ON b.club_id = k.club_id AND b.id = k.id`;

const decodeLink = (r: Row): BoardLinkRow => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    name: c.text('name'),
    sessionId: c.textOrNull('session_id'),
    tournamentId: c.textOrNull('tournament_id'),
    hint: c.text('hint'),
    createdAt: c.date('created_at'),
    revokedAt: c.dateOrNull('revoked_at'),
  };
};

/** A chouette game's sides from its setup: the box and his partner, then the team in its order. */
function chouetteSides(setup: unknown): string[][] {
  const s = (setup ?? {}) as { box?: unknown; partner?: unknown; team?: unknown };
  const box = [s.box, s.partner].filter((p): p is string => typeof p === 'string');
  const team = Array.isArray(s.team) ? s.team.filter((p): p is string => typeof p === 'string') : [];
  return [box, team];
}

const decodeResult = (r: Row): BoardResultRow => {
  const c = cols(r);
  const kind = c.oneOf('kind', TABLE_KINDS);
  const sides = kind === 'chouette' ? chouetteSides(c.json('setup')) : ((c.json('sides') as string[][] | null) ?? []);
  return {
    kind,
    sides: sides.map((s) => s.map((p) => String(p).toLowerCase())),
    winnerSide: c.intOrNull('winner_side'),
    points: c.intOrNull('points'),
    endedAt: c.date('ended_at'),
  };
};

/** Board links (api_keys of role `board` with their board_links row) and what a board reads besides the views. */
@Injectable()
export class BoardsRepository {
  /** A new link: its key and its row, written with the command's COMMIT. */
  insert(tx: Tx, link: BoardLinkRow, secretHash: Buffer): void {
    tx.defer({
      what: 'board link key insert',
      text: `INSERT INTO api_keys (club_id, id, name, role, secret_hash, hint, created_at) VALUES ($1, $2, $3, 'board', $4, $5, $6)`,
      values: [link.clubId, link.id, link.name, secretHash, link.hint, link.createdAt],
    });
    tx.defer({
      what: 'board link insert',
      text: `INSERT INTO board_links (club_id, id, session_id, tournament_id, created_at) VALUES ($1, $2, $3, $4, $5)`,
      values: [link.clubId, link.id, link.sessionId, link.tournamentId, link.createdAt],
    });
  }

  /** Whether the club has this session or tournament. */
  async exists(tx: Reads, table: 'sessions' | 'tournaments', clubId: string, id: string): Promise<boolean> {
    return (await tx.maybeOne(`SELECT 1 AS one FROM ${table} WHERE club_id = $1 AND id = $2`, [clubId, id], () => true)) === true;
  }

  find(tx: Reads, clubId: string, id: string): Promise<BoardLinkRow | null> {
    return tx.maybeOne(`SELECT ${LINK_COLUMNS} ${FROM_LINKS} WHERE k.club_id = $1 AND k.id = $2`, [clubId, id], decodeLink);
  }

  lock(tx: Tx, clubId: string, id: string): Promise<BoardLinkRow | null> {
    return tx.maybeOne(`SELECT ${LINK_COLUMNS} ${FROM_LINKS} WHERE k.club_id = $1 AND k.id = $2 FOR UPDATE OF k`, [clubId, id], decodeLink);
  }

  list(tx: Reads, clubId: string, after: string | null, limit: number): Promise<BoardLinkRow[]> {
    return after
      ? tx.rows(`SELECT ${LINK_COLUMNS} ${FROM_LINKS} WHERE k.club_id = $1 AND k.id > $2 ORDER BY k.id LIMIT $3`, [clubId, after, limit + 1], decodeLink)
      : tx.rows(`SELECT ${LINK_COLUMNS} ${FROM_LINKS} WHERE k.club_id = $1 ORDER BY k.id LIMIT $2`, [clubId, limit + 1], decodeLink);
  }

  /**
   * Revokes the link's key and announces it on bg_api_keys, as an API key's revocation is:
   * every instance stops accepting it, and its streams end at the next key check.
   */
  async revoke(tx: Tx, clubId: string, id: string): Promise<void> {
    await tx.rows('SELECT pg_notify($1, $2)', [API_KEY_CHANNEL, `${clubId}/${id}`], () => null);
    tx.defer({
      what: 'board link revocation',
      text: `UPDATE api_keys SET revoked_at = now() WHERE club_id = $1 AND id = $2 AND role = 'board'`,
      values: [clubId, id],
    });
  }

  /**
   * The latest finished games at the session's (or, without one, the club's) matches, money
   * games and chouettes, newest first: the last `limit` of each of its latest
   * RESULT_TABLES tables (by the table's id, which grows with time), so the read costs
   * the same however long the club's history.
   */
  latestResults(tx: Reads, clubId: string, sessionId: string | null, limit: number): Promise<BoardResultRow[]> {
    const params: unknown[] = [clubId];
    const session = sessionId === null ? '' : ` AND session_id = $${params.push(sessionId)}::uuid`;
    const n = `$${params.push(limit)}`;
    return tx.rows(
      `SELECT t.kind, coalesce(t.setup->'sides', jsonb_build_array(jsonb_build_array(t.setup->'players'->0), jsonb_build_array(t.setup->'players'->1))) AS sides,
              g.chouette_setup AS setup, g.winner_side, g.points, g.ended_at
         FROM (SELECT club_id, id, kind, setup FROM game_tables WHERE club_id = $1${session} ORDER BY id DESC LIMIT ${RESULT_TABLES}) t
        CROSS JOIN LATERAL (
              SELECT g.winner_side, g.points, g.ended_at, CASE WHEN t.kind = 'chouette' THEN g.setup->'setup' END AS chouette_setup FROM games g
               WHERE g.club_id = t.club_id AND g.table_id = t.id AND g.status = 'finished'
               ORDER BY g.game_no DESC LIMIT ${n}) g
        ORDER BY g.ended_at DESC
        LIMIT ${n}`,
      params,
      decodeResult,
    );
  }
}
