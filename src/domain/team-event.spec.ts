import { BoardResult, MAX_BOARDS, scoreTeamEvent, teamBoards } from './team-event';
import { expectRefusal } from './test-helpers';

const open: BoardResult = { winnerSide: null };
const won = (winnerSide: 0 | 1, endedAt?: number): BoardResult => ({ winnerSide, ...(endedAt === undefined ? {} : { endedAt }) });

describe('R3.7 team event line-up', () => {
  it('R3.7 pairs the i-th players of each team on board i, team 0 on side 0', () => {
    expect(
      teamBoards([
        ['a1', 'a2', 'a3'],
        ['b1', 'b2', 'b3'],
      ]),
    ).toEqual([
      [['a1'], ['b1']],
      [['a2'], ['b2']],
      [['a3'], ['b3']],
    ]);
    expect(teamBoards([['a'], ['b']])).toEqual([[['a'], ['b']]]);
  });

  it.each([1, 3, 5, 7, 9])('R3.7 accepts %i boards', (n) => {
    const team = (p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    expect(teamBoards([team('a'), team('b')])).toHaveLength(n);
  });

  it.each([2, 4, 8])('R3.7 refuses %i boards as even', (n) => {
    const team = (p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const e = expectRefusal(() => teamBoards([team('a'), team('b')]), 'BOARDS_EVEN', 'R3.7');
    expect(e.message).toContain('even');
  });

  it('R3.7 refuses more than MAX_BOARDS boards', () => {
    const team = (p: string) => Array.from({ length: MAX_BOARDS + 2 }, (_, i) => `${p}${i}`);
    expectRefusal(() => teamBoards([team('a'), team('b')]), 'TOO_MANY_BOARDS', 'R3.7');
  });

  it('R3.7 refuses teams of different sizes', () => {
    const e = expectRefusal(() => teamBoards([['a1', 'a2', 'a3'], ['b1']]), 'TEAMS_UNEQUAL', 'R3.7');
    expect(e.details).toEqual({ players: [3, 1] });
  });

  it('R3.7 refuses a player named twice, in one team or in both', () => {
    expectRefusal(
      () =>
        teamBoards([
          ['a', 'b', 'a'],
          ['c', 'd', 'e'],
        ]),
      'DUPLICATE_PLAYER',
      'R3.7',
    );
    const e = expectRefusal(
      () =>
        teamBoards([
          ['a', 'b', 'c'],
          ['d', 'b', 'e'],
        ]),
      'DUPLICATE_PLAYER',
      'R3.7',
    );
    expect(e.details).toEqual({ playerId: 'b' });
  });

  it('R3.7 refuses anything but two non-empty teams', () => {
    expectRefusal(() => teamBoards([['a']]), 'INVALID_TEAMS', 'R3.7');
    expectRefusal(() => teamBoards([['a'], ['b'], ['c']]), 'INVALID_TEAMS', 'R3.7');
    expectRefusal(() => teamBoards([[], []]), 'INVALID_TEAMS', 'R3.7');
    expectRefusal(() => teamBoards([['a'], ['']]), 'INVALID_TEAMS', 'R3.7');
  });
});

describe('R3.7 team event score: a majority of the boards wins', () => {
  it('R3.7 is in progress with no board over', () => {
    expect(scoreTeamEvent([open, open, open])).toEqual({ score: [0, 0], majority: 2, status: 'in-progress', winnerTeam: null, decidingBoard: null });
  });

  it('R3.7 counts boards won without deciding before a majority', () => {
    expect(scoreTeamEvent([won(0), open, open])).toMatchObject({ score: [1, 0], status: 'in-progress', winnerTeam: null });
    expect(scoreTeamEvent([won(0), won(1), open])).toMatchObject({ score: [1, 1], status: 'in-progress', winnerTeam: null });
  });

  it('R3.7 is decided by a majority while other boards are still played', () => {
    expect(scoreTeamEvent([won(0, 10), won(0, 20), open])).toEqual({ score: [2, 0], majority: 2, status: 'decided', winnerTeam: 0, decidingBoard: 1 });
    expect(scoreTeamEvent([open, won(1), won(1)])).toMatchObject({ score: [0, 2], status: 'decided', winnerTeam: 1 });
  });

  it('R3.7 is finished when every board is over', () => {
    expect(scoreTeamEvent([won(0, 10), won(0, 20), won(1, 30)])).toEqual({ score: [2, 1], majority: 2, status: 'finished', winnerTeam: 0, decidingBoard: 1 });
    expect(scoreTeamEvent([won(1, 1)])).toEqual({ score: [0, 1], majority: 1, status: 'finished', winnerTeam: 1, decidingBoard: 0 });
  });

  it('R3.7 names the board that gave the winner its majority, by end time', () => {
    // Team 0 won board 3 first, then board 1: board 1 (index 0) decided it; board 2 was lost later.
    expect(scoreTeamEvent([won(0, 50), won(1, 90), won(0, 10)]).decidingBoard).toBe(0);
    // Five boards: team 1's third win decides, whatever the board order.
    expect(scoreTeamEvent([won(1, 5), won(1, 40), won(0, 1), won(1, 20), open])).toMatchObject({ majority: 3, winnerTeam: 1, decidingBoard: 1 });
    // Equal or missing times: board order.
    expect(scoreTeamEvent([won(0), won(0), open]).decidingBoard).toBe(1);
  });

  it('R3.7 reopens the event when a board match is reopened (derived, as a void does, R6.3)', () => {
    const decided = scoreTeamEvent([won(0, 1), won(0, 2), open]);
    expect(decided.status).toBe('decided');
    const afterVoid = scoreTeamEvent([won(0, 1), open, open]);
    expect(afterVoid).toMatchObject({ score: [1, 0], status: 'in-progress', winnerTeam: null, decidingBoard: null });
  });

  it('R3.7 leaves an even event tied at the end without a winner (not creatable, but total)', () => {
    expect(scoreTeamEvent([won(0), won(1)])).toMatchObject({ score: [1, 1], majority: 2, status: 'finished', winnerTeam: null, decidingBoard: null });
  });

  it('R3.7 refuses an event without boards', () => {
    expectRefusal(() => scoreTeamEvent([]), 'INVALID_TEAMS', 'R3.7');
  });
});
