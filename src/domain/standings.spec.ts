import fc from 'fast-check';
import { matchRecords, rankStandings, StandingInput, StandingMatch } from './standings';

const p = (playerId: string, name: string, netMinor: number, gamesWon: number, gamesPlayed = gamesWon): StandingInput => ({ playerId, name, netMinor, gamesPlayed, gamesWon });

describe('session standings', () => {
  it('orders by net, highest first', () => {
    const board = rankStandings([p('a', 'Ann', -100, 3), p('b', 'Bob', 250, 0), p('c', 'Cid', 0, 9)]);
    expect(board.map((s) => [s.rank, s.name])).toEqual([
      [1, 'Bob'],
      [2, 'Cid'],
      [3, 'Ann'],
    ]);
  });

  it('breaks an equal net by games won, most first, with different ranks', () => {
    const board = rankStandings([p('a', 'Ann', 100, 1), p('b', 'Bob', 100, 4)]);
    expect(board.map((s) => [s.rank, s.name])).toEqual([
      [1, 'Bob'],
      [2, 'Ann'],
    ]);
  });

  it('shares a rank on an exact tie (net and games won) and skips the next (1, 2, 2, 4)', () => {
    const board = rankStandings([p('d', 'Dee', -500, 0), p('c', 'Cid', 100, 2), p('b', 'Bob', 100, 2), p('a', 'Ann', 400, 1)]);
    expect(board.map((s) => [s.rank, s.name])).toEqual([
      [1, 'Ann'],
      [2, 'Bob'],
      [2, 'Cid'],
      [4, 'Dee'],
    ]);
  });

  it('orders tied lines by name, then id; games played does not matter', () => {
    const board = rankStandings([p('z', 'Ann', 0, 0, 5), p('y', 'Bob', 0, 0, 1), p('x', 'Ann', 0, 0, 2)]);
    expect(board.map((s) => [s.rank, s.playerId])).toEqual([
      [1, 'x'],
      [1, 'z'],
      [1, 'y'],
    ]);
  });

  it('keeps every field and leaves its input alone', () => {
    const input = [p('b', 'Bob', 0, 0), p('a', 'Ann', 10, 2, 3)];
    const board = rankStandings(input);
    expect(board[0]).toEqual({ rank: 1, playerId: 'a', name: 'Ann', netMinor: 10, gamesPlayed: 3, gamesWon: 2, matchesWon: 0, matchesLost: 0, forfeitsWon: 0, forfeitsLost: 0 });
    expect(input.map((x) => x.playerId)).toEqual(['b', 'a']);
    expect(rankStandings([])).toEqual([]);
  });

  it('ranks are competition ranks whatever the input order', () => {
    const row = fc.record({ net: fc.integer({ min: -3, max: 3 }), won: fc.integer({ min: 0, max: 2 }), name: fc.constantFrom('Ann', 'Bob', 'Cid') });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), (rows) => {
        const input = rows.map((r, i) => p(`id${String(i).padStart(2, '0')}`, r.name, r.net, r.won));
        const board = rankStandings(input);
        const reversed = rankStandings([...input].reverse());
        expect(reversed).toEqual(board);
        board.forEach((s, i) => {
          // rank = 1 + the number of players strictly better on (net, games won).
          const better = input.filter((o) => o.netMinor > s.netMinor || (o.netMinor === s.netMinor && o.gamesWon > s.gamesWon)).length;
          expect(s.rank).toBe(better + 1);
          if (i > 0) expect(board[i - 1].rank).toBeLessThanOrEqual(s.rank);
        });
      }),
    );
  });

  describe('match records (R3.9)', () => {
    const points = (a: string[], b: string[], winnerSide: 0 | 1): StandingMatch => ({ sides: [a, b], winnerSide, endedBy: { kind: 'points' } });
    const forfeit = (a: string[], b: string[], side: 0 | 1): StandingMatch => ({ sides: [a, b], winnerSide: side === 0 ? 1 : 0, endedBy: { kind: 'forfeit', side, reason: 'lateness' } });

    it('counts a forfeit as a win for the other side, and again as a forfeit on both sides', () => {
      const r = matchRecords([points(['ann'], ['bob'], 0), forfeit(['ann'], ['cid'], 0), forfeit(['bob'], ['cid'], 0)]);
      expect(r.get('ann')).toEqual({ matchesWon: 1, matchesLost: 1, forfeitsWon: 0, forfeitsLost: 1 });
      expect(r.get('bob')).toEqual({ matchesWon: 0, matchesLost: 2, forfeitsWon: 0, forfeitsLost: 1 });
      expect(r.get('cid')).toEqual({ matchesWon: 2, matchesLost: 0, forfeitsWon: 2, forfeitsLost: 0 });
    });

    it("counts a pair's match for both partners", () => {
      const r = matchRecords([forfeit(['ann', 'bob'], ['cid', 'dee'], 1)]);
      expect([...r.entries()].sort()).toEqual([
        ['ann', { matchesWon: 1, matchesLost: 0, forfeitsWon: 1, forfeitsLost: 0 }],
        ['bob', { matchesWon: 1, matchesLost: 0, forfeitsWon: 1, forfeitsLost: 0 }],
        ['cid', { matchesWon: 0, matchesLost: 1, forfeitsWon: 0, forfeitsLost: 1 }],
        ['dee', { matchesWon: 0, matchesLost: 1, forfeitsWon: 0, forfeitsLost: 1 }],
      ]);
    });

    it('rides along on the board without changing its order', () => {
      const board = rankStandings([
        { ...p('a', 'Ann', 0, 1), matches: { matchesWon: 3, matchesLost: 0, forfeitsWon: 3, forfeitsLost: 0 } },
        { ...p('b', 'Bob', 0, 2), matches: { matchesWon: 0, matchesLost: 3, forfeitsWon: 0, forfeitsLost: 3 } },
      ]);
      expect(board.map((s) => [s.rank, s.name, s.matchesWon, s.forfeitsLost])).toEqual([
        [1, 'Bob', 0, 3],
        [2, 'Ann', 3, 0],
      ]);
    });
  });
});
