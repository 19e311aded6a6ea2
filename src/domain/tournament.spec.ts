/**
 * Tournaments (R9): knockout brackets, Swiss rounds, places, corrections, consolation,
 * lateness, clocks and seeding. Every expected value below is worked by hand from the
 * rules; the property tests check the rules' invariants over random draws and results.
 */
import fc from 'fast-check';
import { expectRefusal } from './test-helpers';
import {
  arrivalPenalty,
  bracketSeeds,
  bracketSize,
  clockAllowance,
  consolationEntrants,
  currentPairingOf,
  drawKnockout,
  knockoutFinished,
  knockoutPlaces,
  knockoutStandings,
  laterMatchesOf,
  latenessPenalty,
  pairKey,
  pairingAt,
  pairingOfMatch,
  Pairing,
  PairingResult,
  pairSwissRound,
  readyPairings,
  recordKnockoutResult,
  Round,
  roundDecided,
  SeedInput,
  seedOrder,
  swissHistory,
  swissRound,
  swissStandings,
  targetOf,
  unpairAfter,
  walkovers,
  winnerOf,
  withPairing,
  withPairings,
} from './tournament';
import type { SideIndex } from './types';

const RUNS = 60;
const MIN = 60 * 1000;
const SEC = 1000;

/** Players p1, p2, … in seed order. */
const players = (n: number, prefix = 'p'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

/** A match won on points by `winnerSide`, the score side 0 first. */
const won = (winnerSide: SideIndex, score: readonly [number, number]): PairingResult => ({ winnerSide, endedBy: { kind: 'points' }, score });

/** The result of a pairing between `winner` and the other player, the winner's score first in `byWinner`. */
function resultFor(p: Pairing, winner: string, byWinner: readonly [number, number]): PairingResult {
  const side = p.slots.indexOf(winner);
  if (side !== 0 && side !== 1) throw new Error(`${winner} is not in pairing ${p.no}`);
  return won(side, side === 0 ? [byWinner[0], byWinner[1]] : [byWinner[1], byWinner[0]]);
}

/** Records a knockout result at (round, no) won by `winner`. */
function koWin(rounds: readonly Round[], round: number, no: number, winner: string, out: ReadonlySet<string> = new Set(), score: readonly [number, number] = [5, 2]): Round[] {
  return recordKnockoutResult(rounds, round, no, resultFor(pairingAt(rounds, round, no), winner, score), out);
}

/** The pairings of a round as [side 0, side 1, bye]. */
const shape = (r: Round) => r.pairings.map((p) => [p.slots[0], p.slots[1], p.bye]);

/** The two players of each pairing of a round, as sorted seed numbers (byes as [seed]). */
const seedPairs = (order: number[]) => Array.from({ length: order.length / 2 }, (_, i) => [order[2 * i], order[2 * i + 1]].sort((a, b) => a - b));

describe('R9.1 round targets', () => {
  it('R9.1: each round has its own target and the last one given repeats', () => {
    expect([1, 2, 3, 4, 5].map((r) => targetOf([3, 5, 7], r))).toEqual([3, 5, 7, 7, 7]);
    const rounds = drawKnockout(players(16), [3, 5]);
    expect(rounds.map((r) => r.target)).toEqual([3, 5, 5, 5]);
  });
});

describe('R9.3 knockout draw', () => {
  it('R9.3: the bracket is the next power of two at or above the entries', () => {
    expect([2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 33, 64, 65].map(bracketSize)).toEqual([2, 4, 4, 8, 8, 8, 8, 16, 16, 32, 64, 64, 128]);
  });

  it('R9.2: a flight needs at least 2 entries', () => {
    expectRefusal(() => bracketSize(1), 'TOO_FEW_ENTRIES', 'R9.2');
    expectRefusal(() => bracketSize(0), 'TOO_FEW_ENTRIES', 'R9.2');
    expectRefusal(() => drawKnockout(['p1'], [5]), 'TOO_FEW_ENTRIES', 'R9.2');
  });

  it('R9.3: the 8-bracket from the top is 1–8, 4–5, 3–6, 2–7', () => {
    expect(seedPairs(bracketSeeds(8))).toEqual([
      [1, 8],
      [4, 5],
      [3, 6],
      [2, 7],
    ]);
    expect(seedPairs(bracketSeeds(4))).toEqual([
      [1, 4],
      [2, 3],
    ]);
    expect(seedPairs(bracketSeeds(2))).toEqual([[1, 2]]);
  });

  it('R9.3: 16 positions: 1 meets 16, 2 meets 15, …, and with the better seeds winning round 2 is the 8-bracket 1–8, 4–5, 3–6, 2–7', () => {
    const pairs = seedPairs(bracketSeeds(16));
    expect(pairs).toHaveLength(8);
    for (const [a, b] of pairs) expect(a + b).toBe(17);
    expect(pairs[0]).toEqual([1, 16]);
    // Each neighbouring two pairings feed one pairing of round 2: better seeds winning, that is the 8-bracket in order.
    const feeders = [0, 1, 2, 3].map((i) => [pairs[2 * i], pairs[2 * i + 1]].sort((x, y) => x[0] - y[0]));
    expect(feeders).toEqual([
      [
        [1, 16],
        [8, 9],
      ],
      [
        [4, 13],
        [5, 12],
      ],
      [
        [3, 14],
        [6, 11],
      ],
      [
        [2, 15],
        [7, 10],
      ],
    ]);
    // Seeds 1 and 2 are in opposite halves: they can meet only in the final.
    const order = bracketSeeds(16);
    expect(order.indexOf(1)).toBeLessThan(8);
    expect(order.indexOf(2)).toBeGreaterThanOrEqual(8);
  });

  it('R9.3: a full 8-player draw pairs 1–8, 4–5, 3–6, 2–7 with nothing decided and empty later rounds', () => {
    const rounds = drawKnockout(players(8), [5]);
    expect(rounds.map((r) => r.pairings.length)).toEqual([4, 2, 1]);
    expect(shape(rounds[0]).map(([a, b]) => [a, b].sort())).toEqual([
      ['p1', 'p8'],
      ['p4', 'p5'],
      ['p3', 'p6'],
      ['p2', 'p7'],
    ]);
    expect(rounds[0].pairings.every((p) => p.bye === null && p.result === null && p.matchId === null)).toBe(true);
    expect(rounds[1].pairings.every((p) => p.slots[0] === null && p.slots[1] === null)).toBe(true);
    expect(readyPairings(rounds)).toHaveLength(4);
  });

  it('R9.3: 6 players: bracket 8, byes to seeds 1 and 2, whose winners are already in round 2; round 1 is 1 (bye), 4 v 5, 3 v 6, 2 (bye)', () => {
    const rounds = drawKnockout(players(6), [5]);
    expect(rounds).toHaveLength(3);
    // Round 1 exactly (the better seed on side 0; a bye is a pairing with an empty slot).
    expect(rounds[0].pairings).toEqual([
      { no: 1, slots: ['p1', null], bye: 'p1', matchId: null, result: null },
      { no: 2, slots: ['p4', 'p5'], bye: null, matchId: null, result: null },
      { no: 3, slots: ['p3', 'p6'], bye: null, matchId: null, result: null },
      { no: 4, slots: ['p2', null], bye: 'p2', matchId: null, result: null },
    ]);
    // The byes' winners sit in round 2 (side 0 fed by the upper pairing), waiting for 4 v 5 and 3 v 6.
    expect(shape(rounds[1])).toEqual([
      ['p1', null, null],
      [null, 'p2', null],
    ]);
    expect(shape(rounds[2])).toEqual([[null, null, null]]);
    // A bye wins its round without a match: only 4 v 5 and 3 v 6 are to be played.
    expect(readyPairings(rounds)).toEqual([
      { round: 1, pairing: 2, sides: ['p4', 'p5'] },
      { round: 1, pairing: 3, sides: ['p3', 'p6'] },
    ]);
    expect(winnerOf(rounds[0].pairings[0])).toBe('p1');
    expect(winnerOf(rounds[0].pairings[3])).toBe('p2');
  });

  it('R9.3: the byes (bracket size − entries) go to the top seeds', () => {
    const byes = (n: number) => drawKnockout(players(n), [5])[0].pairings.flatMap((p) => (p.bye === null ? [] : [p.bye]));
    expect(byes(3).sort()).toEqual(['p1']);
    expect(byes(5).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(byes(12).sort()).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(byes(8)).toEqual([]);
  });

  it('R9.3: a winner meets the winner of the neighbouring pairing as soon as both are known', () => {
    let rounds = drawKnockout(players(6), [5]);
    rounds = koWin(rounds, 1, 2, 'p5'); // 4 v 5: 5 wins
    expect(shape(rounds[1])).toEqual([
      ['p1', 'p5', null],
      [null, 'p2', null],
    ]);
    expect(readyPairings(rounds)).toEqual([
      { round: 1, pairing: 3, sides: ['p3', 'p6'] },
      { round: 2, pairing: 1, sides: ['p1', 'p5'] },
    ]);
    rounds = koWin(rounds, 2, 1, 'p5'); // 1 v 5: 5 wins; the final waits for the other semi-final
    expect(shape(rounds[2])).toEqual([['p5', null, null]]);
    expect(readyPairings(rounds).map((r) => r.sides)).toEqual([['p3', 'p6']]);
    rounds = koWin(rounds, 1, 3, 'p6');
    expect(shape(rounds[1])[1]).toEqual(['p6', 'p2', null]);
    rounds = koWin(rounds, 2, 2, 'p2');
    expect(readyPairings(rounds)).toEqual([{ round: 3, pairing: 1, sides: ['p5', 'p2'] }]);
    expect(knockoutFinished(rounds)).toBe(false);
    rounds = koWin(rounds, 3, 1, 'p2');
    expect(knockoutFinished(rounds)).toBe(true);
    expect(readyPairings(rounds)).toEqual([]);
  });
});

describe('R9.5 knockout places', () => {
  /** 8 players, the better seed winning except 5 over 4 and 6 over 3 in round 1, then 2 over 6, 5 over 1 and 2 over 5. */
  function playedEight(): Round[] {
    let r = drawKnockout(players(8), [5]);
    r = koWin(r, 1, 1, 'p1', new Set(), [5, 0]);
    r = koWin(r, 1, 2, 'p5', new Set(), [5, 4]);
    r = koWin(r, 1, 3, 'p6', new Set(), [5, 3]);
    r = koWin(r, 1, 4, 'p2', new Set(), [5, 1]);
    r = koWin(r, 2, 1, 'p5', new Set(), [5, 2]);
    r = koWin(r, 2, 2, 'p2', new Set(), [5, 3]);
    return koWin(r, 3, 1, 'p2', new Set(), [5, 4]);
  }

  it('R9.5: the final winner is 1st, its loser 2nd, the semi-final losers 3rd equal, the quarter-final losers 5th equal', () => {
    const places = knockoutPlaces(playedEight());
    expect(Object.fromEntries([...places].sort())).toEqual({ p1: 3, p2: 1, p3: 5, p4: 5, p5: 2, p6: 3, p7: 5, p8: 5 });
  });

  it('R9.5: players still in have no place; the knockout is finished when the final ends', () => {
    let r = drawKnockout(players(4), [5]);
    r = koWin(r, 1, 1, 'p1');
    expect(Object.fromEntries(knockoutPlaces(r))).toEqual({ p4: 3 });
    expect(knockoutFinished(r)).toBe(false);
  });

  it('R9.5: knockout standings list the places (equal places by seed), with wins and points', () => {
    const lines = knockoutStandings(players(8), playedEight());
    expect(lines.map((l) => [l.playerId, l.place])).toEqual([
      ['p2', 1],
      ['p5', 2],
      ['p1', 3],
      ['p6', 3],
      ['p3', 5],
      ['p4', 5],
      ['p7', 5],
      ['p8', 5],
    ]);
    const p2 = lines[0];
    expect([p2.wins, p2.pointsFor, p2.pointsAgainst]).toEqual([3, 15, 8]);
    const p5 = lines[1];
    expect([p5.wins, p5.pointsFor, p5.pointsAgainst]).toEqual([2, 14, 11]);
  });

  it('R9.5: with byes, 6 players place 1, 2, 3, 3, 5, 5 (the round-1 losers of the 8-bracket are quarter-final losers)', () => {
    let r = drawKnockout(players(6), [5]);
    r = koWin(r, 1, 2, 'p4');
    r = koWin(r, 1, 3, 'p3');
    r = koWin(r, 2, 1, 'p1');
    r = koWin(r, 2, 2, 'p3');
    r = koWin(r, 3, 1, 'p3');
    expect(Object.fromEntries([...knockoutPlaces(r)].sort())).toEqual({ p1: 2, p2: 3, p3: 1, p4: 3, p5: 5, p6: 5 });
  });
});

describe('R9.8 withdrawals in a knockout', () => {
  it('R9.8: a player who has left gets a walkover against him: his opponent advances at once, without a match', () => {
    const rounds = walkovers(drawKnockout(players(4), [5]), new Set(['p4']));
    const p = rounds[0].pairings[0];
    expect(p.slots).toEqual(['p1', 'p4']);
    expect(p.matchId).toBeNull();
    expect(winnerOf(p)).toBe('p1');
    expect(p.result).toEqual({ winnerSide: 0, endedBy: { kind: 'forfeit', side: 1, reason: 'withdrawal' }, score: [0, 0] });
    expect(rounds[1].pairings[0].slots[0]).toBe('p1');
    expect(readyPairings(rounds)).toEqual([{ round: 1, pairing: 2, sides: ['p2', 'p3'] }]);
  });

  it('R9.8: in a knockout his next opponent advances by forfeit as soon as he is known', () => {
    let r = drawKnockout(players(8), [5]);
    r = koWin(r, 1, 3, 'p3');
    const out = new Set(['p3']); // p3 leaves after winning round 1
    r = koWin(r, 1, 4, 'p2', out);
    const semi = r[1].pairings[1];
    expect(semi.slots).toEqual(['p3', 'p2']);
    expect(winnerOf(semi)).toBe('p2');
    expect(semi.result?.endedBy).toEqual({ kind: 'forfeit', side: 0, reason: 'withdrawal' });
    expect(r[2].pairings[0].slots[1]).toBe('p2');
    expect(readyPairings(r).some((x) => x.sides.includes('p3'))).toBe(false);
  });

  it('R9.8: a pairing whose match exists is not walked over here (the player forfeits his current match, R3.9)', () => {
    const drawn = withPairing(drawKnockout(players(4), [5]), { round: 1, pairing: 1 }, { matchId: 'm1' });
    const r = walkovers(drawn, new Set(['p4']));
    expect(r[0].pairings[0].result).toBeNull();
    expect(currentPairingOf(r, 'p4')).toEqual({ round: 1, pairing: 1, side: 1, matchId: 'm1' });
    expect(currentPairingOf(r, 'p1')).toEqual({ round: 1, pairing: 1, side: 0, matchId: 'm1' });
    expect(currentPairingOf(r, 'p2')).toBeNull();
  });
});

describe('R9.10 knockout corrections', () => {
  /** 4 players: 1 beats 4 and 2 beats 3; the final's match is m-final. */
  function fourToFinal(): Round[] {
    let r = drawKnockout(players(4), [5]);
    r = withPairing(r, { round: 1, pairing: 1 }, { matchId: 'm1' });
    r = withPairing(r, { round: 1, pairing: 2 }, { matchId: 'm2' });
    r = koWin(r, 1, 1, 'p1');
    r = koWin(r, 1, 2, 'p2');
    return withPairing(r, { round: 2, pairing: 1 }, { matchId: 'm-final' });
  }

  it('R9.10: the later matches of a pairing are its players’ matches of later rounds', () => {
    const r = fourToFinal();
    expect(pairingOfMatch(r, 'm-final')).toEqual({ round: 2, pairing: 1 });
    expect(pairingOfMatch(r, 'm1')).toEqual({ round: 1, pairing: 1 });
    expect(pairingOfMatch(r, 'nope')).toBeNull();
    expect(laterMatchesOf(r, { round: 1, pairing: 1 })).toEqual(['m-final']);
    expect(laterMatchesOf(r, { round: 2, pairing: 1 })).toEqual([]);
  });

  it('R9.10: a voided result withdraws the pairing it fed (and its match) until the result is known again', () => {
    let r = recordKnockoutResult(fourToFinal(), 1, 1, null);
    expect(r[0].pairings[0].result).toBeNull();
    expect(r[0].pairings[0].matchId).toBe('m1');
    expect(r[1].pairings[0]).toEqual({ no: 1, slots: [null, 'p2'], bye: null, matchId: null, result: null });
    expect(readyPairings(r)).toEqual([]);
    r = koWin(r, 1, 1, 'p4');
    expect(readyPairings(r)).toEqual([{ round: 2, pairing: 1, sides: ['p4', 'p2'] }]);
  });

  it('R9.10: a voided result also withdraws what a walkover it fed had carried further', () => {
    const out = new Set(['p4']);
    let r = drawKnockout(players(8), [5]);
    r = koWin(r, 1, 2, 'p4', out); // p4 beats p5, then leaves
    r = withPairing(r, { round: 1, pairing: 1 }, { matchId: 'm1' });
    r = koWin(r, 1, 1, 'p1', out); // p1 beats p8: the semi-final 1 v 4 is a walkover, p1 goes to the final
    expect(r[2].pairings[0].slots[0]).toBe('p1');
    r = koWin(r, 1, 3, 'p3', out);
    r = koWin(r, 1, 4, 'p2', out);
    r = koWin(r, 2, 2, 'p2', out);
    r = withPairing(r, { round: 3, pairing: 1 }, { matchId: 'm-final' });
    // No game of p1 or p8 has started in a later match: the correction is allowed, and it voids p1 v p8.
    expect(laterMatchesOf(r, { round: 1, pairing: 1 })).toEqual(['m-final']);
    r = recordKnockoutResult(r, 1, 1, null, out);
    expect(winnerOf(r[1].pairings[0])).toBeNull();
    // p1's semi-final is no longer decided: he is not in the final, whose match is withdrawn.
    expect(r[2].pairings[0].slots).toEqual([null, 'p2']);
    expect(r[2].pairings[0].matchId).toBeNull();
    expect(readyPairings(r)).toEqual([]);
    // The result known again: p8 won; the walkover carries him to the final, a new pairing to play.
    r = koWin(r, 1, 1, 'p8', out);
    expect(r[2].pairings[0].slots).toEqual(['p8', 'p2']);
    expect(r[2].pairings[0].matchId).toBeNull();
    expect(readyPairings(r)).toEqual([{ round: 3, pairing: 1, sides: ['p8', 'p2'] }]);
  });
});

describe('R9.11 consolation', () => {
  it('R9.11: the losers of their first match played (a bye is not a match) enter the consolation in seed order, once all are known', () => {
    const seeded = players(6);
    let r = drawKnockout(seeded, [5]);
    expect(consolationEntrants(seeded, r)).toBeNull();
    r = koWin(r, 1, 2, 'p5'); // p4 loses his first match
    r = koWin(r, 1, 3, 'p3'); // p6 loses his first match
    // p1 and p2 had byes: their first match played is in round 2, still to come.
    expect(consolationEntrants(seeded, r)).toBeNull();
    r = koWin(r, 2, 1, 'p5'); // p1 loses his first match played
    expect(consolationEntrants(seeded, r)).toBeNull();
    r = koWin(r, 2, 2, 'p2'); // p2 wins his; p3 had already won his first
    expect(consolationEntrants(seeded, r)).toEqual(['p1', 'p4', 'p6']);
  });

  it('R9.11: the consolation is drawn as R9.3 in the losers’ seed order, and has its own places', () => {
    let c = drawKnockout(['p1', 'p4', 'p6'], [5]);
    expect(shape(c[0])).toEqual([
      ['p1', null, 'p1'],
      ['p4', 'p6', null],
    ]);
    c = koWin(c, 1, 2, 'p6');
    c = koWin(c, 2, 1, 'p1');
    expect(Object.fromEntries([...knockoutPlaces(c)].sort())).toEqual({ p1: 1, p4: 3, p6: 2 });
  });

  it('R9.11: a walkover is not a match played: who advances by one and then loses his first match enters the consolation', () => {
    const seeded = players(4);
    const out = new Set(['p4']);
    let r = walkovers(drawKnockout(seeded, [5]), out); // p1 advances by walkover over p4
    r = koWin(r, 1, 2, 'p2', out);
    r = koWin(r, 2, 1, 'p2', out); // p1 loses the final, his first match played
    // p3 lost his first match to p2; p1's first match played is the final; p4 left and enters nothing.
    expect(consolationEntrants(seeded, r)).toEqual(['p1', 'p3']);
  });
});

// ---- Swiss (R9.4) -----------------------------------------------------------------------

/** Pairs the next Swiss round from the standings and history, as the rules order it. */
function nextSwiss(seeded: readonly string[], rounds: readonly Round[], target = 5): Round[] {
  const ranked = swissStandings(seeded, rounds).map((s) => s.playerId);
  const { met, hadBye } = swissHistory(rounds);
  const no = rounds.length + 1;
  return [...rounds, swissRound(no, target, pairSwissRound(ranked, no, met, hadBye))];
}

/** Records the result of the pairing of `round` between `winner` and `loser`. */
function swissWin(rounds: readonly Round[], round: number, winner: string, loser: string, score: readonly [number, number]): Round[] {
  const p = rounds[round - 1].pairings.find((q) => q.slots.includes(winner) && q.slots.includes(loser));
  if (!p) throw new Error(`${winner} and ${loser} are not paired in round ${round}`);
  return withPairing(rounds, { round, pairing: p.no }, { result: resultFor(p, winner, score) });
}

const S7 = players(7, 's');

/** Round 1 of the 7-player Swiss, played: 1 beats 4 5-2, 5 beats 2 5-3, 3 beats 6 5-0. */
function swissAfterRound1(): Round[] {
  let r = nextSwiss(S7, []);
  r = swissWin(r, 1, 's1', 's4', [5, 2]);
  r = swissWin(r, 1, 's5', 's2', [5, 3]);
  return swissWin(r, 1, 's3', 's6', [5, 0]);
}

/** Round 2 played too: 3 beats 1 5-4, 7 beats 5 5-1, 4 beats 2 5-3. */
function swissAfterRound2(): Round[] {
  let r = nextSwiss(S7, swissAfterRound1());
  r = swissWin(r, 2, 's3', 's1', [5, 4]);
  r = swissWin(r, 2, 's7', 's5', [5, 1]);
  return swissWin(r, 2, 's4', 's2', [5, 3]);
}

describe('R9.4 Swiss: 7 players over 3 rounds', () => {
  it('R9.4: before round 1 the ranking is by seed', () => {
    expect(swissStandings(S7, []).map((s) => [s.playerId, s.place, s.wins, s.buchholz])).toEqual(S7.map((id, i) => [id, i + 1, 0, 0]));
  });

  it('R9.4: round 1 gives the bye to the lowest seed and pairs the other six 1 v 4, 2 v 5, 3 v 6', () => {
    const [r1] = nextSwiss(S7, []);
    expect(shape(r1)).toEqual([
      ['s1', 's4', null],
      ['s2', 's5', null],
      ['s3', 's6', null],
      ['s7', null, 's7'],
    ]);
    expect(roundDecided(r1)).toBe(false);
  });

  it('R9.4: the ranking after round 1: wins, then Buchholz, then points won minus lost', () => {
    const rounds = swissAfterRound1();
    expect(roundDecided(rounds[0])).toBe(true);
    // Winners (and the bye) have Buchholz 0 (their opponents have no win; a bye adds nothing): by points, +5, +3, +2, 0.
    // Losers have Buchholz 1: by points, −2, −3, −5.
    expect(swissStandings(S7, rounds).map((s) => [s.playerId, s.wins, s.buchholz, s.pointsFor - s.pointsAgainst])).toEqual([
      ['s3', 1, 0, 5],
      ['s1', 1, 0, 3],
      ['s5', 1, 0, 2],
      ['s7', 1, 0, 0],
      ['s2', 0, 1, -2],
      ['s4', 0, 1, -3],
      ['s6', 0, 1, -5],
    ]);
  });

  it('R9.4: round 2: the bye to the lowest-ranked without one, then each from the top with the best below he has not met', () => {
    const rounds = nextSwiss(S7, swissAfterRound1());
    expect(shape(rounds[1])).toEqual([
      ['s3', 's1', null],
      ['s5', 's7', null],
      ['s2', 's4', null],
      ['s6', null, 's6'],
    ]);
  });

  it('R9.4: round 3 after round 2: ranking s3, s7, s1, s5, s6, s4, s2; bye to s2; s3 v s7, s1 v s5, s6 v s4', () => {
    const after2 = swissAfterRound2();
    // s3 2 wins (B 2), s7 2 (B 1); s1 1 (B 3), s5 1 (B 2, −2), s6 1 (B 2, −5), s4 1 (B 1); s2 0.
    expect(swissStandings(S7, after2).map((s) => [s.playerId, s.wins, s.buchholz, s.pointsFor - s.pointsAgainst])).toEqual([
      ['s3', 2, 2, 6],
      ['s7', 2, 1, 4],
      ['s1', 1, 3, 2],
      ['s5', 1, 2, -2],
      ['s6', 1, 2, -5],
      ['s4', 1, 1, -1],
      ['s2', 0, 2, -4],
    ]);
    const rounds = nextSwiss(S7, after2);
    expect(shape(rounds[2])).toEqual([
      ['s3', 's7', null],
      ['s1', 's5', null],
      ['s6', 's4', null],
      ['s2', null, 's2'],
    ]);
  });

  it('R9.4, R9.5: the final standings after 3 rounds: wins, then Buchholz, then points, every player his own place', () => {
    let r = nextSwiss(S7, swissAfterRound2());
    r = swissWin(r, 3, 's3', 's7', [5, 2]);
    r = swissWin(r, 3, 's5', 's1', [5, 4]);
    r = swissWin(r, 3, 's4', 's6', [5, 0]);
    expect(roundDecided(r[2])).toBe(true);
    expect(swissStandings(S7, r)).toEqual([
      { playerId: 's3', place: 1, wins: 3, buchholz: 4, pointsFor: 15, pointsAgainst: 6 },
      { playerId: 's7', place: 2, wins: 2, buchholz: 5, pointsFor: 7, pointsAgainst: 6 },
      { playerId: 's5', place: 3, wins: 2, buchholz: 4, pointsFor: 11, pointsAgainst: 12 },
      { playerId: 's4', place: 4, wins: 2, buchholz: 3, pointsFor: 12, pointsAgainst: 8 },
      { playerId: 's1', place: 5, wins: 1, buchholz: 7, pointsFor: 13, pointsAgainst: 12 },
      { playerId: 's6', place: 6, wins: 1, buchholz: 5, pointsFor: 0, pointsAgainst: 10 },
      { playerId: 's2', place: 7, wins: 1, buchholz: 4, pointsFor: 6, pointsAgainst: 10 },
    ]);
    // Three byes, three different players.
    expect([...swissHistory(r).hadBye].sort()).toEqual(['s2', 's6', 's7']);
  });
});

describe('R9.4 Swiss pairing rules', () => {
  it('R9.4: the last tiebreak is the seed', () => {
    let r = nextSwiss(players(4), []);
    expect(shape(r[0])).toEqual([
      ['p1', 'p3', null],
      ['p2', 'p4', null],
    ]);
    r = swissWin(r, 1, 'p1', 'p3', [5, 3]);
    r = swissWin(r, 1, 'p2', 'p4', [5, 3]);
    expect(swissStandings(players(4), r).map((s) => s.playerId)).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('R9.4: points won minus lost come before the seed', () => {
    let r = nextSwiss(players(4), []);
    r = swissWin(r, 1, 'p1', 'p3', [5, 3]);
    r = swissWin(r, 1, 'p2', 'p4', [5, 0]);
    expect(swissStandings(players(4), r).map((s) => s.playerId)).toEqual(['p2', 'p1', 'p3', 'p4']);
  });

  it('R9.4: where a pairing would leave a player without an opponent, the last pairing is undone and the next candidate tried', () => {
    // a–b leaves c–d (met); a–c leaves b–d (met); so a–d and b–c.
    const met = new Set([pairKey('c', 'd'), pairKey('d', 'b')]);
    expect(pairSwissRound(['a', 'b', 'c', 'd'], 2, met, new Set())).toEqual({
      pairs: [
        ['a', 'd'],
        ['b', 'c'],
      ],
      bye: null,
    });
  });

  it('R9.4: each pairs with the highest-ranked unpaired player below him whom he has not met', () => {
    const met = new Set([pairKey('a', 'b'), pairKey('c', 'd')]);
    expect(pairSwissRound(['a', 'b', 'c', 'd', 'e', 'f'], 2, met, new Set()).pairs).toEqual([
      ['a', 'c'],
      ['b', 'd'],
      ['e', 'f'],
    ]);
  });

  it('R9.4: two players meet twice only when no pairing avoids it', () => {
    const ids = ['a', 'b', 'c', 'd'];
    const everyone = new Set(ids.flatMap((x) => ids.filter((y) => y > x).map((y) => pairKey(x, y))));
    const { pairs, bye } = pairSwissRound(ids, 4, everyone, new Set());
    expect(bye).toBeNull();
    expect(pairs.flat().sort()).toEqual(ids);
  });

  it('R9.4: the bye goes to the lowest-ranked player who has not had one', () => {
    expect(pairSwissRound(['a', 'b', 'c', 'd', 'e'], 3, new Set(), new Set(['e'])).bye).toBe('d');
    expect(pairSwissRound(['a', 'b', 'c', 'd', 'e'], 3, new Set(), new Set(['e', 'd', 'c'])).bye).toBe('b');
    expect(pairSwissRound(['a', 'b', 'c', 'd'], 3, new Set(), new Set()).bye).toBeNull();
  });

  it('R9.4: a bye is a win without a match and adds nothing to Buchholz', () => {
    const [r1] = nextSwiss(players(3), []);
    expect(shape(r1)).toEqual([
      ['p1', 'p2', null],
      ['p3', null, 'p3'],
    ]);
    expect(readyPairings([r1])).toEqual([{ round: 1, pairing: 1, sides: ['p1', 'p2'] }]);
    const r = swissWin([r1], 1, 'p2', 'p1', [5, 1]);
    const lines = swissStandings(players(3), r);
    expect(lines.map((l) => [l.playerId, l.wins, l.buchholz])).toEqual([
      ['p2', 1, 0],
      ['p3', 1, 0],
      ['p1', 0, 1],
    ]);
  });
});

describe('R9.10 Swiss corrections', () => {
  it('R9.10: a result voided after the next round was paired takes back its players’ pairings of that round, opponents with them', () => {
    let r = nextSwiss(S7, swissAfterRound1());
    r = withPairing(r, { round: 2, pairing: 1 }, { matchId: 'm2.1' });
    r = withPairing(r, { round: 2, pairing: 2 }, { matchId: 'm2.2' });
    r = withPairing(r, { round: 2, pairing: 3 }, { matchId: 'm2.3' });
    // s1 v s4 of round 1 is corrected: s1 plays s3 in round 2 (m2.1), s4 plays s2 (m2.3).
    const ref = { round: 1, pairing: 1 };
    expect(laterMatchesOf(r, ref).sort()).toEqual(['m2.1', 'm2.3']);
    r = withPairing(r, ref, { result: null });
    const { rounds, removed } = unpairAfter(r, ref);
    expect(removed.sort()).toEqual(['m2.1', 'm2.3']);
    expect(shape(rounds[1])).toEqual([
      ['s5', 's7', null],
      ['s6', null, 's6'],
    ]);
    expect(rounds[1].pairings.map((p) => p.no)).toEqual([1, 2]);
    // The result known again (s4 won), the four are paired again among themselves.
    const fixed = withPairing(rounds, ref, { result: resultFor(pairingAt(rounds, 1, 1), 's4', [5, 4]) });
    const free = new Set(['s1', 's2', 's3', 's4']);
    const ranked = swissStandings(S7, [fixed[0]])
      .map((s) => s.playerId)
      .filter((id) => free.has(id));
    const { met, hadBye } = swissHistory([fixed[0]]);
    const again = withPairings(fixed, 2, pairSwissRound(ranked, 2, met, hadBye));
    expect(again[1].pairings.map((p) => p.no)).toEqual([1, 2, 3, 4]);
    expect(again[1].pairings.flatMap((p) => p.slots.filter((s) => s !== null)).sort()).toEqual(S7);
    for (const p of again[1].pairings.slice(2)) expect(met.has(pairKey(p.slots[0] as string, p.slots[1] as string))).toBe(false);
  });
});

// ---- lateness, clocks, seeding (R9.6, R9.7, R9.3) -----------------------------------------

describe('R9.6 lateness', () => {
  it('R9.6: one point for every full 5 minutes late: 4:59 none, 5:00 one, 14:59 two, 15:00 three', () => {
    const points = (ms: number) => latenessPenalty(ms, 11).points;
    expect(points(0)).toBe(0);
    expect(points(4 * MIN + 59 * SEC)).toBe(0);
    expect(points(5 * MIN)).toBe(1);
    expect(points(9 * MIN + 59 * SEC)).toBe(1);
    expect(points(10 * MIN)).toBe(2);
    expect(points(14 * MIN + 59 * SEC)).toBe(2);
    expect(points(15 * MIN)).toBe(3);
    expect(points(-3 * MIN)).toBe(0);
  });

  it('R9.6: the penalty carries the minutes late', () => {
    expect(latenessPenalty(5 * MIN, 11).minutes).toBe(5);
    expect(latenessPenalty(15 * MIN, 11).minutes).toBe(15);
  });

  it('R9.6: the match is forfeited when the points exceed half the target', () => {
    // Target 5: half is 2.5; 2 points play on, 3 forfeit.
    expect(latenessPenalty(14 * MIN + 59 * SEC, 5)).toMatchObject({ points: 2, forfeit: false });
    expect(latenessPenalty(15 * MIN, 5)).toMatchObject({ points: 3, forfeit: true });
    // Target 7: half is 3.5; 3 points play on, 4 forfeit.
    expect(latenessPenalty(19 * MIN + 59 * SEC, 7)).toMatchObject({ points: 3, forfeit: false });
    expect(latenessPenalty(20 * MIN, 7)).toMatchObject({ points: 4, forfeit: true });
    // Target 6: exactly half (3) does not exceed it.
    expect(latenessPenalty(15 * MIN, 6)).toMatchObject({ points: 3, forfeit: false });
    // Target 1: a single point is more than half.
    expect(latenessPenalty(5 * MIN, 1)).toMatchObject({ points: 1, forfeit: true });
    expect(latenessPenalty(4 * MIN, 1)).toMatchObject({ points: 0, forfeit: false });
  });

  it('R9.6: an arrival is judged from the scheduled start; a match without one cannot judge lateness', () => {
    expect(arrivalPenalty('2025-03-01T19:00:00.000Z', new Date('2025-03-01T19:10:30.000Z'), 7)).toEqual({ points: 2, minutes: 10, forfeit: false });
    expect(arrivalPenalty('2025-03-01T19:00:00.000Z', new Date('2025-03-01T18:55:00.000Z'), 7).points).toBe(0);
    expectRefusal(() => arrivalPenalty(undefined, new Date(), 7), 'NOT_SCHEDULED', 'R9.6');
  });
});

describe('R9.7 clocks', () => {
  it('R9.7: 2 minutes per match point for each player, and a 12-second delay per move', () => {
    expect(clockAllowance(7)).toEqual({ perPlayerMs: 14 * MIN, delayMs: 12 * SEC });
    expect(clockAllowance(11)).toEqual({ perPlayerMs: 22 * MIN, delayMs: 12 * SEC });
    expect(clockAllowance(1)).toEqual({ perPlayerMs: 2 * MIN, delayMs: 12 * SEC });
  });

  it('R9.7: a clock brought in mid-match gives each (RA + RB) × 2 minutes', () => {
    // 7-point match at 3–5: RA = 4, RB = 2 → 12 minutes each.
    expect(clockAllowance(7, [3, 5])).toEqual({ perPlayerMs: 12 * MIN, delayMs: 12 * SEC });
    // 11-point match at 10–9: RA = 1, RB = 2 → 6 minutes each.
    expect(clockAllowance(11, [10, 9]).perPlayerMs).toBe(6 * MIN);
    // At 0–0 both still need the whole target: (7 + 7) × 2 = 28 minutes.
    expect(clockAllowance(7, [0, 0]).perPlayerMs).toBe(28 * MIN);
  });
});

describe('R9.3 seeding', () => {
  const entry = (playerId: string, entryNo: number, rating: number, seed: number | null = null): SeedInput => ({ playerId, entryNo, rating, seed });

  it('R9.3: by club rating, higher first, equal ratings by entry order', () => {
    const entries = [entry('d', 4, 1500), entry('a', 1, 1500), entry('c', 3, 1720), entry('b', 2, 1380), entry('e', 5, 1720)];
    expect(seedOrder(entries, 'rating')).toEqual(['c', 'e', 'a', 'd', 'b']);
  });

  it('R9.3: by the seeds given', () => {
    const entries = [entry('a', 1, 1500, 3), entry('b', 2, 1600, 1), entry('c', 3, 1700, 2)];
    expect(seedOrder(entries, 'given')).toEqual(['b', 'c', 'a']);
  });

  it('R9.3: given seeds must be 1 to N, each once, on every entry (INVALID_SEEDS)', () => {
    const bad: Array<Array<number | null>> = [
      [1, 2, null],
      [1, 1, 2],
      [0, 1, 2],
      [1, 2, 4],
      [1, 2, 2.5],
      [1, 2, -3],
    ];
    for (const seeds of bad) {
      expectRefusal(
        () =>
          seedOrder(
            seeds.map((s, i) => entry(`x${i}`, i + 1, 1500, s)),
            'given',
          ),
        'INVALID_SEEDS',
        'R9.3',
      );
    }
  });

  it('R9.3: at random from a given seed: reproducible, and a permutation of the entries', () => {
    const entries = Array.from({ length: 12 }, (_, i) => entry(`x${i + 1}`, i + 1, 1500));
    const a = seedOrder(entries, 'random', 42);
    expect(seedOrder(entries, 'random', 42)).toEqual(a);
    expect([...a].sort()).toEqual(entries.map((e) => e.playerId).sort());
    // Different seeds do not all give the same draw.
    const draws = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((s) => seedOrder(entries, 'random', s).join()));
    expect(draws.size).toBeGreaterThan(1);
  });

  it('R9.3: a random draw is reproducible for any seed and any number of entries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n, seed) => {
        const entries = Array.from({ length: n }, (_, i) => entry(`x${i + 1}`, i + 1, 1500));
        const a = seedOrder(entries, 'random', seed);
        expect(seedOrder(entries, 'random', seed)).toEqual(a);
        expect([...a].sort()).toEqual(entries.map((e) => e.playerId).sort());
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- properties ---------------------------------------------------------------------------

/** Every player appears in at most one pairing of each round. */
function expectOnePairingPerRound(rounds: readonly Round[]): void {
  for (const r of rounds) {
    const seen = r.pairings.flatMap((p) => p.slots.filter((s): s is string => s !== null));
    expect(new Set(seen).size).toBe(seen.length);
  }
}

/** Plays out a knockout: each ready pairing in turn, won by the side the next bit says. */
function playOut(start: readonly Round[], bits: readonly number[], out: ReadonlySet<string> = new Set()): Round[] {
  let r = [...start];
  let i = 0;
  for (let ready = readyPairings(r); ready.length > 0; ready = readyPairings(r)) {
    for (const x of ready) expect(x.sides.some((s) => out.has(s))).toBe(false); // R9.8: no later pairing
    const { round, pairing } = ready[0];
    const side: SideIndex = bits[i++ % bits.length] === 0 ? 0 : 1;
    r = recordKnockoutResult(r, round, pairing, won(side, side === 0 ? [5, 3] : [3, 5]), out);
    expectOnePairingPerRound(r);
  }
  return r;
}

describe('R9.3, R9.5 knockout properties', () => {
  it('R9.3: in every standard bracket, with the better seeds winning, each round pairs seeds adding up to (players left) + 1', () => {
    for (let size = 2; size <= 128; size *= 2) {
      const order = bracketSeeds(size);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      let field = order;
      while (field.length > 1) {
        const next: number[] = [];
        for (let i = 0; i < field.length; i += 2) {
          expect(field[i] + field[i + 1]).toBe(field.length + 1);
          next.push(Math.min(field[i], field[i + 1]));
        }
        field = next;
      }
      if (size >= 4) {
        expect(order.indexOf(1)).toBeLessThan(size / 2);
        expect(order.indexOf(2)).toBeGreaterThanOrEqual(size / 2);
      }
    }
  });

  it('R9.3, R9.5: a knockout of n entries played out: n − 1 matches, bracket size − 1 decided pairings with the byes, one champion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 70 }), fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 70, maxLength: 70 }), (n, bits) => {
        const seeded = players(n);
        const size = bracketSize(n);
        const drawn = drawKnockout(seeded, [5, 7]);
        // The byes go to the top seeds.
        const byes = drawn[0].pairings.flatMap((p) => (p.bye === null ? [] : [p.bye]));
        expect(byes.sort()).toEqual(seeded.slice(0, size - n).sort());
        expectOnePairingPerRound(drawn);
        const r = playOut(drawn, bits);
        const all = r.flatMap((x) => x.pairings);
        expect(all).toHaveLength(size - 1);
        expect(all.filter((p) => winnerOf(p) !== null)).toHaveLength(size - 1);
        expect(all.filter((p) => p.bye === null && p.result !== null)).toHaveLength(n - 1);
        expect(all.filter((p) => p.bye !== null)).toHaveLength(size - n);
        expect(knockoutFinished(r)).toBe(true);
        const places = knockoutPlaces(r);
        expect(places.size).toBe(n);
        const firsts = [...places].filter(([, p]) => p === 1).map(([id]) => id);
        expect(firsts).toEqual([winnerOf(r[r.length - 1].pairings[0])]);
        expect([...places.values()].filter((p) => p === 2)).toHaveLength(1);
        if (n >= 3) expect([...places.values()].filter((p) => p === 3)).toHaveLength(n === 3 ? 1 : 2);
        // The champion won every pairing he was in.
        const champion = firsts[0];
        expect(all.filter((p) => p.slots.includes(champion)).every((p) => winnerOf(p) === champion)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('R9.8: with players leaving, a knockout still finishes: no one who left is paired again, and the champion is still in', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }).chain((n) => fc.tuple(fc.constant(n), fc.subarray(players(n), { maxLength: n - 1 }))),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 40, maxLength: 40 }),
        ([n, leaving], bits) => {
          const out = new Set(leaving);
          const size = bracketSize(n);
          const r = playOut(walkovers(drawKnockout(players(n), [5]), out), bits, out);
          expect(knockoutFinished(r)).toBe(true);
          const all = r.flatMap((x) => x.pairings);
          expect(all.filter((p) => winnerOf(p) !== null)).toHaveLength(size - 1);
          const champion = winnerOf(r[r.length - 1].pairings[0]) as string;
          expect(out.has(champion)).toBe(false);
          expect([...knockoutPlaces(r)].filter(([, p]) => p === 1)).toEqual([[champion, 1]]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/** Every perfect matching of `ids`, each as its pairs from the top (each pair's better-ranked first). */
function perfectMatchings(ids: readonly string[]): Array<Array<[string, string]>> {
  if (ids.length === 0) return [[]];
  const [first, ...rest] = ids;
  return rest.flatMap((other, j) => perfectMatchings(rest.filter((_, k) => k !== j)).map((m): Array<[string, string]> => [[first, other], ...m]));
}

/** R9.4's order of candidates: compare two matchings by the partner, in ranking order, of each top unpaired player in turn. */
function partnerKey(m: ReadonlyArray<readonly [string, string]>, rank: Map<string, number>): number[] {
  return [...m].sort((x, y) => (rank.get(x[0]) as number) - (rank.get(y[0]) as number)).map(([, b]) => rank.get(b) as number);
}

function lexLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i];
  return a.length < b.length;
}

describe('R9.4 Swiss properties', () => {
  it('R9.4: every round partitions the players; the bye is the lowest-ranked without one; no rematch while any pairing avoids one, and the pairing is the first in R9.4’s order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 4 })), { minLength: 30, maxLength: 30 }),
        (n, roundCount, outcomes) => {
          const seeded = players(n);
          let rounds: Round[] = [];
          let k = 0;
          for (let no = 1; no <= roundCount; no++) {
            const ranked = swissStandings(seeded, rounds).map((s) => s.playerId);
            const rank = new Map(ranked.map((id, i) => [id, i]));
            const { met, hadBye } = swissHistory(rounds);
            const paired = pairSwissRound(ranked, no, met, hadBye);

            // Every player exactly once: in one pair or the bye.
            const inRound = [...paired.pairs.flat(), ...(paired.bye === null ? [] : [paired.bye])];
            expect([...inRound].sort()).toEqual([...seeded].sort());

            // The bye: only with an odd number, to the lowest-ranked player without one while any remain.
            if (n % 2 === 0) expect(paired.bye).toBeNull();
            else {
              const without = ranked.filter((id) => !hadBye.has(id));
              if (without.length > 0) expect(paired.bye).toBe(without[without.length - 1]);
            }

            // The better-ranked player on side 0.
            for (const [a, b] of paired.pairs) expect(rank.get(a) as number).toBeLessThan(rank.get(b) as number);

            const rest = ranked.filter((id) => id !== paired.bye);
            if (no === 1) {
              const half = rest.length / 2;
              expect(paired.pairs).toEqual(rest.slice(0, half).map((a, i) => [a, rest[half + i]]));
            } else {
              const clean = perfectMatchings(rest).filter((m) => m.every(([a, b]) => !met.has(pairKey(a, b))));
              if (clean.length > 0) {
                expect(paired.pairs.every(([a, b]) => !met.has(pairKey(a, b)))).toBe(true);
                const best = clean.reduce((x, y) => (lexLess(partnerKey(y, rank), partnerKey(x, rank)) ? y : x));
                expect(paired.pairs).toEqual(best);
              }
            }

            rounds = [...rounds, swissRound(no, 5, paired)];
            expectOnePairingPerRound(rounds);
            for (const p of rounds[no - 1].pairings) {
              if (p.bye !== null) continue;
              const [side, loserScore] = outcomes[k++ % outcomes.length];
              const winnerSide: SideIndex = side === 0 ? 0 : 1;
              rounds = withPairing(rounds, { round: no, pairing: p.no }, { result: won(winnerSide, winnerSide === 0 ? [5, loserScore] : [loserScore, 5]) });
            }
            expect(roundDecided(rounds[no - 1])).toBe(true);
          }
          // At most one bye each while players without one remain: with rounds ≤ players, no one has two.
          const byes = rounds.flatMap((r) => r.pairings.flatMap((p) => (p.bye === null ? [] : [p.bye])));
          if (roundCount <= n) expect(new Set(byes).size).toBe(byes.length);
          // Standings: every player his own place, 1..n, ordered by wins then Buchholz then points then seed.
          const lines = swissStandings(seeded, rounds);
          expect(lines.map((l) => l.place)).toEqual(seeded.map((_, i) => i + 1));
          for (let i = 1; i < lines.length; i++) {
            const [x, y] = [lines[i - 1], lines[i]];
            const key = (l: (typeof lines)[number]) => [l.wins, l.buchholz, l.pointsFor - l.pointsAgainst, -seeded.indexOf(l.playerId)];
            expect(lexLess(key(y), key(x))).toBe(true);
          }
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
