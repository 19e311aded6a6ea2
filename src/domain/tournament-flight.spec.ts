import { RuleViolation } from './errors';
import {
  correctionOf,
  currentMatchOf,
  drawFlight,
  entriesToDraw,
  Flight,
  flightPrizes,
  flightStatus,
  FlightRules,
  laterRoundMatches,
  pendingMatches,
  poolOf,
  recordResult,
  tournamentStatus,
  withdrawEntry,
  withMatch,
} from './tournament-flight';
import { assertCorrectionOpen, assertEntriesOpen, assertRoomInFlight, assertTournamentSettings, entryFlight, flightIndex, MAX_FLIGHT_ENTRIES } from './tournament-commands';

const KO: FlightRules = { format: 'knockout', rounds: null, targets: [3], consolation: false, entryFeeMinor: null, housePercent: 0, payouts: { main: [100], consolation: [] } };
const seeds = (n: number) => Array.from({ length: n }, (_, i) => `s${i + 1}`);
const flightOf = (n: number): Flight => ({
  name: 'main',
  entries: seeds(n).map((playerId, i) => ({ playerId, entryNo: i + 1, seed: null, status: 'in' })),
  main: null,
  consolation: null,
  prizes: null,
});

/** Creates a match id for every pending pairing (as the service does), so results can be recorded against them. */
function withMatches(f: Flight): Flight {
  let out = f;
  for (const p of pendingMatches(f)) out = withMatch(out, p, `${p.bracket}-${p.round}-${p.pairing}`);
  return out;
}

/** Records the result of the match of (bracket, round, pairing), `winner` winning 3–0. */
function play(f: Flight, rules: FlightRules, matchId: string, winner: string): Flight {
  const p = pendingMatchesOrPlayed(f, matchId);
  const winnerSide = p.slots[0] === winner ? 0 : 1;
  return withMatches(recordResult(f, rules, matchId, { winnerSide, endedBy: { kind: 'points' }, score: winnerSide === 0 ? [3, 0] : [0, 3] }));
}

function pendingMatchesOrPlayed(f: Flight, matchId: string) {
  for (const br of [f.main, f.consolation]) for (const r of br?.rounds ?? []) for (const p of r.pairings) if (p.matchId === matchId) return p;
  throw new Error(`no match ${matchId}`);
}

