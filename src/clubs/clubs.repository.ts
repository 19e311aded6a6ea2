import { Injectable } from '@nestjs/common';
import { cols, Row } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { versionedUpdate } from '../db/versioned-update';
import { ClubEntity } from './club.entity';

const CLUB_COLUMNS = 'club_id, name, currency, timezone, version, created_at, updated_at';

const decodeClub = (r: Row): ClubEntity => {
  const c = cols(r);
  return {
    id: c.text('club_id'),
    name: c.text('name'),
    currency: c.currency('currency'),
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
  update(tx: Tx, club: ClubEntity, changes: Partial<Pick<ClubEntity, 'name' | 'currency' | 'timezone'>>): Promise<ClubEntity> {
    const write = versionedUpdate({
      table: 'clubs',
      key: { club_id: club.id },
      version: club.version,
      set: { name: changes.name, currency: changes.currency, timezone: changes.timezone },
      returning: CLUB_COLUMNS,
    });
    return tx.guardedReturning(write, decodeClub);
  }
}
