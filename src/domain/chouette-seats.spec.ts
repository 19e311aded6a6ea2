import {
  canStartGame,
  captainOf,
  ChouetteSeats,
  joinChouette,
  leaveChouette,
  rotateAfterGame,
  seatByShuffle,
  seatChouette,
  seatFromRolls,
  seatInOrder,
  seatsAtGameStart,
} from './chouette-seats';
import { RuleViolation } from './errors';
import { expectRefusal } from './test-helpers';

const NO_PARTNER = { partnerFrom: null };
const seats = (box: string, line: string[], partner: string | null = null, partnerLeft = false): ChouetteSeats => ({
  box,
  partner,
  line,
  partnerLeft,
});

describe('R5.1 seating', () => {
  it('R5.1 roll-off: highest first is box, second captain, the rest in order (b 6, c 5, a 3 → box b, team c, a)', () => {
    const s = seatFromRolls([
      { playerId: 'a', roll: 3 },
      { playerId: 'b', roll: 6 },
      { playerId: 'c', roll: 5 },
    ]);
    expect(s).toEqual(seats('b', ['c', 'a']));
    expect(captainOf(s)).toBe('c');
  });

  it('R5.1 a tie in the roll-off is refused, naming the tied players', () => {
    const err = expectRefusal(
      () =>
        seatFromRolls([
          { playerId: 'a', roll: 4 },
          { playerId: 'b', roll: 6 },
          { playerId: 'c', roll: 4 },
          { playerId: 'd', roll: 2 },
        ]),
      'ROLL_OFF_TIE',
      'R5.1',
    );
    expect(err.message).toContain('a, c');
    expect(err.details).toEqual({ ties: [{ roll: 4, players: ['a', 'c'] }] });
  });

  it('R5.1 every tied group is named, highest roll first', () => {
    const err = expectRefusal(
      () =>
        seatFromRolls([
          { playerId: 'a', roll: 2 },
          { playerId: 'b', roll: 5 },
          { playerId: 'c', roll: 2 },
          { playerId: 'd', roll: 5 },
        ]),
      'ROLL_OFF_TIE',
      'R5.1',
    );
    expect(err.details).toEqual({
      ties: [
        { roll: 5, players: ['b', 'd'] },
        { roll: 2, players: ['a', 'c'] },
      ],
    });
  });

  it('R5.1 a roll must be a whole number of 1 or more', () => {
    expectRefusal(
      () =>
        seatFromRolls([
          { playerId: 'a', roll: 0 },
          { playerId: 'b', roll: 2 },
          { playerId: 'c', roll: 3 },
        ]),
      'INVALID_ROLL',
      'R5.1',
    );
    expectRefusal(
      () =>
        seatFromRolls([
          { playerId: 'a', roll: 1.5 },
          { playerId: 'b', roll: 2 },
          { playerId: 'c', roll: 3 },
        ]),
      'INVALID_ROLL',
      'R5.1',
    );
  });

  it('R5.1 explicit order: box, captain, team', () => {
    expect(seatInOrder(['a', 'b', 'c', 'd'])).toEqual(seats('a', ['b', 'c', 'd']));
  });

  it('R5.1 three to twelve players', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
    expectRefusal(() => seatInOrder(ids(2)), 'CHOUETTE_PLAYER_COUNT', 'R5.1');
    expectRefusal(() => seatInOrder(ids(13)), 'CHOUETTE_PLAYER_COUNT', 'R5.1');
    expectRefusal(() => seatInOrder([]), 'CHOUETTE_PLAYER_COUNT', 'R5.1');
    expect(seatInOrder(ids(3)).line).toEqual(['p1', 'p2']);
    expect(seatInOrder(ids(12)).line).toHaveLength(11);
  });

  it('R5.1 no player twice, every player named', () => {
    expectRefusal(() => seatInOrder(['a', 'b', 'a']), 'DUPLICATE_PLAYER', 'R5.1');
    expectRefusal(
      () =>
        seatFromRolls([
          { playerId: 'a', roll: 1 },
          { playerId: 'b', roll: 2 },
          { playerId: 'a', roll: 3 },
        ]),
      'DUPLICATE_PLAYER',
      'R5.1',
    );
    expectRefusal(() => seatInOrder(['a', '', 'c']), 'INVALID_PLAYER', 'R5.1');
  });

  it('R5.1 shuffle with an injected random source is deterministic', () => {
    // Fisher–Yates from the end, always j = 0: [a,b,c,d] → swap(3,0) [d,b,c,a] → swap(2,0) [c,b,d,a] → swap(1,0) [b,c,d,a].
    expect(seatByShuffle(['a', 'b', 'c', 'd'], () => 0)).toEqual(seats('b', ['c', 'd', 'a']));
    // j = i every time: nothing moves.
    expect(seatByShuffle(['a', 'b', 'c', 'd'], (n) => n - 1)).toEqual(seats('a', ['b', 'c', 'd']));
    expect(() => seatByShuffle(['a', 'b', 'c'], () => 7)).toThrow(Error);
    expectRefusal(() => seatByShuffle(['a', 'b'], () => 0), 'CHOUETTE_PLAYER_COUNT', 'R5.1');
  });

  it('R5.1 seatChouette takes exactly one of rolls, order, shuffle', () => {
    expect(seatChouette({ order: ['x', 'y', 'z'] }, () => 0)).toEqual(seats('x', ['y', 'z']));
    expect(seatChouette({ shuffle: ['x', 'y', 'z'] }, (n) => n - 1)).toEqual(seats('x', ['y', 'z']));
    expect(
      seatChouette(
        {
          rolls: [
            { playerId: 'x', roll: 1 },
            { playerId: 'y', roll: 3 },
            { playerId: 'z', roll: 2 },
          ],
        },
        () => 0,
      ),
    ).toEqual(seats('y', ['z', 'x']));
    expectRefusal(() => seatChouette({ order: ['x', 'y', 'z'], shuffle: ['x'] }, () => 0), 'INVALID_SEATING', 'R5.1');
    expectRefusal(() => seatChouette({} as never, () => 0), 'INVALID_SEATING', 'R5.1');
  });
});

