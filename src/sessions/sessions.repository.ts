import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { notFound } from '../common/api-error';
import { guardedUpdate } from '../db/guarded-update';
import { SessionEntity } from './session.entity';

@Injectable()
export class SessionsRepository {
  async insert(m: EntityManager, s: SessionEntity): Promise<void> {
    await m.insert(SessionEntity, s);
  }

  find(m: EntityManager, clubId: string, id: string): Promise<SessionEntity | null> {
    return m.findOne(SessionEntity, { where: { clubId, id } });
  }

  /** The session, or 404 when this club has none with that id. */
  async get(m: EntityManager, clubId: string, id: string): Promise<SessionEntity> {
    const s = await this.find(m, clubId, id);
    if (!s) throw notFound('Session');
    return s;
  }

  lock(m: EntityManager, clubId: string, id: string): Promise<SessionEntity | null> {
    return m.findOne(SessionEntity, { where: { clubId, id }, lock: { mode: 'pessimistic_write' } });
  }

  list(m: EntityManager, clubId: string, status: string | undefined, after: string | null, limit: number): Promise<SessionEntity[]> {
    const qb = m.createQueryBuilder(SessionEntity, 's').where('s.clubId = :clubId', { clubId });
    if (status) qb.andWhere('s.status = :status', { status });
    if (after) qb.andWhere('s.id > :after', { after });
    return qb
      .orderBy('s.id', 'ASC')
      .limit(limit + 1)
      .getMany();
  }

  update(m: EntityManager, s: SessionEntity, changes: Partial<SessionEntity>): Promise<SessionEntity> {
    return guardedUpdate<SessionEntity>(m, SessionEntity, { clubId: s.clubId, id: s.id }, s.version, changes);
  }
}
