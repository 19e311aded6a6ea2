/**
 * A tournament's flight through its evening (R9.1–R9.5, R9.8–R9.11): the draw, each
 * result carried into the bracket or the Swiss ranking, the next round, the consolation
 * bracket, withdrawals, corrections, places and prizes.
 *
 * Pure: no framework, no I/O. The service loads a flight, calls one of these and writes
 * what comes back: the flight, and the pairings that now need a match.
 */
import { refuse } from './errors';
import { Placed, prizeTable, Prize } from './prizes';
import {
  consolationEntrants,
  currentPairingOf,
  drawKnockout,
  knockoutFinished,
  knockoutStandings,
  laterMatchesOf,
  pairingOfMatch,
  PairingRef,
  PairingResult,
  pairSwissRound,
  readyPairings,
  recordKnockoutResult,
  Round,
  roundDecided,
  sidesOf,
  swissHistory,
  swissRound,
  swissStandings,
  targetOf,
  TournamentFormat,
  TournamentStanding,
  unpairAfter,
  walkovers,
  withPairing,
  withPairings,
} from './tournament';

export type EntryStatus = 'in' | 'withdrawn' | 'disqualified';

export interface FlightEntry {
  readonly playerId: string;
  /** Order of entry in the tournament, from 1 (ties of rating, R9.3). */
  readonly entryNo: number;
  /** Before the draw: the seed given (R9.3); after it: the seed drawn. */
  readonly seed: number | null;
  readonly status: EntryStatus;
}

export type BracketName = 'main' | 'consolation';

export interface Bracket {
  /** The players in seed order. */
  readonly seeded: readonly string[];
  readonly rounds: readonly Round[];
}

export interface Flight {
  readonly name: string;
  readonly entries: readonly FlightEntry[];
  readonly main: Bracket | null;
  readonly consolation: Bracket | null;
  /** R9.9: the prizes as posted once the flight finished; null before (or after a correction took them back). */
  readonly prizes: readonly Prize[] | null;
}

/** What the director set for the whole tournament that the flights' rules read. */
export interface FlightRules {
  readonly format: TournamentFormat;
  /** Swiss: the number of rounds. */
  readonly rounds: number | null;
  readonly targets: readonly number[];
  readonly consolation: boolean;
  readonly entryFeeMinor: number | null;
  readonly housePercent: number;
  readonly payouts: { readonly main: readonly number[]; readonly consolation: readonly number[] };
}

/** A pairing of a flight that needs its match created (R9.5). */
export interface PendingMatch {
  readonly bracket: BracketName;
  readonly round: number;
  readonly pairing: number;
  readonly sides: readonly [string, string];
  readonly target: number;
}

/** The players who have left the event (R9.8). */
export function leftEvent(f: Flight): Set<string> {
  return new Set(f.entries.filter((e) => e.status !== 'in').map((e) => e.playerId));
}

function bracketOf(f: Flight, b: BracketName): Bracket {
  const br = b === 'main' ? f.main : f.consolation;
  if (!br) throw new Error(`flight ${f.name} has no ${b} bracket`);
  return br;
}

function withBracket(f: Flight, b: BracketName, br: Bracket | null): Flight {
  return b === 'main' ? { ...f, main: br } : { ...f, consolation: br };
}

/** R9.2, R9.8: the entries the draw takes: those still in (one who left before the draw is not drawn). */
export function entriesToDraw(f: Flight): FlightEntry[] {
  return f.entries.filter((e) => e.status === 'in');
}

/** R9.2: a flight is drawn with two entries at least (still in: R9.8). */
export function assertDrawable(f: Flight): void {
  const n = entriesToDraw(f).length;
  if (n < 2) refuse('TOO_FEW_ENTRIES', 'R9.2', `Flight "${f.name}" has ${n} entr${n === 1 ? 'y' : 'ies'} still in; a flight needs at least 2 to be drawn (R9.2)`);
}

/**
 * R9.3, R9.4: the flight drawn from its players in seed order: a knockout's whole bracket
 * (byes decided), or the first Swiss round paired (its bye decided). Seeds are kept on
 * the entries.
 */
