import { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';

/**
 * `UPDATE … SET …, version = version + 1 WHERE <key> AND version = <read version>`.
 * TypeORM's @VersionColumn does not guard a save; this does. Zero rows means the
 * row moved on since it was read: a lost race (409), never a silent overwrite.
 */
export async function guardedUpdate<E extends ObjectLiteral & { version: number }>(
  m: EntityManager,
  entity: EntityTarget<E>,
  key: FindOptionsWhere<E>,
  readVersion: number,
  changes: Partial<E>,
): Promise<E> {
  const res = await m
    .createQueryBuilder()
    .update(entity)
    .set({ ...changes, version: () => 'version + 1', updatedAt: () => 'now()' })
    .where(key)
    .andWhere('version = :readVersion', { readVersion })
    .execute();
  if (res.affected !== 1) {
    throw new ApiError(ErrorCode.CONFLICT, 'Someone else changed this at the same moment; read it again and retry.');
  }
  return m.findOneOrFail<E>(entity, { where: key });
}
