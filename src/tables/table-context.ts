import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { refuse } from '../domain/errors';
import { SessionEntity } from '../sessions/session.entity';
import { playerNames } from '../players/players.repository';

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
    if (s.status === 'closed') refuse('SESSION_CLOSED', 'R6.7', `Session "${s.name}" is closed: it takes no more tables or games (R6.7)`);
    return s;
  }
}

/** Every player named must belong to the caller's club: another club's ids are unknown here. */
export async function assertPlayersInClub(m: EntityManager, clubId: string, ids: string[]): Promise<void> {
  const found = await playerNames(m, clubId, ids);
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length) refuse('UNKNOWN_PLAYER', null, `No such player in this club: ${missing.join(', ')}`, { players: missing });
}
