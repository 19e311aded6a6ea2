import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { assertSessionOpen } from '../domain/session';
import { assertPlayersKnown } from '../domain/table-commands';
import { SessionEntity } from '../sessions';
import { playerNames } from '../players';

/** Session checks shared by every table command (R6.1, R6.7). */
@Injectable()
export class SessionGate {
  /**
   * The table's session, share-locked so that closing it (which takes the row for
   * update) waits for this command, and refused once it is closed (R6.7).
   */
  async openSession(m: EntityManager, clubId: string, sessionId: string | null): Promise<SessionEntity | null> {
    if (!sessionId) return null;
    const s = await m.findOne(SessionEntity, { where: { clubId, id: sessionId }, lock: { mode: 'pessimistic_read' } });
    return this.check(sessionId, s);
  }

  /** The same checks on a session already read with its share lock (TablesRepository.lockForCommand). */
  check(sessionId: string | null, s: SessionEntity | null): SessionEntity | null {
    if (!sessionId) return null;
    if (!s) throw new ApiError(ErrorCode.REFERENCE_NOT_FOUND, `Session ${sessionId} does not exist in this club.`);
    assertSessionOpen(s);
    return s;
  }
}

/** Every player named must belong to the caller's club: another club's ids are unknown here. */
export async function assertPlayersInClub(m: EntityManager, clubId: string, ids: string[]): Promise<void> {
  const found = await playerNames(m, clubId, ids);
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  assertPlayersKnown(missing);
}
