import { Injectable } from '@nestjs/common';
import { conflict } from '../db/connection';
import { cols, Row } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { ClubEntity } from './club.entity';

const CLUB_COLUMNS = 'club_id, name, currency, timezone, version, created_at, updated_at';

const decodeClub = (r: Row): ClubEntity => {
  const c = cols(r);
  return {
    id: c.text('club_id'),
    name: c.text('name'),
    currency: c.text('currency'),
    timezone: c.text('timezone'),
    version: c.int('version'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
  };
};

@Injectable()
export class ClubsRepository {
  /** A new club, written with the command's COMMIT. */
  insert(tx: Tx, club: ClubEntity): void {
    tx.defer({
      what: 'club insert',
      text: `INSERT INTO clubs (${CLUB_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      values: [club.id, club.name, club.currency, club.timezone, club.version, club.createdAt, club.updatedAt],
    });
  }

  find(tx: Reads, clubId: string): Promise<ClubEntity | null> {
    return tx.maybeOne(`SELECT ${CLUB_COLUMNS} FROM clubs WHERE club_id = $1`, [clubId], decodeClub, { prepare: true });
  }

  lock(tx: Tx, clubId: string): Promise<ClubEntity | null> {
    return tx.maybeOne(`SELECT ${CLUB_COLUMNS} FROM clubs WHERE club_id = $1 FOR UPDATE`, [clubId], decodeClub, { prepare: true });
  }

  /**
   * The club with `changes` (undefined: unchanged), its version one higher, guarded by the
   * version read (409 CONFLICT when the row moved on): the row as it now is.
   */
  async update(tx: Tx, club: ClubEntity, changes: Partial<Pick<ClubEntity, 'name' | 'currency' | 'timezone'>>): Promise<ClubEntity> {
    const values: unknown[] = [club.id, club.version];
    const set: string[] = [];
    const change = (column: string, value: unknown) => {
      if (value === undefined) return;
      values.push(value);
      set.push(`${column} = $${values.length}`);
    };
    change('name', changes.name);
    change('currency', changes.currency);
    change('timezone', changes.timezone);
    set.push('version = version + 1', 'updated_at = now()');
    const rows = await tx.writeReturning({ text: `UPDATE clubs SET ${set.join(', ')} WHERE club_id = $1 AND version = $2 RETURNING ${CLUB_COLUMNS}`, values }, decodeClub);
    if (rows.length !== 1) throw conflict();
    return rows[0];
  }
}