export function drawFlight(f: Flight, rules: FlightRules, seeded: readonly string[]): Flight {
  assertDrawable(f);
  const seedOf = new Map(seeded.map((id, i) => [id, i + 1]));
  // The drawn in seed order, then those who left before the draw (R9.8), in entry order and unseeded.
  const drawn = [...f.entries].filter((e) => seedOf.has(e.playerId)).sort((a, b) => (seedOf.get(a.playerId) as number) - (seedOf.get(b.playerId) as number));
  const left = f.entries.filter((e) => !seedOf.has(e.playerId));
  const entries = [...drawn.map((e) => ({ ...e, seed: seedOf.get(e.playerId) as number })), ...left.map((e) => ({ ...e, seed: null }))];
  const rounds = rules.format === 'knockout' ? drawKnockout(seeded, rules.targets) : [swissRound(1, targetOf(rules.targets, 1), pairSwissRound(seeded, 1, new Set(), new Set()))];
  return advance({ ...f, entries, main: { seeded: [...seeded], rounds }, consolation: null, prizes: null }, rules);
}

/**
 * What follows from the flight as it is: walkovers for players who left (R9.8), the next
 * Swiss round once the last one is decided (R9.4), players a correction left unpaired
 * paired again among themselves (R9.10), the consolation bracket once its players are
 * known (R9.11).
 */
function advance(f: Flight, rules: FlightRules): Flight {
  const out = leftEvent(f);
  let flight = f;
  if (rules.format === 'knockout') {
    for (const b of ['main', 'consolation'] as const) {
      const br = b === 'main' ? flight.main : flight.consolation;
      if (br) flight = withBracket(flight, b, { ...br, rounds: walkovers(br.rounds, out) });
    }
    if (rules.consolation && flight.main && !flight.consolation) {
      const entrants = consolationEntrants(flight.main.seeded, flight.main.rounds);
      if (entrants && entrants.length >= 2) {
        flight = { ...flight, consolation: { seeded: entrants, rounds: walkovers(drawKnockout(entrants, rules.targets), out) } };
      }
    }
    return flight;
  }
  const main = flight.main as Bracket;
  const total = rules.rounds ?? 1;
  let rounds = [...main.rounds];
  for (;;) {
    const last = rounds[rounds.length - 1];
    const inPlay = main.seeded.filter((id) => !out.has(id));
    const ranked = swissStandings(main.seeded, rounds)
      .map((s) => s.playerId)
      .filter((id) => !out.has(id));
    if (rounds.length >= 2 && roundDecided(rounds[rounds.length - 2])) {
      // R9.10: players whose pairing a correction took back are paired again among themselves.
      const paired = new Set(last.pairings.flatMap((p) => p.slots.filter((s): s is string => s !== null)));
      const missing = ranked.filter((id) => !paired.has(id));
      if (missing.length > 0) {
        const { met, hadBye } = swissHistory(rounds);
        const extra = pairSwissRound(missing, last.no, met, hadBye);
        // A lone player left over keeps a bye only if the round has none yet.
        rounds = withPairings(rounds, last.no, extra);
        continue;
      }
    }
    if (!roundDecided(last) || last.no >= total || inPlay.length === 0) break;
    const { met, hadBye } = swissHistory(rounds);
    if (ranked.length < 2) break;
    rounds = [...rounds, swissRound(last.no + 1, targetOf(rules.targets, last.no + 1), pairSwissRound(ranked, last.no + 1, met, hadBye))];
  }
  return { ...flight, main: { ...main, rounds } };
}

/** Every pairing of the flight whose match is to be created now (R9.5). */
export function pendingMatches(f: Flight): PendingMatch[] {
  const out: PendingMatch[] = [];
  for (const b of ['main', 'consolation'] as const) {
    const br = b === 'main' ? f.main : f.consolation;
    if (!br) continue;
    for (const r of readyPairings(br.rounds)) {
      out.push({ bracket: b, round: r.round, pairing: r.pairing, sides: r.sides, target: br.rounds[r.round - 1].target });
    }
  }
  return out;
}

/** Where this match sits in the flight, if it is one of its matches. */
export function findMatch(f: Flight, matchId: string): { bracket: BracketName; ref: PairingRef } | null {
  for (const b of ['main', 'consolation'] as const) {
    const br = b === 'main' ? f.main : f.consolation;
    const ref = br ? pairingOfMatch(br.rounds, matchId) : null;
    if (ref) return { bracket: b, ref };
  }
  return null;
}

/** The match created for a pending pairing. */
export function withMatch(f: Flight, p: Pick<PendingMatch, 'bracket' | 'round' | 'pairing'>, matchId: string): Flight {
  const br = bracketOf(f, p.bracket);
  return withBracket(f, p.bracket, { ...br, rounds: withPairing(br.rounds, { round: p.round, pairing: p.pairing }, { matchId }) });
}

