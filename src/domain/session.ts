/**
 * Refusals about sessions and the money that goes through them (R6.7, R3.8, R6.6),
 * decided on plain data. Pure: no framework, no I/O.
 */
import { refuse } from './errors';

/** Only what the session rules look at. */
export interface SessionFacts {
  readonly name: string;
  readonly status: 'open' | 'closed';
}

/** A game still being played in a session: its table and number. */
export interface GameInProgress {
  readonly kind: string;
  readonly tableId: string;
  readonly gameNo: number;
}

/** R6.7: a closed session takes no more tables or games. */
export function assertSessionOpen(session: SessionFacts): void {
  if (session.status === 'closed') refuse('SESSION_CLOSED', 'R6.7', `Session "${session.name}" is closed: it takes no more tables or games (R6.7)`);
}

/** R6.7: the rake of a closed session no longer changes (its games' money is settled with it). */
export function assertRakeChangeable(session: Pick<SessionFacts, 'status'>): void {
  if (session.status === 'closed') refuse('SESSION_CLOSED', 'R6.7', 'The session is closed; its rake can no longer change.');
}

/** R6.7: a session closes only when none of its games is in progress; the refusal lists them. */
export function assertCanClose(gamesInProgress: readonly GameInProgress[]): void {
  if (gamesInProgress.length) {
    refuse(
      'GAMES_IN_PROGRESS',
      'R6.7',
      `Finish or abandon the games still in progress before closing (R6.7): ${gamesInProgress.map((b) => `${b.kind} ${b.tableId} game ${b.gameNo}`).join('; ')}`,
    );
  }
}

/**
 * R3.8 (with R6.1): a stake is paid through a session's ledger, so a match, or a team
 * event whose boards carry a stake, needs a session when the stake is above zero.
 */
export function assertStakeHasSession(what: 'match' | 'team event', stakeMinor: number | undefined, sessionId: string | null | undefined): void {
  if (stakeMinor === undefined || stakeMinor <= 0 || sessionId) return;
  refuse(
    'STAKE_NEEDS_SESSION',
    'R3.8',
    what === 'match'
      ? 'A match with a stake belongs to a session, whose ledger the stake is paid through (R3.8, R6.1)'
      : "A team event with a stake belongs to a session, whose ledger each board's stake is paid through (R3.8, R6.1)",
  );
}

/** R6.6: a payment is cash handed from one party to another: never to itself. */
export function assertPaymentBetweenTwoParties(from: string, to: string): void {
  if (from === to) refuse('SAME_PARTY', 'R6.6', 'A payment goes from one party to another: from and to are the same', { party: from });
}
