import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { refuse } from '../domain/errors';
import { SessionEntity } from '../sessions/session.entity';

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
    if (!s) throw new ApiError(ErrorCode.REFERENCE_NOT_FOUND, `Session ${sessionId} does not exist in this club.`);
    if (s.status === 'closed') refuse('SESSION_CLOSED', 'R6.7', `Session "${s.name}" is closed: it takes no more tables or games (R6.7)`);
    return s;
  }
}
