import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { API_KEY_CHANNEL } from '../guards';

@Injectable()
export class ApiKeysRepository {
  async insert(m: EntityManager, key: ApiKeyEntity): Promise<ApiKeyEntity> {
    await m.insert(ApiKeyEntity, key);
    return key;
  }

  async list(m: EntityManager, clubId: string, after: string | null, limit: number): Promise<ApiKeyEntity[]> {
    const qb = m.createQueryBuilder(ApiKeyEntity, 'k').where('k.clubId = :clubId', { clubId });
    if (after) qb.andWhere('k.id > :after', { after });
    return qb
      .orderBy('k.id', 'ASC')
      .limit(limit + 1)
      .getMany();
  }

  async lock(m: EntityManager, clubId: string, id: string): Promise<ApiKeyEntity | null> {
    return m.findOne(ApiKeyEntity, { where: { clubId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Active owner keys of the club, locked so two owners cannot revoke the last two at once. */
  async lockActiveOwners(m: EntityManager, clubId: string): Promise<string[]> {
    const rows = await m.query(`SELECT id FROM api_keys WHERE club_id = $1 AND role = 'owner' AND revoked_at IS NULL ORDER BY id FOR UPDATE`, [clubId]);
    return rows.map((r: { id: string }) => r.id);
  }

  /**
   * Revokes the key and announces it on bg_api_keys (delivered when the transaction
   * commits), so every instance drops it from its ApiKeyCache.
   */
  async revoke(m: EntityManager, clubId: string, id: string): Promise<void> {
    await m.update(ApiKeyEntity, { clubId, id }, { revokedAt: () => 'now()' });
    await m.query('SELECT pg_notify($1, $2)', [API_KEY_CHANNEL, `${clubId}/${id}`]);
  }
}
