/**
 * Team events (R3.7): two teams play several matches, one per board; board i pits the
 * i-th player of team 0 against the i-th player of team 1. A team wins the event by
 * winning a majority of the boards, which can happen while other boards still play.
 *
 * The boards are ordinary matches (R3); this module only lines the teams up and
 * reads the boards' results into the team score. Pure: no I/O.
 */
import { refuse } from './errors';
import type { PlayerId, SideIndex } from './types';

/** The most boards an event may have (two teams of nine). */
export const MAX_BOARDS = 9;

/**
 * R3.7: two teams of the same odd number of players (1 to MAX_BOARDS), nobody named
 * twice anywhere. Answers each board's match sides, in board order: team 0's player
 * is side 0, so a board match's `winnerSide` is the winning team.
 */
export function teamBoards(teams: readonly (readonly PlayerId[])[]): Array<[[PlayerId], [PlayerId]]> {
  if (teams.length !== 2 || !teams.every((t) => Array.isArray(t) && t.length >= 1)) {
    refuse('INVALID_TEAMS', 'R3.7', 'A team event is between two teams of at least one player each (R3.7)');
  }
  const [a, b] = teams;
  if (a.length !== b.length) {
    refuse('TEAMS_UNEQUAL', 'R3.7', `Both teams need the same number of players, one per board: ${a.length} against ${b.length} (R3.7)`, {
      players: [a.length, b.length],
    });
  }
  if (a.length > MAX_BOARDS) {
    refuse('TOO_MANY_BOARDS', 'R3.7', `A team event has at most ${MAX_BOARDS} boards; ${a.length} were asked for (R3.7)`, { boards: a.length });
  }
  if (a.length % 2 === 0) {
    refuse('BOARDS_EVEN', 'R3.7', `${a.length} boards is even: a team event has an odd number of boards (1, 3, 5, …) so that a majority always decides it (R3.7)`, {
      boards: a.length,
    });
  }
  const seen = new Set<PlayerId>();
  for (const player of [...a, ...b]) {
    if (typeof player !== 'string' || player.length === 0) {
      refuse('INVALID_TEAMS', 'R3.7', 'Every team member is named by his player id (R3.7)');
    }
    if (seen.has(player)) {
      refuse('DUPLICATE_PLAYER', 'R3.7', `Player ${player} is named twice: a player plays one board for one team (R3.7)`, { playerId: player });
    }
    seen.add(player);
  }
  return a.map((p, i) => [[p], [b[i]]]);
}

/** One board as the event sees it. */
export interface BoardResult {
  /** The board match's winning side (= team), or null while the match is not over. */
  readonly winnerSide: SideIndex | null;
  /** When the board match ended (any increasing number, e.g. epoch ms); breaks ties in `decidingBoard`. */
  readonly endedAt?: number | null;
}

export type TeamEventStatus = 'in-progress' | 'decided' | 'finished';

export interface TeamEventScore {
  /** Boards won by team 0 and by team 1. */
  readonly score: readonly [number, number];
  /** Boards a team must win to win the event: more than half of them. */
  readonly majority: number;
  /**
   * `decided` once a team has won a majority of the boards, even while other boards
   * are still being played; `finished` once every board is over.
   */
  readonly status: TeamEventStatus;
  /** The team that holds a majority, or null. */
  readonly winnerTeam: SideIndex | null;
  /**
   * Index (0-based, in the input) of the board whose result gave the winner its
   * majority: the winner's majority-th won board by end time (board order breaks
   * ties and stands in for a missing time). Null while undecided.
   */
  readonly decidingBoard: number | null;
}

/**
 * R3.7: the team score from the boards' results. Derived, never stored: a voided game
 * that reopens a board match reopens the event by construction.
 */
export function scoreTeamEvent(boards: readonly BoardResult[]): TeamEventScore {
  if (boards.length === 0) refuse('INVALID_TEAMS', 'R3.7', 'A team event has at least one board (R3.7)');
  const score: [number, number] = [0, 0];
  for (const b of boards) if (b.winnerSide !== null) score[b.winnerSide] += 1;
  const majority = Math.floor(boards.length / 2) + 1;
  const winnerTeam: SideIndex | null = score[0] >= majority ? 0 : score[1] >= majority ? 1 : null;
  const allOver = boards.every((b) => b.winnerSide !== null);
  let decidingBoard: number | null = null;
  if (winnerTeam !== null) {
    const won = boards
      .map((b, index) => ({ index, at: b.endedAt ?? Number.POSITIVE_INFINITY, side: b.winnerSide }))
      .filter((b) => b.side === winnerTeam)
      .sort((x, y) => (x.at === y.at ? x.index - y.index : x.at < y.at ? -1 : 1));
    decidingBoard = won[majority - 1].index;
  }
  return {
    score,
    majority,
    status: allOver ? 'finished' : winnerTeam !== null ? 'decided' : 'in-progress',
    winnerTeam,
    decidingBoard,
  };
}
