import { Injectable } from '@nestjs/common';
import { cols, Decoder, RowDecodeError } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import type { TournamentConfig, TournamentRow, TournamentState } from './tournament-state';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tournaments row (with its session's currency as `currency`). */
export const decodeTournament: Decoder<TournamentRow> = (r) => {
  const c = cols(r);
  const config = c.json('config');
  const state = c.json('state');
  if (!isObject(config) || !Array.isArray(config.targets)) throw new RowDecodeError('config', 'a tournament config', config);
  if (!isObject(state) || !Array.isArray(state.flights)) throw new RowDecodeError('state', 'a tournament state', state);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    sessionId: c.textOrNull('session_id'),
    name: c.text('name'),
    format: c.oneOf('format', ['knockout', 'swiss'] as const),
    status: c.oneOf('status', ['open', 'running', 'finished'] as const),
    config: config as unknown as TournamentConfig,
    state: state as unknown as TournamentState,
    version: c.int('version'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
    currency: c.currencyOrNull('currency'),
  };
};

const SELECT = `SELECT t.*, s.currency FROM tournaments t LEFT JOIN sessions s ON s.club_id = t.club_id AND s.id = t.session_id`;

/** SQL of tournaments (R9). Every statement is scoped by club_id; the row is the lock of its draw. */
@Injectable()
export class TournamentsRepository {
  insert(tx: Tx, t: TournamentRow): void {
    tx.defer({
      what: 'tournament',
      text: `INSERT INTO tournaments (club_id, id, session_id, name, format, status, config, state, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
      values: [t.clubId, t.id, t.sessionId, t.name, t.format, t.status, JSON.stringify(t.config), JSON.stringify(t.state), t.version, t.createdAt],
      guard: 1,
    });
  }

  find(tx: Reads, clubId: string, id: string): Promise<TournamentRow | null> {
    return tx.maybeOne(`${SELECT} WHERE t.club_id = $1 AND t.id = $2`, [clubId, id], decodeTournament);
  }

  /** The tournament locked for the command (its latest committed version). */
  lock(tx: Reads, clubId: string, id: string): Promise<TournamentRow | null> {
    return tx.maybeOne(
      `SELECT t.*, (SELECT s.currency FROM sessions s WHERE s.club_id = t.club_id AND s.id = t.session_id) AS currency
         FROM tournaments t WHERE t.club_id = $1 AND t.id = $2 FOR UPDATE`,
      [clubId, id],
      decodeTournament,
    );
  }

  /** The new state, written with the COMMIT if the row is still at the version read (else 409). */
  save(tx: Tx, t: TournamentRow, at: Date): TournamentRow {
    tx.defer({
      what: 'tournament update',
      text: `UPDATE tournaments SET status = $3, state = $4, version = version + 1, updated_at = $6 WHERE club_id = $1 AND id = $2 AND version = $5`,
      values: [t.clubId, t.id, t.status, JSON.stringify(t.state), t.version, at],
      guard: 1,
    });
    return { ...t, version: t.version + 1, updatedAt: at };
  }

  /** Keyset page by id (UUIDv7: creation order). */
  list(tx: Reads, clubId: string, f: { status?: string; sessionId?: string }, after: string | null, limit: number): Promise<TournamentRow[]> {
    const values: unknown[] = [clubId];
    let where = 't.club_id = $1';
    if (f.status) where += ` AND t.status = $${values.push(f.status)}`;
    if (f.sessionId) where += ` AND t.session_id = $${values.push(f.sessionId)}`;
    if (after) where += ` AND t.id > $${values.push(after)}`;
    return tx.rows(`${SELECT} WHERE ${where} ORDER BY t.id LIMIT $${values.push(limit + 1)}`, values, decodeTournament);
  }

  /** The players' club ratings (R7), for a draw seeded by rating (R9.3). */
  async ratings(tx: Reads, clubId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const rows = await tx.rows(`SELECT id, rating FROM players WHERE club_id = $1 AND id = ANY($2::uuid[])`, [clubId, ids], (r) => {
      const c = cols(r);
      return [c.text('id'), c.float('rating')] as const;
    });
    return new Map(rows);
  }
}