describe('R5.7 rotation without a partner', () => {
  const s = seats('A', ['B', 'C', 'D']);

  it('R5.7 box beats captain: box stays, captain B to the end, C captain', () => {
    expect(rotateAfterGame(s, 'box', NO_PARTNER)).toEqual(seats('A', ['C', 'D', 'B']));
  });

  it('R5.7 captain beats box: captain B becomes box, old box A to the end, C captain', () => {
    expect(rotateAfterGame(s, 'captain', NO_PARTNER)).toEqual(seats('B', ['C', 'D', 'A']));
  });

  it('R5.7 with two seated the two swap or stay', () => {
    expect(rotateAfterGame(seats('A', ['B']), 'captain', NO_PARTNER)).toEqual(seats('B', ['A']));
    expect(rotateAfterGame(seats('A', ['B']), 'box', NO_PARTNER)).toEqual(seats('A', ['B']));
  });

  it('R5.7 does not touch its input', () => {
    const copy = JSON.parse(JSON.stringify(s));
    rotateAfterGame(s, 'captain', NO_PARTNER);
    expect(s).toEqual(copy);
  });
});

describe('R5.9 box partner', () => {
  const rules = { partnerFrom: 5 };

  it('R5.9 at game start with ≥ partnerFrom seated, the player after the captain becomes partner', () => {
    // 5 seated: A box, B captain, C next → C partner, team B, D, E.
    expect(seatsAtGameStart(seats('A', ['B', 'C', 'D', 'E']), rules)).toEqual(seats('A', ['B', 'D', 'E'], 'C'));
  });

  it('R5.9 fewer than partnerFrom seated: no partner', () => {
    expect(seatsAtGameStart(seats('A', ['B', 'C', 'D']), rules)).toEqual(seats('A', ['B', 'C', 'D']));
    expect(seatsAtGameStart(seats('A', ['B', 'C', 'D', 'E']), NO_PARTNER)).toEqual(seats('A', ['B', 'C', 'D', 'E']));
  });

  it('R5.9 box beats captain: the partner keeps his seat', () => {
    expect(rotateAfterGame(seats('A', ['B', 'D', 'E'], 'C'), 'box', rules)).toEqual(seats('A', ['D', 'E', 'B'], 'C'));
  });

  it('R5.9 captain beats box: old box to the end, partner captain, captain box, next in line partner', () => {
    // A box, C partner, team B D E. → box B; line C D E A; D (after captain C) partner → team C E A.
    expect(rotateAfterGame(seats('A', ['B', 'D', 'E'], 'C'), 'captain', rules)).toEqual(seats('B', ['C', 'E', 'A'], 'D'));
  });

  it('R5.9 captain beats box with fewer than partnerFrom seated now: no new partner', () => {
    // 4 seated (E left earlier, partner kept his seat): box B, team C D A, no partner.
    expect(rotateAfterGame(seats('A', ['B', 'D'], 'C'), 'captain', rules)).toEqual(seats('B', ['C', 'D', 'A']));
  });

  it('R5.8/R5.9 partner leaves: none until the next box change, then chosen again', () => {
    const r4 = { partnerFrom: 4 };
    const left = leaveChouette(seats('A', ['B', 'D', 'E'], 'C'), 'C', r4);
    expect(left).toEqual(seats('A', ['B', 'D', 'E'], null, true));
    // 4 seated ≥ 4, but the box has no partner until the next box change.
    expect(seatsAtGameStart(left, r4)).toEqual(left);
    // Box keeps his seat: still none.
    const kept = rotateAfterGame(left, 'box', r4);
    expect(seatsAtGameStart(kept, r4)).toEqual(seats('A', ['D', 'E', 'B'], null, true));
    // Box change (captain D beats box): box D, team E B A; at the next start the player after captain E (B) becomes partner.
    const changed = rotateAfterGame(kept, 'captain', r4);
    expect(changed).toEqual(seats('D', ['E', 'B', 'A']));
    expect(seatsAtGameStart(changed, r4)).toEqual(seats('D', ['E', 'A'], 'B'));
  });
});

