import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import type { Reads } from '../db/tx';
import { assertSessionOpen } from '../domain/session';
import { assertPlayersKnown } from '../domain/table-commands';
import { SessionEntity, decodeSession } from '../sessions';
import { playerNames } from '../players';

/** Session checks shared by every table command (R6.1, R6.7). */
@Injectable()
export class SessionGate {
  /**
   * The table's session, share-locked so that closing it (which takes the row for
   * update) waits for this command, and refused once it is closed (R6.7).
   */
  async openSession(tx: Reads, clubId: string, sessionId: string | null): Promise<SessionEntity | null> {
    if (!sessionId) return null;
    const s = await tx.maybeOne(`SELECT * FROM sessions WHERE club_id = $1 AND id = $2 FOR SHARE`, [clubId, sessionId], decodeSession);
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
export async function assertPlayersInClub(tx: Reads, clubId: string, ids: string[]): Promise<void> {
  const found = await playerNames(tx, clubId, ids);
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  assertPlayersKnown(missing);
}
