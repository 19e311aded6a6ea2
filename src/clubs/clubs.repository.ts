import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { guardedUpdate } from '../db/guarded-update';
import { ClubEntity } from './club.entity';

@Injectable()
export class ClubsRepository {
  async insert(m: EntityManager, club: ClubEntity): Promise<void> {
    await m.insert(ClubEntity, club);
  }

  async find(m: EntityManager, clubId: string): Promise<ClubEntity | null> {
    return m.findOne(ClubEntity, { where: { id: clubId } });
  }

  async lock(m: EntityManager, clubId: string): Promise<ClubEntity | null> {
    return m.findOne(ClubEntity, { where: { id: clubId }, lock: { mode: 'pessimistic_write' } });
  }

  update(m: EntityManager, club: ClubEntity, changes: Partial<Pick<ClubEntity, 'name' | 'currency' | 'timezone'>>): Promise<ClubEntity> {
    return guardedUpdate<ClubEntity>(m, ClubEntity, { id: club.id }, club.version, changes);
  }
}
