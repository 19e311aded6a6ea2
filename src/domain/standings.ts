/**
 * Session standings: the club's end-of-night board.
 *
 * Pure: no framework, no I/O. Players are ordered by money net (highest first),
 * then by games won (most first), then by name and id (code-unit order, as the
 * statement orders names, so the same data always gives the same board).
 * Ranks are competition ranks ("1224"): players with exactly the same net and the
 * same games won share a rank, and the next rank skips as many places as shared it.
 * Name and id only break the tie for the order of the lines, never for the rank.
 */
import type { MatchEnd } from './match';
import { compareParty } from './settlement';

/** A finished match of the session: its sides (player ids), its winner and how it ended (R3.2, R3.9). */
export interface StandingMatch {
  readonly sides: readonly [readonly string[], readonly string[]];
  readonly winnerSide: 0 | 1;
  readonly endedBy: MatchEnd;
}

/** A player's finished matches in the session: won and lost, and of those, how many by a forfeit (R3.9). */
export interface MatchRecord {
  readonly matchesWon: number;
  readonly matchesLost: number;
  /** Matches won because the other side forfeited (lateness, no-show, penalties, ...). */
  readonly forfeitsWon: number;
  /** Matches the player's own side forfeited. */
  readonly forfeitsLost: number;
}

export const NO_MATCHES: MatchRecord = { matchesWon: 0, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 };

/**
 * Each player's match record from the session's finished matches. A forfeit is a win for
 * the other side like any other (R3.9): it counts in won and lost, and again in the
 * forfeit counts. A pair's match counts for both partners.
 */
export function matchRecords(matches: readonly StandingMatch[]): Map<string, MatchRecord> {
  const out = new Map<string, { matchesWon: number; matchesLost: number; forfeitsWon: number; forfeitsLost: number }>();
  const of = (id: string) => {
    let r = out.get(id);
    if (!r) out.set(id, (r = { ...NO_MATCHES }));
    return r;
  };
  for (const m of matches) {
    const forfeit = m.endedBy.kind === 'forfeit';
    for (const id of m.sides[m.winnerSide]) {
      const r = of(id);
      r.matchesWon++;
      if (forfeit) r.forfeitsWon++;
    }
    for (const id of m.sides[1 - m.winnerSide]) {
      const r = of(id);
      r.matchesLost++;
      if (forfeit) r.forfeitsLost++;
    }
  }
  return out;
}

export interface StandingInput {
  readonly playerId: string;
  readonly name: string;
  readonly netMinor: number;
  readonly gamesPlayed: number;
  readonly gamesWon: number;
  /** The player's finished matches (R3.9); they do not change the order. */
  readonly matches?: MatchRecord;
}

export interface Standing extends Omit<StandingInput, 'matches'>, MatchRecord {
  /** 1-based competition rank on (net, games won). */
  readonly rank: number;
}

/** The board's order: net desc, games won desc, name, id. */
function compareStandings(a: StandingInput, b: StandingInput): number {
  if (a.netMinor !== b.netMinor) return a.netMinor > b.netMinor ? -1 : 1;
  if (a.gamesWon !== b.gamesWon) return b.gamesWon - a.gamesWon;
  return compareParty(a.name, b.name) || compareParty(a.playerId, b.playerId);
}

/** Sorts the players into the board and gives each his competition rank. */
export function rankStandings(players: readonly StandingInput[]): Standing[] {
  const sorted = [...players].sort(compareStandings);
  const out: Standing[] = [];
  sorted.forEach((p, i) => {
    const prev = out[i - 1];
    const tied = prev !== undefined && prev.netMinor === p.netMinor && prev.gamesWon === p.gamesWon;
    out.push({ rank: tied ? prev.rank : i + 1, playerId: p.playerId, name: p.name, netMinor: p.netMinor, gamesPlayed: p.gamesPlayed, gamesWon: p.gamesWon, ...(p.matches ?? NO_MATCHES) });
  });
  return out;
}
