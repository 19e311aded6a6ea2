import { assertCanClose, assertPaymentBetweenTwoParties, assertRakeChangeable, assertSessionOpen, assertStakeHasSession } from './session';
import { expectRefusal } from './test-helpers';

describe('sessions (R6.7, R3.8, R6.6)', () => {
  describe('R6.7 a closed session takes no more tables or games', () => {
    it('lets an open session through', () => {
      expect(() => assertSessionOpen({ name: 'Tuesday', status: 'open' })).not.toThrow();
    });

    it('refuses a closed one with SESSION_CLOSED, naming it', () => {
      const e = expectRefusal(() => assertSessionOpen({ name: 'Tuesday', status: 'closed' }), 'SESSION_CLOSED', 'R6.7');
      expect(e.message).toBe('Session "Tuesday" is closed: it takes no more tables or games (R6.7)');
    });
  });

  describe('R6.7 the rake of a closed session is fixed', () => {
    it('lets the rake of an open session change', () => {
      expect(() => assertRakeChangeable({ status: 'open' })).not.toThrow();
    });

    it('refuses it once the session is closed', () => {
      const e = expectRefusal(() => assertRakeChangeable({ status: 'closed' }), 'SESSION_CLOSED', 'R6.7');
      expect(e.message).toBe('The session is closed; its rake can no longer change.');
    });
  });

  describe('R6.7 a session closes only when none of its games is in progress', () => {
    it('closes with no game in progress', () => {
      expect(() => assertCanClose([])).not.toThrow();
    });

    it('refuses with GAMES_IN_PROGRESS, listing every game still being played', () => {
      const e = expectRefusal(
        () =>
          assertCanClose([
            { kind: 'money', tableId: 't1', gameNo: 3 },
            { kind: 'chouette', tableId: 't2', gameNo: 1 },
          ]),
        'GAMES_IN_PROGRESS',
        'R6.7',
      );
      expect(e.message).toBe('Finish or abandon the games still in progress before closing (R6.7): money t1 game 3; chouette t2 game 1');
    });
  });

  describe('R3.8 a stake is paid through a session', () => {
    it('lets a stake with a session through, and no stake (or a zero one) without', () => {
      expect(() => assertStakeHasSession('match', 500, 's1')).not.toThrow();
      expect(() => assertStakeHasSession('match', undefined, undefined)).not.toThrow();
      expect(() => assertStakeHasSession('team event', 0, null)).not.toThrow();
    });

    it('refuses a match with a stake and no session', () => {
      const e = expectRefusal(() => assertStakeHasSession('match', 500, undefined), 'STAKE_NEEDS_SESSION', 'R3.8');
      expect(e.message).toBe('A match with a stake belongs to a session, whose ledger the stake is paid through (R3.8, R6.1)');
    });

    it('refuses a team event with a stake and no session', () => {
      const e = expectRefusal(() => assertStakeHasSession('team event', 1, null), 'STAKE_NEEDS_SESSION', 'R3.8');
      expect(e.message).toBe("A team event with a stake belongs to a session, whose ledger each board's stake is paid through (R3.8, R6.1)");
    });
  });

  describe('R6.6 a payment goes from one party to another', () => {
    it('lets two parties through, the house included', () => {
      expect(() => assertPaymentBetweenTwoParties('p1', 'house')).not.toThrow();
    });

    it('refuses the same party on both ends with SAME_PARTY, naming it', () => {
      const e = expectRefusal(() => assertPaymentBetweenTwoParties('p1', 'p1'), 'SAME_PARTY', 'R6.6');
      expect(e.message).toBe('A payment goes from one party to another: from and to are the same');
      expect(e.details).toEqual({ party: 'p1' });
    });
  });
});
