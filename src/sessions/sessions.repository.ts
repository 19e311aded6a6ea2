import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { cols, Row } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { versionedUpdate } from '../db/versioned-update';
import { SessionEntity } from './session.entity';

const SESSION_COLUMNS = 'club_id, id, name, currency, status, rake_bp, starts_at, closed_at, version, created_at, updated_at';

/** A `sessions` row, read directly or through row_to_json (every read of a session goes through it). */
export const decodeSession = (r: Row): SessionEntity => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    name: c.text('name'),
    currency: c.currency('currency'),
    status: c.oneOf('status', ['open', 'closed']),
    rakeBp: c.int('rake_bp'),
    startsAt: c.dateOrNull('starts_at'),
    closedAt: c.dateOrNull('closed_at'),
    version: c.int('version'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
  };
};

/** What a session's PATCH may change. */
export type SessionChanges = Partial<Pick<SessionEntity, 'name' | 'startsAt' | 'rakeBp'>>;

@Injectable()
export class SessionsRepository {
  /** A new session, written with the command's COMMIT. */
  insert(tx: Tx, s: SessionEntity): void {
    tx.defer({
      what: 'session insert',
      text: `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      values: [s.clubId, s.id, s.name, s.currency, s.status, s.rakeBp, s.startsAt, s.closedAt, s.version, s.createdAt, s.updatedAt],
    });
  }

  find(tx: Reads, clubId: string, id: string): Promise<SessionEntity | null> {
    return tx.maybeOne(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE club_id = $1 AND id = $2`, [clubId, id], decodeSession, { prepare: true });
  }

  /** The session, or 404 when this club has none with that id. */
  async get(tx: Reads, clubId: string, id: string): Promise<SessionEntity> {
    const s = await this.find(tx, clubId, id);
    if (!s) throw notFound('Session');
    return s;
  }

  lock(tx: Tx, clubId: string, id: string): Promise<SessionEntity | null> {
    return tx.maybeOne(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE club_id = $1 AND id = $2 FOR UPDATE`, [clubId, id], decodeSession, { prepare: true });
  }

  list(tx: Reads, clubId: string, status: string | undefined, after: string | null, limit: number): Promise<SessionEntity[]> {
    const values: unknown[] = [clubId];
    let where = 'club_id = $1';
    if (status) {
      values.push(status);
      where += ` AND status = $${values.length}`;
    }
    if (after) {
      values.push(after);
      where += ` AND id > $${values.length}`;
    }
    values.push(limit + 1);
    return tx.rows(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${where} ORDER BY id LIMIT $${values.length}`, values, decodeSession);
  }

  /**
   * The session with `changes` (undefined: unchanged), its version one higher, guarded by
   * the version read (409 CONFLICT when the row moved on): the row as it now is.
   */
  update(tx: Tx, s: SessionEntity, changes: SessionChanges): Promise<SessionEntity> {
    const set = { name: changes.name, starts_at: changes.startsAt, rake_bp: changes.rakeBp };
    return tx.guardedReturning(versionedUpdate({ table: 'sessions', key: { club_id: s.clubId, id: s.id }, version: s.version, set, returning: SESSION_COLUMNS }), decodeSession);
  }

  /** Closes the session now (closed_at: the transaction's time), guarded like update. */
  close(tx: Tx, s: SessionEntity): Promise<SessionEntity> {
    const write = versionedUpdate({
      table: 'sessions',
      key: { club_id: s.clubId, id: s.id },
      version: s.version,
      setSql: [`status = 'closed'`, 'closed_at = now()'],
      returning: SESSION_COLUMNS,
    });
    return tx.guardedReturning(write, decodeSession);
  }
}