describe('R5.8 joining and leaving', () => {
  it('R5.8 a player joins at the end of the line', () => {
    expect(joinChouette(seats('A', ['B', 'C']), 'F')).toEqual(seats('A', ['B', 'C', 'F']));
  });

  it('R5.8 a seated player cannot join again; at most 12 seated (R5.1)', () => {
    expectRefusal(() => joinChouette(seats('A', ['B', 'C'], 'P'), 'P'), 'ALREADY_SEATED', 'R5.8');
    expectRefusal(() => joinChouette(seats('A', ['B', 'C']), 'A'), 'ALREADY_SEATED', 'R5.8');
    const eleven = Array.from({ length: 11 }, (_, i) => `m${i}`);
    expectRefusal(() => joinChouette(seats('A', eleven), 'Z'), 'CHOUETTE_FULL', 'R5.1');
  });

  it('R5.8 a team member leaves; the captain leaving makes the next in line captain', () => {
    expect(leaveChouette(seats('A', ['B', 'C', 'D']), 'C', NO_PARTNER)).toEqual(seats('A', ['B', 'D']));
    expect(leaveChouette(seats('A', ['B', 'C', 'D']), 'B', NO_PARTNER)).toEqual(seats('A', ['C', 'D']));
  });

  it('R5.8 the box leaves without a partner: captain box, next in line captain', () => {
    expect(leaveChouette(seats('A', ['B', 'C', 'D']), 'A', NO_PARTNER)).toEqual(seats('B', ['C', 'D']));
  });

  it('R5.8/R5.9 the box leaves with a partner: captain box, partner captain, next in line partner while enough are seated', () => {
    // 5 seated → 4 after A leaves; partnerFrom 4: B box, C captain, D partner, team C E.
    expect(leaveChouette(seats('A', ['B', 'D', 'E'], 'C'), 'A', { partnerFrom: 4 })).toEqual(seats('B', ['C', 'E'], 'D'));
    // partnerFrom 5: 4 < 5, no new partner.
    expect(leaveChouette(seats('A', ['B', 'D', 'E'], 'C'), 'A', { partnerFrom: 5 })).toEqual(seats('B', ['C', 'D', 'E']));
  });

  it('R5.8 a box change clears "partner left"', () => {
    expect(leaveChouette(seats('A', ['B', 'C', 'D'], null, true), 'A', NO_PARTNER)).toEqual(seats('B', ['C', 'D']));
  });

  it('R5.8 a player not seated cannot leave; the last player cannot leave', () => {
    expectRefusal(() => leaveChouette(seats('A', ['B']), 'Z', NO_PARTNER), 'NOT_SEATED', 'R5.8');
    expectRefusal(() => leaveChouette(seats('A', []), 'A', NO_PARTNER), 'LAST_PLAYER', 'R5.8');
  });

  it('R5.8 with fewer than two seated no game can start', () => {
    expect(canStartGame(seats('A', ['B']))).toBe(true);
    expect(canStartGame(seats('A', []))).toBe(false);
    expectRefusal(() => seatsAtGameStart(seats('A', []), NO_PARTNER), 'TOO_FEW_PLAYERS', 'R5.8');
    // Interpretation: a partner left alone with the box plays as captain.
    expect(canStartGame(seats('A', [], 'P'))).toBe(true);
    expect(seatsAtGameStart(seats('A', [], 'P'), NO_PARTNER)).toEqual(seats('A', ['P']));
  });

  it('R5.8 the box leaving with an empty team: the partner becomes box', () => {
    expect(leaveChouette(seats('A', [], 'P'), 'A', NO_PARTNER)).toEqual(seats('P', []));
  });

  it('refusals are RuleViolations and leave the seats unchanged', () => {
    const s = seats('A', ['B', 'C']);
    const copy = JSON.parse(JSON.stringify(s));
    expect(() => joinChouette(s, 'B')).toThrow(RuleViolation);
    expect(s).toEqual(copy);
  });
});