/** R9.5: a match of the flight has ended; its result is carried on (R9.3, R9.4, R9.11). */
export function recordResult(f: Flight, rules: FlightRules, matchId: string, result: PairingResult): Flight {
  const at = findMatch(f, matchId);
  if (!at) return f;
  const br = bracketOf(f, at.bracket);
  const rounds = rules.format === 'knockout' ? recordKnockoutResult(br.rounds, at.ref.round, at.ref.pairing, result, leftEvent(f)) : withPairing(br.rounds, at.ref, { result });
  return advance(withBracket(f, at.bracket, { ...br, rounds }), rules);
}

/**
 * R9.10: the matches that must not have begun for a correction of this match's result,
 * and (when none has) the flight with the result taken back: the pairing it fed taken back
 * with it (their matches, none begun, to be removed), a consolation bracket drawn from it
 * taken back whole, the prizes taken back.
 */
/**
 * R9.10 (Swiss): the matches of the rounds after this match's, which must all be idle (no game
 * started) for a correction to pair the next round again whole; null when one of them has a
 * result already (it is kept) or the match is not one of the flight's Swiss matches.
 */
export function laterRoundMatches(f: Flight, rules: FlightRules, matchId: string): string[] | null {
  const at = findMatch(f, matchId);
  if (!at || rules.format !== 'swiss') return null;
  const later = bracketOf(f, at.bracket).rounds.filter((r) => r.no > at.ref.round);
  const played = later.some((r) => r.pairings.some((p) => p.bye === null && p.result !== null));
  return played ? null : later.flatMap((r) => r.pairings.flatMap((p) => (p.matchId === null ? [] : [p.matchId])));
}

/**
 * The flight's correction of a match's result (R9.10). In a Swiss event, `repairRound` (no
 * match of a later round has begun or ended: laterRoundMatches) withdraws every later round,
 * so the next round is paired again from the corrected ranking as R9.4 gives it; otherwise
 * only the pairings of the match's players are taken back.
 */
export function correctionOf(f: Flight, rules: FlightRules, matchId: string, repairRound = false): { guardMatches: string[]; flight: Flight; removed: string[] } | null {
  const at = findMatch(f, matchId);
  if (!at) return null;
  const br = bracketOf(f, at.bracket);
  const guard = laterMatchesOf(br.rounds, at.ref);
  const removed: string[] = [];
  let rounds: Round[];
  if (rules.format === 'knockout') {
    rounds = recordKnockoutResult(br.rounds, at.ref.round, at.ref.pairing, null);
    // The pairings taken back with it (the one it fed, and on through walkovers) lose their matches.
    const kept = new Set(rounds.flatMap((r) => r.pairings.map((p) => p.matchId)));
    for (const r of br.rounds) for (const p of r.pairings) if (p.matchId !== null && !kept.has(p.matchId)) removed.push(p.matchId);
  } else if (repairRound) {
    rounds = withPairing(br.rounds, at.ref, { result: null }).filter((r) => r.no <= at.ref.round);
    for (const r of br.rounds) if (r.no > at.ref.round) for (const p of r.pairings) if (p.matchId !== null) removed.push(p.matchId);
  } else {
    const taken = unpairAfter(withPairing(br.rounds, at.ref, { result: null }), at.ref);
    removed.push(...taken.removed);
    rounds = taken.rounds;
  }
  let flight = withBracket(f, at.bracket, { ...br, rounds });
  if (at.bracket === 'main' && f.consolation) {
    // The consolation was drawn from the first matches' results: taken back with one of them.
    const players = new Set(br.rounds[at.ref.round - 1].pairings[at.ref.pairing - 1].slots.filter((s): s is string => s !== null));
    if (f.consolation.seeded.some((id) => players.has(id)) || consolationEntrants(br.seeded, rounds) === null) {
      for (const r of f.consolation.rounds) for (const p of r.pairings) if (p.matchId) guard.push(p.matchId);
      for (const r of f.consolation.rounds) for (const p of r.pairings) if (p.matchId) removed.push(p.matchId);
      flight = { ...flight, consolation: null };
    }
  }
  return { guardMatches: [...new Set(guard)], flight: { ...flight, prizes: null }, removed: [...new Set(removed)] };
}

/** R9.8: the match the player is still to finish in this flight (the one he forfeits if he leaves), if any. */
export function currentMatchOf(f: Flight, playerId: string): string | null {
  let current: string | null = null;
  for (const br of [f.main, f.consolation]) {
    const c = br ? currentPairingOf(br.rounds, playerId) : null;
    if (c) current = c.matchId;
  }
  return current;
}

/**
 * R9.8: the player leaves the event. Answers the flight and his match still to be decided
 * (which the service forfeits with the reason, R3.9); a pairing he is in that has no match
 * yet is a walkover for his opponent.
 */
