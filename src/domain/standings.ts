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
import { compareParty } from './settlement';

export interface StandingInput {
  readonly playerId: string;
  readonly name: string;
  readonly netMinor: number;
  readonly gamesPlayed: number;
  readonly gamesWon: number;
}

export interface Standing extends StandingInput {
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
    out.push({ rank: tied ? prev.rank : i + 1, playerId: p.playerId, name: p.name, netMinor: p.netMinor, gamesPlayed: p.gamesPlayed, gamesWon: p.gamesWon });
  });
  return out;
}
