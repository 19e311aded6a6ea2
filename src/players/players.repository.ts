import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { guardedUpdate } from '../db/guarded-update';
import { PlayerEntity } from './player.entity';

/** Names of the club's players among `ids` (ids of another club, or of no one, are simply absent). */
export async function playerNames(m: EntityManager, clubId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: string; name: string }> = await m.query(`SELECT id, name FROM players WHERE club_id = $1 AND id = ANY($2::uuid[])`, [clubId, ids]);
  return new Map(rows.map((r) => [r.id, r.name]));
}

@Injectable()
export class PlayersRepository {
  async insert(m: EntityManager, p: PlayerEntity): Promise<void> {
    await m.insert(PlayerEntity, p);
  }

  find(m: EntityManager, clubId: string, id: string): Promise<PlayerEntity | null> {
    return m.findOne(PlayerEntity, { where: { clubId, id } });
  }

  lock(m: EntityManager, clubId: string, id: string): Promise<PlayerEntity | null> {
    return m.findOne(PlayerEntity, { where: { clubId, id }, lock: { mode: 'pessimistic_write' } });
  }

  list(m: EntityManager, clubId: string, after: string | null, limit: number): Promise<PlayerEntity[]> {
    const qb = m.createQueryBuilder(PlayerEntity, 'p').where('p.clubId = :clubId', { clubId });
    if (after) qb.andWhere('p.id > :after', { after });
    return qb
      .orderBy('p.id', 'ASC')
      .limit(limit + 1)
      .getMany();
  }

  update(m: EntityManager, p: PlayerEntity, changes: Partial<Pick<PlayerEntity, 'name' | 'nickname' | 'rating' | 'experience'>>): Promise<PlayerEntity> {
    return guardedUpdate<PlayerEntity>(m, PlayerEntity, { clubId: p.clubId, id: p.id }, p.version, changes);
  }
}