export function withdrawEntry(
  f: Flight,
  rules: FlightRules,
  playerId: string,
  reason: 'withdrawal' | 'disqualification',
): { flight: Flight; forfeit: { matchId: string; side: 0 | 1 } | null } {
  const entry = f.entries.find((e) => e.playerId === playerId);
  if (!entry) refuse('NOT_ENTERED', 'R9.8', `The player is not entered in flight "${f.name}" (R9.8)`);
  if (entry.status !== 'in') refuse('ALREADY_OUT', 'R9.8', `The player has already left the event (${entry.status}, R9.8)`);
  const entries = f.entries.map((e) => (e.playerId === playerId ? { ...e, status: reason === 'withdrawal' ? ('withdrawn' as const) : ('disqualified' as const) } : e));
  let current: { matchId: string; side: 0 | 1 } | null = null;
  for (const br of [f.main, f.consolation]) {
    const c = br ? currentPairingOf(br.rounds, playerId) : null;
    if (c) current = { matchId: c.matchId, side: c.side };
  }
  const flight = f.main ? advance({ ...f, entries }, rules) : { ...f, entries };
  return { flight, forfeit: current };
}

/** R9.5: a flight's status: open before its draw, finished once its brackets are decided (or its Swiss rounds all played). */
export function flightStatus(f: Flight, rules: FlightRules): 'open' | 'running' | 'finished' {
  if (!f.main) return 'open';
  if (rules.format === 'knockout') {
    if (!knockoutFinished(f.main.rounds)) return 'running';
    if (rules.consolation) {
      // The consolation is finished too, or there is none to play (fewer than 2 first-match losers).
      const entrants = consolationEntrants(f.main.seeded, f.main.rounds) ?? [];
      if (entrants.length >= 2 && !(f.consolation && knockoutFinished(f.consolation.rounds))) return 'running';
    }
    return 'finished';
  }
  const rounds = f.main.rounds;
  const last = rounds[rounds.length - 1];
  const pairedAll = last.no >= (rules.rounds ?? 1) || f.main.seeded.filter((id) => !leftEvent(f).has(id)).length < 2;
  return pairedAll && roundDecided(last) && pendingMatches(f).length === 0 ? 'finished' : 'running';
}

/** R9.4, R9.5: the standings of a bracket. */
export function bracketStandings(br: Bracket, format: TournamentFormat): TournamentStanding[] {
  return format === 'swiss' ? swissStandings(br.seeded, br.rounds) : knockoutStandings(br.seeded, br.rounds);
}

/** R9.9: the players who paid the fee: every one drawn (one who left after the draw included, R9.9); none before the draw. */
export function feePayers(f: Flight): readonly string[] {
  return f.main ? f.main.seeded : [];
}

/** R9.9: the pool of the flight (the drawn entries × fee; nothing refunded to one who left after the draw). */
export function poolOf(f: Flight, rules: FlightRules): number {
  return rules.entryFeeMinor ? feePayers(f).length * rules.entryFeeMinor : 0;
}

/**
 * R9.5: the tournament's status from its flights': open until the draw (a withdrawal before
 * it keeps the entries open, R9.2), finished once every flight is, else running.
 */
export function tournamentStatus(flights: readonly Flight[], rules: FlightRules): 'open' | 'running' | 'finished' {
  const each = flights.map((f) => flightStatus(f, rules));
  if (each.every((s) => s === 'open')) return 'open';
  return each.every((s) => s === 'finished') ? 'finished' : 'running';
}

/** R9.9: the house's commission and the prizes of a finished flight, to the minor unit. */
export function flightPrizes(f: Flight, rules: FlightRules): { houseMinor: number; prizes: Prize[] } {
  const poolMinor = poolOf(f, rules);
  const houseMinor = Math.floor((poolMinor * rules.housePercent) / 100);
  if (!f.main || flightStatus(f, rules) !== 'finished' || poolMinor === 0) return { houseMinor, prizes: [] };
  const placed = (br: Bracket | null): Placed[] => {
    if (!br) return [];
    const seedOf = new Map(br.seeded.map((id, i) => [id, i + 1]));
    return bracketStandings(br, rules.format).flatMap((s) => (s.place === null ? [] : [{ playerId: s.playerId, place: s.place, seed: seedOf.get(s.playerId) as number }]));
  };
  const table = prizeTable({ poolMinor, housePercent: rules.housePercent, payouts: rules.payouts, main: placed(f.main), consolation: placed(f.consolation) });
  return { houseMinor: table.houseMinor, prizes: [...table.prizes] };
}

export { sidesOf };
