import { Injectable } from '@nestjs/common';
import { ROLES } from '../common/auth';
import { cols, decode, Row } from '../db/decode';
import type { Reads, Tx } from '../db/tx';
import { ApiKeyEntity } from './api-key.entity';
import { API_KEY_CHANNEL } from '../guards';

const KEY_COLUMNS = 'club_id, id, name, role, secret_hash, hint, created_at, revoked_at';

const decodeKey = (r: Row): ApiKeyEntity => {
  const c = cols(r);
  return {
    clubId: c.text('club_id'),
    id: c.text('id'),
    name: c.text('name'),
    role: c.oneOf('role', ROLES),
    secretHash: c.bytes('secret_hash'),
    hint: c.text('hint'),
    createdAt: c.date('created_at'),
    revokedAt: c.dateOrNull('revoked_at'),
  };
};

@Injectable()
export class ApiKeysRepository {
  /** A new key, written with the command's COMMIT. */
  insert(tx: Tx, key: ApiKeyEntity): ApiKeyEntity {
    tx.defer({
      what: 'API key insert',
      text: `INSERT INTO api_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      values: [key.clubId, key.id, key.name, key.role, key.secretHash, key.hint, key.createdAt, key.revokedAt],
    });
    return key;
  }

  list(tx: Reads, clubId: string, after: string | null, limit: number): Promise<ApiKeyEntity[]> {
    return after
      ? tx.rows(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE club_id = $1 AND role <> 'board' AND id > $2 ORDER BY id LIMIT $3`, [clubId, after, limit + 1], decodeKey)
      : tx.rows(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE club_id = $1 AND role <> 'board' ORDER BY id LIMIT $2`, [clubId, limit + 1], decodeKey);
  }

  lock(tx: Tx, clubId: string, id: string): Promise<ApiKeyEntity | null> {
    return tx.maybeOne(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE club_id = $1 AND id = $2 AND role <> 'board' FOR UPDATE`, [clubId, id], decodeKey);
  }

  /** Active owner keys of the club, locked so two owners cannot revoke the last two at once. */
  lockActiveOwners(tx: Tx, clubId: string): Promise<string[]> {
    return tx.rows(`SELECT id FROM api_keys WHERE club_id = $1 AND role = 'owner' AND revoked_at IS NULL ORDER BY id FOR UPDATE`, [clubId], decode.text('id'));
  }

  /**
   * Revokes the key and announces it on bg_api_keys (delivered when the transaction
   * commits), so every instance drops it from its ApiKeyCache. The key is read and locked
   * by the caller; the revocation itself is written with the COMMIT, the notice (a
   * statement, not a write) goes now.
   */
  async revoke(tx: Tx, clubId: string, id: string): Promise<void> {
    await tx.rows('SELECT pg_notify($1, $2)', [API_KEY_CHANNEL, `${clubId}/${id}`], () => null);
    tx.defer({
      what: 'API key revocation',
      text: 'UPDATE api_keys SET revoked_at = now() WHERE club_id = $1 AND id = $2',
      values: [clubId, id],
    });
  }
}
