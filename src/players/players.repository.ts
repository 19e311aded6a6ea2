import { Injectable } from '@nestjs/common';
import { cols, Row } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { versionedUpdate } from '../db/versioned-update';
import { PlayerEntity } from './player.entity';

const PLAYER_COLUMNS = 'club_id, id, name, nickname, rating, experience, rated_matches, version, created_at, updated_at';

const decodePlayer = (r: Row): PlayerEntity => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    name: c.text('name'),
    nickname: c.textOrNull('nickname'),
    rating: c.float('rating'),
    experience: c.int('experience'),
    ratedMatches: c.int('rated_matches'),
    version: c.int('version'),
    createdAt: c.date('created_at'),
    updatedAt: c.date('updated_at'),
  };
};

const decodeName = (r: Row): [string, string] => {
  const c = cols(r);
  return [c.text('id'), c.text('name')];
};

/** Names of the club's players among `ids` (ids of another club, or of no one, are simply absent). */
export async function playerNames(tx: Reads, clubId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  return new Map(await tx.rows(`SELECT id, name FROM players WHERE club_id = $1 AND id = ANY($2::uuid[])`, [clubId, ids], decodeName));
}

@Injectable()
export class PlayersRepository {
  /** A new player, written with the command's COMMIT. */
  insert(tx: Tx, p: PlayerEntity): void {
    tx.defer({
      what: 'player insert',
      text: `INSERT INTO players (${PLAYER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      values: [p.clubId, p.id, p.name, p.nickname, p.rating, p.experience, p.ratedMatches, p.version, p.createdAt, p.updatedAt],
    });
  }

  find(tx: Reads, clubId: string, id: string): Promise<PlayerEntity | null> {
    return tx.maybeOne(`SELECT ${PLAYER_COLUMNS} FROM players WHERE club_id = $1 AND id = $2`, [clubId, id], decodePlayer, { prepare: true });
  }

  lock(tx: Tx, clubId: string, id: string): Promise<PlayerEntity | null> {
    return tx.maybeOne(`SELECT ${PLAYER_COLUMNS} FROM players WHERE club_id = $1 AND id = $2 FOR UPDATE`, [clubId, id], decodePlayer, { prepare: true });
  }

  list(tx: Reads, clubId: string, after: string | null, limit: number): Promise<PlayerEntity[]> {
    return after
      ? tx.rows(`SELECT ${PLAYER_COLUMNS} FROM players WHERE club_id = $1 AND id > $2 ORDER BY id LIMIT $3`, [clubId, after, limit + 1], decodePlayer)
      : tx.rows(`SELECT ${PLAYER_COLUMNS} FROM players WHERE club_id = $1 ORDER BY id LIMIT $2`, [clubId, limit + 1], decodePlayer);
  }

  /**
   * The player with `changes` (undefined: unchanged), his version one higher, guarded by
   * the version read (409 CONFLICT when the row moved on): the row as it now is.
   */
  update(tx: Tx, p: PlayerEntity, changes: Partial<Pick<PlayerEntity, 'name' | 'nickname' | 'rating' | 'experience'>>): Promise<PlayerEntity> {
    const set = { name: changes.name, nickname: changes.nickname, rating: changes.rating, experience: changes.experience };
    return tx.guardedReturning(versionedUpdate({ table: 'players', key: { club_id: p.clubId, id: p.id }, version: p.version, set, returning: PLAYER_COLUMNS }), decodePlayer);
  }
}