describe('a flight through its evening (R9)', () => {
  it('R9.10, R9.4: a Swiss correction before the next round has begun withdraws that round whole; it is paired again from the corrected ranking', () => {
    const rules: FlightRules = { ...KO, format: 'swiss', rounds: 3 };
    let f = withMatches(drawFlight(flightOf(6), rules, seeds(6)));
    // Round 1: 1–4, 2–5, 3–6, the top three winning; round 2: s1–s2, s3–s4, s5–s6.
    for (const [m, w] of [
      ['main-1-1', 's1'],
      ['main-1-2', 's2'],
      ['main-1-3', 's3'],
    ])
      f = play(f, rules, m, w);
    expect(f.main!.rounds[1].pairings.map((p) => p.slots)).toEqual([
      ['s1', 's2'],
      ['s3', 's4'],
      ['s5', 's6'],
    ]);
    expect(laterRoundMatches(f, rules, 'main-1-1')?.sort()).toEqual(['main-2-1', 'main-2-2', 'main-2-3']);
    const c = correctionOf(f, rules, 'main-1-1', true)!;
    expect(c.removed.sort()).toEqual(['main-2-1', 'main-2-2', 'main-2-3']);
    expect(c.flight.main!.rounds).toHaveLength(1);
    // s4 won: ranking s2, s3, s4, s1, s5, s6; s2–s3, s4 (met s1) –s5, s1–s6.
    const g = withMatches(recordResult(c.flight, rules, 'main-1-1', { winnerSide: 1, endedBy: { kind: 'points' }, score: [0, 3] }));
    expect(g.main!.rounds[1].pairings.map((p) => p.slots)).toEqual([
      ['s2', 's3'],
      ['s4', 's5'],
      ['s1', 's6'],
    ]);
    // Not in a knockout.
    expect(laterRoundMatches(f, KO, 'main-1-1')).toBeNull();
  });

  it('R9.2, R9.8, R9.9: a player who leaves before the draw keeps the tournament open, is not drawn and pays no fee', () => {
    const rules = { ...KO, entryFeeMinor: 1000 };
    const left = withdrawEntry(flightOf(6), rules, 's3', 'withdrawal').flight;
    expect(tournamentStatus([left], rules)).toBe('open');
    expect(entriesToDraw(left).map((e) => e.playerId)).toEqual(['s1', 's2', 's4', 's5', 's6']);
    const drawn = drawFlight(left, rules, ['s1', 's2', 's4', 's5', 's6']);
    // Five drawn: a bracket of 8 with 3 byes to seeds 1, 2, 3 (s1, s2, s4); 4–5 is s5–s6.
    expect(drawn.main?.rounds[0].pairings.map((p) => [p.slots, p.bye])).toEqual([
      [['s1', null], 's1'],
      [['s5', 's6'], null],
      [['s4', null], 's4'],
      [['s2', null], 's2'],
    ]);
    expect(drawn.entries.map((e) => [e.playerId, e.seed, e.status])).toEqual([
      ['s1', 1, 'in'],
      ['s2', 2, 'in'],
      ['s4', 3, 'in'],
      ['s5', 4, 'in'],
      ['s6', 5, 'in'],
      ['s3', null, 'withdrawn'],
    ]);
    // 5 × 1000: the leaver pays nothing.
    expect(poolOf(drawn, rules)).toBe(5000);
    expect(tournamentStatus([drawn], rules)).toBe('running');
  });

  it('R9.11: the first-match losers of an 8-knockout play a consolation drawn by their seeds (5–8, 6–7)', () => {
    const rules = { ...KO, consolation: true };
    let f = withMatches(drawFlight(flightOf(8), rules, seeds(8)));
    // Round 1 from the top: 1–8, 4–5, 3–6, 2–7; the top seeds win.
    f = play(f, rules, 'main-1-1', 's1');
    f = play(f, rules, 'main-1-2', 's4');
    f = play(f, rules, 'main-1-3', 's3');
    expect(f.consolation).toBeNull();
    f = play(f, rules, 'main-1-4', 's2');
    expect(f.consolation?.seeded).toEqual(['s5', 's6', 's7', 's8']);
    // A bracket of 4 from its own seeds: 1–4 (s5–s8), 2–3 (s6–s7).
    expect(f.consolation?.rounds[0].pairings.map((p) => p.slots)).toEqual([
      ['s5', 's8'],
      ['s6', 's7'],
    ]);
    expect(flightStatus(f, rules)).toBe('running');
  });

  it('R9.11: a bye is not a match: a top seed losing his first match (round 2) joins the consolation, drawn once all are known', () => {
    const rules = { ...KO, consolation: true };
    let f = withMatches(drawFlight(flightOf(6), rules, seeds(6)));
    f = play(f, rules, 'main-1-2', 's4');
    f = play(f, rules, 'main-1-3', 's3');
    // s5 and s6 have lost; s1 and s2 have not played yet: not drawn.
    expect(f.consolation).toBeNull();
    f = play(f, rules, 'main-2-1', 's1');
    f = play(f, rules, 'main-2-2', 's3');
    // s2 lost his first match: the consolation is s2, s5, s6 by seed, s2 with the bye.
    expect(f.consolation?.seeded).toEqual(['s2', 's5', 's6']);
    expect(f.consolation?.rounds[0].pairings.map((p) => [p.slots, p.bye])).toEqual([
      [['s2', null], 's2'],
      [['s5', 's6'], null],
    ]);
  });

  it('R9.9, R9.11: main and consolation places paid to the cent: 10,000 less 10 %, 40/25 and 25/10', () => {
    const rules: FlightRules = { ...KO, consolation: true, entryFeeMinor: 2500, housePercent: 10, payouts: { main: [40, 25], consolation: [25, 10] } };
    let f = withMatches(drawFlight(flightOf(4), rules, seeds(4)));
    f = play(f, rules, 'main-1-1', 's1');
    f = play(f, rules, 'main-1-2', 's2');
    // The consolation: s3 v s4 (its seeds 1 and 2).
    f = play(f, rules, 'consolation-1-1', 's4');
    expect(flightStatus(f, rules)).toBe('running');
    f = play(f, rules, 'main-2-1', 's2');
    expect(flightStatus(f, rules)).toBe('finished');
    // Pool 4 × 25.00 = 100.00; house 10.00; 90.00 shared: 36.00, 22.50, 22.50, 9.00.
    expect(flightPrizes(f, rules)).toEqual({
      houseMinor: 1000,
      prizes: [
        { playerId: 's2', place: 1, bracket: 'main', amountMinor: 3600 },
        { playerId: 's1', place: 2, bracket: 'main', amountMinor: 2250 },
        { playerId: 's4', place: 1, bracket: 'consolation', amountMinor: 2250 },
        { playerId: 's3', place: 2, bracket: 'consolation', amountMinor: 900 },
      ],
    });
  });

  it('R9.8: a player who leaves forfeits his match; one who leaves while waiting gives a walkover', () => {
    let f = withMatches(drawFlight(flightOf(4), KO, seeds(4)));
    expect(currentMatchOf(f, 's4')).toBe('main-1-1');
    const left = withdrawEntry(f, KO, 's4', 'withdrawal');
    expect(left.forfeit).toEqual({ matchId: 'main-1-1', side: 1 });
    f = play(left.flight, KO, 'main-1-1', 's1');
    expect(currentMatchOf(f, 's1')).toBeNull();
    const waiting = withdrawEntry(f, KO, 's1', 'disqualification');
    // s1 waits for the other semi-final: no match to forfeit.
    expect(waiting.forfeit).toBeNull();
    f = play(waiting.flight, KO, 'main-1-2', 's3');
    const final = f.main!.rounds[1].pairings[0];
    expect(final).toMatchObject({ slots: ['s1', 's3'], matchId: null, result: { winnerSide: 1, endedBy: { kind: 'forfeit', side: 0, reason: 'withdrawal' } } });
    expect(flightStatus(f, KO)).toBe('finished');
    expect(() => withdrawEntry(f, KO, 's1', 'withdrawal')).toThrow(expect.objectContaining({ code: 'ALREADY_OUT', rule: 'R9.8' }));
    expect(() => withdrawEntry(f, KO, 'nobody', 'withdrawal')).toThrow(expect.objectContaining({ code: 'NOT_ENTERED' }));
  });

  it('R9.10: a correction names the later matches that must not have begun and takes back the pairing it fed', () => {
    let f = withMatches(drawFlight(flightOf(4), KO, seeds(4)));
    f = play(f, KO, 'main-1-1', 's1');
    f = play(f, KO, 'main-1-2', 's2');
    const c = correctionOf(f, KO, 'main-1-2');
    expect(c?.guardMatches).toEqual(['main-2-1']);
    expect(c?.removed).toEqual(['main-2-1']);
    expect(c?.flight.main?.rounds[1].pairings[0]).toMatchObject({ slots: ['s1', null], matchId: null, result: null });
    expect(c?.flight.main?.rounds[0].pairings[1].result).toBeNull();
    expect(correctionOf(f, KO, 'not-a-match')).toBeNull();
    expect(() => assertCorrectionOpen(1)).toThrow(expect.objectContaining({ code: 'CORRECTION_CLOSED', rule: 'R9.10' }));
    expect(() => assertCorrectionOpen(0)).not.toThrow();
  });

  it('R9.8, R9.10: a correction takes back what a walkover carried on from it, and the match that was made of it', () => {
    let f = withMatches(drawFlight(flightOf(8), KO, seeds(8)));
    f = play(f, KO, 'main-1-2', 's4');
    f = withdrawEntry(f, KO, 's4', 'withdrawal').flight; // s4 leaves waiting for his semi-final
    f = play(f, KO, 'main-1-1', 's1'); // the semi-final s1 v s4 is a walkover: s1 is in the final
    f = play(f, KO, 'main-1-3', 's3');
    f = play(f, KO, 'main-1-4', 's2');
    f = play(f, KO, 'main-2-2', 's2');
    expect(f.main!.rounds[2].pairings[0]).toMatchObject({ slots: ['s1', 's2'], matchId: 'main-3-1' });
    const c = correctionOf(f, KO, 'main-1-1')!;
    expect(c.guardMatches).toEqual(['main-3-1']);
    expect(c.removed).toEqual(['main-3-1']);
    expect(c.flight.main!.rounds[1].pairings[0]).toMatchObject({ slots: [null, 's4'], result: null });
    expect(c.flight.main!.rounds[2].pairings[0]).toMatchObject({ slots: [null, 's2'], matchId: null, result: null });
    // Known again, s8 won: the walkover takes him to the final, to be played afresh.
    f = play(c.flight, KO, 'main-1-1', 's8');
    expect(f.main!.rounds[2].pairings[0]).toMatchObject({ slots: ['s8', 's2'], matchId: 'main-3-1', result: null });
  });

  it('R9.4, R9.10: a Swiss result voided after the next round was paired takes its players out of it, and pairs them again when known', () => {
    const rules: FlightRules = { ...KO, format: 'swiss', rounds: 3 };
    let f = withMatches(drawFlight(flightOf(4), rules, seeds(4)));
    // Round 1: 1–3, 2–4.
    expect(f.main!.rounds[0].pairings.map((p) => p.slots)).toEqual([
      ['s1', 's3'],
      ['s2', 's4'],
    ]);
    f = play(f, rules, 'main-1-1', 's1');
    f = play(f, rules, 'main-1-2', 's2');
    // Round 2: s1 (ranked first) with s2; s3 with s4.
    expect(f.main!.rounds[1].pairings.map((p) => p.slots)).toEqual([
      ['s1', 's2'],
      ['s3', 's4'],
    ]);
    const c = correctionOf(f, rules, 'main-1-2')!;
    // s2 and s4's round-2 pairings go back: both, since s2 met s1 and s4 met s3 there.
    expect(c.removed.sort()).toEqual(['main-2-1', 'main-2-2']);
    expect(c.flight.main!.rounds).toHaveLength(1);
    f = play(withMatches(c.flight), rules, 'main-1-2', 's4');
    // Now s1 and s4 lead (1 win, +3; seed order); s2 and s3 follow (0 wins, Buchholz 1, −3; seed order): s1–s4, s2–s3.
    expect(f.main!.rounds[1].pairings.map((p) => p.slots)).toEqual([
      ['s1', 's4'],
      ['s2', 's3'],
    ]);
  });

  it('R9.1, R9.2, R9.9, R9.11: the tournament commands refuse what the rules do not allow', () => {
    const base = { format: 'knockout' as const, payouts: [100], housePercent: 0 };
    const code = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        return e instanceof RuleViolation ? `${e.code} ${e.rule}` : 'other';
      }
      return 'none';
    };
    expect(code(() => assertTournamentSettings({ ...base, format: 'swiss' }))).toBe('INVALID_TOURNAMENT R9.1');
    expect(code(() => assertTournamentSettings({ ...base, rounds: 3 }))).toBe('INVALID_TOURNAMENT R9.1');
    expect(code(() => assertTournamentSettings({ ...base, format: 'swiss', rounds: 3, consolation: true }))).toBe('INVALID_TOURNAMENT R9.11');
    expect(code(() => assertTournamentSettings({ ...base, roundMinutes: 60 }))).toBe('INVALID_TOURNAMENT R9.5');
    expect(code(() => assertTournamentSettings({ ...base, entryFeeMinor: 100 }))).toBe('INVALID_TOURNAMENT R9.9');
    expect(code(() => assertTournamentSettings({ ...base, payouts: { main: [50], consolation: [50] } }))).toBe('INVALID_PAYOUTS R9.11');
    expect(code(() => assertTournamentSettings({ ...base, payouts: [60, 30] }))).toBe('INVALID_PAYOUTS R9.9');
    expect(code(() => assertTournamentSettings({ ...base, consolation: true, payouts: { main: [50], consolation: [50] } }))).toBe('none');
    expect(code(() => assertEntriesOpen('running'))).toBe('TOURNAMENT_NOT_OPEN R9.2');
    expect(code(() => flightIndex([{ name: 'main' }], 'open'))).toBe('UNKNOWN_FLIGHT R9.1');
    expect(flightIndex([{ name: 'main' }, { name: 'open' }], 'open')).toBe(1);
    expect(code(() => entryFlight([{ entries: [] }], 'x', 'R9.2'))).toBe('NOT_ENTERED R9.2');
    expect(MAX_FLIGHT_ENTRIES).toBe(256);
    expect(code(() => assertRoomInFlight(255))).toBe('none');
    expect(code(() => assertRoomInFlight(256))).toBe('FLIGHT_FULL R9.2');
  });
});
