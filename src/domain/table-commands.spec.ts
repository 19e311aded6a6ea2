import {
  assertChouetteBetweenGames,
  assertForfeitable,
  assertGameIsLatestResult,
  assertMatchVoidable,
  assertGameInProgress,
  assertLatestFinishedGame,
  assertMatchNotOver,
  assertNoGameInProgress,
  assertPenaltyBetweenGames,
  assertPlayersKnown,
  assertSomethingToUndo,
  assertVoidable,
} from './table-commands';
import { expectRefusal } from './test-helpers';

describe('commands on a table and its games (R6.8, R6.3, R3.6, R3.2, R5.8)', () => {
  describe('R6.8 one game at a time on a table', () => {
    it('starts a game when none is in progress', () => {
      expect(() => assertNoGameInProgress({ currentGameNo: null })).not.toThrow();
    });

    it('refuses the next game while one is in progress', () => {
      const e = expectRefusal(() => assertNoGameInProgress({ currentGameNo: 4 }), 'GAME_IN_PROGRESS', 'R6.8');
      expect(e.message).toBe('Game 4 is still in progress: finish, abandon or void it before the next game starts (R6.8)');
    });
  });

  describe('R3.6 penalty points between games, R3.2 not after the end', () => {
    it('awards them between games of a match in play', () => {
      expect(() => assertPenaltyBetweenGames({ currentGameNo: null })).not.toThrow();
      expect(() => assertMatchNotOver('in-progress')).not.toThrow();
    });

    it('refuses them during a game', () => {
      const e = expectRefusal(() => assertPenaltyBetweenGames({ currentGameNo: 2 }), 'GAME_IN_PROGRESS', 'R3.6');
      expect(e.message).toBe('Penalty points are an adjustment between games; game 2 is in progress (R3.6)');
    });

    it('refuses them once the match is over', () => {
      const e = expectRefusal(() => assertMatchNotOver('finished'), 'MATCH_FINISHED', 'R3.2');
      expect(e.message).toBe('The match is over: no more penalties (R3.2)');
    });
  });

  describe('R5.8 players join and leave a chouette between games', () => {
    it('lets them between games', () => {
      expect(() => assertChouetteBetweenGames({ currentGameNo: null }, 'join')).not.toThrow();
    });

    it('refuses a join or a leave during a game', () => {
      expect(expectRefusal(() => assertChouetteBetweenGames({ currentGameNo: 7 }, 'join'), 'GAME_IN_PROGRESS', 'R5.8').message).toBe(
        'Players join a chouette between games; game 7 is in progress (R5.8)',
      );
      expect(expectRefusal(() => assertChouetteBetweenGames({ currentGameNo: 7 }, 'leave'), 'GAME_IN_PROGRESS', 'R5.8').message).toBe(
        'Players leave a chouette between games; game 7 is in progress (R5.8)',
      );
    });
  });

  describe('R6.3 only the latest finished game is voided, never while a game is in progress', () => {
    it('voids a finished game when no game is in progress', () => {
      expect(() => assertVoidable({ currentGameNo: null }, 3, 'finished')).not.toThrow();
      expect(() => assertLatestFinishedGame(3, 3)).not.toThrow();
    });

    it('refuses while a game is in progress, even a finished game', () => {
      const e = expectRefusal(() => assertVoidable({ currentGameNo: 4 }, 3, 'finished'), 'GAME_IN_PROGRESS', 'R6.3');
      expect(e.message).toBe('Game 4 is in progress: a game can be voided only while none is (R6.3)');
    });

    it.each(['abandoned', 'voided'] as const)('refuses a game that is %s', (status) => {
      const e = expectRefusal(() => assertVoidable({ currentGameNo: null }, 3, status), 'GAME_NOT_FINISHED', 'R6.3');
      expect(e.message).toBe(`Game 3 is ${status}: only a finished game can be voided (R6.3)`);
    });

    it('refuses a finished game that is not the latest', () => {
      const e = expectRefusal(() => assertLatestFinishedGame(2, 5), 'NOT_LATEST_GAME', 'R6.3');
      expect(e.message).toBe("Only the table's most recent finished game (game 5) may be voided (R6.3)");
    });
  });

  describe('R6.3 nothing more happens in a game that is over', () => {
    it('lets actions into a game in progress', () => {
      expect(() => assertGameInProgress(1, 'in-progress')).not.toThrow();
    });

    it('refuses a finished game, pointing at the void', () => {
      const e = expectRefusal(() => assertGameInProgress(1, 'finished'), 'GAME_FINISHED', 'R6.3');
      expect(e.message).toBe('Game 1 is finished: nothing more can happen in it; void it to correct it (R6.3)');
    });

    it.each(['abandoned', 'voided'] as const)('refuses a game that was %s', (status) => {
      const e = expectRefusal(() => assertGameInProgress(1, status), 'GAME_NOT_IN_PROGRESS', 'R6.3');
      expect(e.message).toBe(`Game 1 was ${status}: nothing more can happen in it`);
    });
  });

  describe('undo', () => {
    it('takes back the last action when there is one', () => {
      expect(() => assertSomethingToUndo(1, 1)).not.toThrow();
    });

    it('refuses a game without actions with NOTHING_TO_UNDO (no rule id)', () => {
      const e = expectRefusal(() => assertSomethingToUndo(2, 0), 'NOTHING_TO_UNDO', null);
      expect(e.message).toBe('Game 2 has no action to take back');
    });
  });

  describe("the players a command names belong to the caller's club", () => {
    it('lets it through when none is missing', () => {
      expect(() => assertPlayersKnown([])).not.toThrow();
    });

    it('refuses with UNKNOWN_PLAYER, listing the missing ones', () => {
      const e = expectRefusal(() => assertPlayersKnown(['p1', 'p2']), 'UNKNOWN_PLAYER', null);
      expect(e.message).toBe('No such player in this club: p1, p2');
      expect(e.details).toEqual({ players: ['p1', 'p2'] });
    });
  });

  describe("R3.9 forfeits, R6.3 a match's void", () => {
    it('forfeits a match in play, not one that is over', () => {
      expect(() => assertForfeitable('in-progress')).not.toThrow();
      expectRefusal(() => assertForfeitable('finished'), 'MATCH_FINISHED', 'R3.9');
    });
    it('voids the latest result only while no game is in progress, and needs one', () => {
      expect(() => assertMatchVoidable({ currentGameNo: null }, { kind: 'penalty', seq: 1 })).not.toThrow();
      expectRefusal(() => assertMatchVoidable({ currentGameNo: 3 }, { kind: 'game', gameNo: 2 }), 'GAME_IN_PROGRESS', 'R6.3');
      expectRefusal(() => assertMatchVoidable({ currentGameNo: null }, null), 'NOTHING_TO_VOID', 'R6.3');
    });
    it('voids a match game only while no penalty or forfeit came after it', () => {
      expect(() => assertGameIsLatestResult(2, { kind: 'game', gameNo: 2 })).not.toThrow();
      expectRefusal(() => assertGameIsLatestResult(2, { kind: 'penalty', seq: 1 }), 'NOT_LATEST_GAME', 'R6.3');
      expectRefusal(() => assertGameIsLatestResult(2, { kind: 'forfeit', seq: 1 }), 'NOT_LATEST_GAME', 'R6.3');
    });
  });
});
