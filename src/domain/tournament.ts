/**
 * Tournaments (R9): knockout brackets, Swiss rounds, places, lateness, clocks.
 *
 * Pure: no framework, no I/O. A flight's draw is a list of rounds, each a list of
 * pairings; the service keeps them as they are here and feeds each match's result back
 * in. Nothing here creates a match: a pairing that becomes playable is reported, and the
 * service creates its match.
 */
import { refuse } from './errors';
import type { MatchEnd } from './match';
import type { SideIndex } from './types';

export type TournamentFormat = 'knockout' | 'swiss';

/** A pairing's result, as its match ended (R3.2, R3.9), or a walkover without a match (R9.8). */
export interface PairingResult {
  readonly winnerSide: SideIndex;
  readonly endedBy: MatchEnd;
  /** The match's score, side 0 first; [0, 0] for a walkover. */
  readonly score: readonly [number, number];
}

/**
 * One pairing of a round. Knockout: `slots` fill as the feeders' winners are known (side 0
 * from the upper feeder); `bye` when one slot can never be filled (R9.3). Swiss: both slots
 * are known when the round is paired, or the pairing is a bye (R9.4).
 */
export interface Pairing {
  readonly no: number;
  readonly slots: readonly [string | null, string | null];
  /** The player who wins this pairing without a match (R9.3, R9.4). */
  readonly bye: string | null;
  readonly matchId: string | null;
  readonly result: PairingResult | null;
}

export interface Round {
  readonly no: number;
  readonly target: number;
  readonly pairings: readonly Pairing[];
}

/** A pairing whose two players are both known and which has neither a match nor a result yet. */
export interface ReadyPairing {
  readonly round: number;
  readonly pairing: number;
  readonly sides: readonly [string, string];
}

/** R9.1: round n's target; the last one given repeats. */
export function targetOf(targets: readonly number[], round: number): number {
  return targets[Math.min(round, targets.length) - 1];
}

/** The pairing's winner, once it has one (a bye, a result). */
export function winnerOf(p: Pairing): string | null {
  if (p.bye !== null) return p.bye;
  if (p.result === null) return null;
  return p.slots[p.result.winnerSide];
}

/** The pairing's loser, once its match (or walkover) has decided it. */
export function loserOf(p: Pairing): string | null {
  if (p.bye !== null || p.result === null) return null;
  return p.slots[p.result.winnerSide === 0 ? 1 : 0];
}

/** Both players, when both are known and the pairing is not a bye. */
export function sidesOf(p: Pairing): [string, string] | null {
  if (p.bye !== null) return null;
  const [a, b] = p.slots;
  return a !== null && b !== null ? [a, b] : null;
}

// ---- knockout (R9.3) ------------------------------------------------------------------

/** R9.3: the bracket's size, the next power of two at or above the entries (2 at least). */
export function bracketSize(entries: number): number {
  if (!Number.isSafeInteger(entries) || entries < 2) refuse('TOO_FEW_ENTRIES', 'R9.2', `A flight needs at least 2 entries; it has ${entries} (R9.2)`);
  let size = 2;
  while (size < entries) size *= 2;
  return size;
}

/**
 * R9.3: the seeds of the first round's pairings from the top, two by two: seed 1 meets
 * seed N, seed 2 meets seed N − 1, and seeds 1 and 2 can meet only in the final. For 8:
 * 1–8, 4–5, 3–6, 2–7. Each doubling puts beside every seed s its opponent size + 1 − s,
 * every other pair turned round, so the halves keep their order.
 */
export function bracketSeeds(size: number): number[] {
  let order = [1, 2];
  for (let n = 4; n <= size; n *= 2) {
    const next: number[] = [];
    order.forEach((s, i) => (i % 2 === 0 ? next.push(s, n + 1 - s) : next.push(n + 1 - s, s)));
    order = next;
  }
  return order.slice(0, size);
}

/**
 * R9.3: the whole bracket of players given in seed order (best first): round 1 paired by
 * the standard positions (the better seed on side 0), the byes (bracket size − entries,
 * to the top seeds) decided at once and their winners in round 2; the later rounds'
 * pairings empty until their feeders are decided.
 */
export function drawKnockout(seeded: readonly string[], targets: readonly number[]): Round[] {
  const size = bracketSize(seeded.length);
  const order = bracketSeeds(size);
  const first: Pairing[] = [];
  for (let i = 0; i < size / 2; i++) {
    const [s, t] = [order[2 * i], order[2 * i + 1]];
    const [better, worse] = s < t ? [s, t] : [t, s];
    const a = seeded[better - 1];
    const b = worse <= seeded.length ? seeded[worse - 1] : null;
    first.push({ no: i + 1, slots: [a, b], bye: b === null ? a : null, matchId: null, result: null });
  }
  let rounds: Round[] = [{ no: 1, target: targetOf(targets, 1), pairings: first }];
  for (let r = 2, n = size / 4; n >= 1; r++, n /= 2) {
    rounds.push({ no: r, target: targetOf(targets, r), pairings: Array.from({ length: n }, (_, i) => ({ no: i + 1, slots: [null, null], bye: null, matchId: null, result: null })) });
  }
  for (const p of first) if (p.bye !== null) rounds = carry(rounds, 1, p.no);
  return rounds;
}

/** Puts the winner of (round, pairing) into the slot it feeds in the next round. */
function carry(rounds: Round[], round: number, pairing: number): Round[] {
  const from = rounds[round - 1].pairings[pairing - 1];
  const next = rounds[round];
  if (!next) return rounds;
  const into = Math.ceil(pairing / 2);
  const side = pairing % 2 === 1 ? 0 : 1;
  const target = next.pairings[into - 1];
  const slots: [string | null, string | null] = [target.slots[0], target.slots[1]];
  slots[side] = winnerOf(from);
  return replacePairing(rounds, round + 1, { ...target, slots });
}

function replacePairing(rounds: readonly Round[], round: number, p: Pairing): Round[] {
  return rounds.map((r) => (r.no === round ? { ...r, pairings: r.pairings.map((q) => (q.no === p.no ? p : q)) } : r));
}

/** The pairing (round, no), or a refusal naming it. */
export function pairingAt(rounds: readonly Round[], round: number, no: number): Pairing {
  const p = rounds[round - 1]?.pairings[no - 1];
  if (!p) throw new Error(`no pairing ${round}.${no}`);
  return p;
}

/**
 * R9.5: a knockout pairing's result: its winner goes into the pairing it feeds (R9.3), which
 * may then be playable. A pairing whose two players are known but one of them has left the
 * event (R9.8) is a walkover: the other advances at once, without a match.
 */
export function recordKnockoutResult(rounds: readonly Round[], round: number, no: number, result: PairingResult | null, out: ReadonlySet<string> = new Set()): Round[] {
  const p = pairingAt(rounds, round, no);
  let next = replacePairing(rounds, round, { ...p, result });
  if (result === null) return clearFed(next, round, no);
  next = carry(next, round, no);
  return walkovers(next, out);
}

/**
 * Decides every pairing whose two players are known and one (or both) has left (R9.8): the
 * other advances by forfeit, as does side 0 when both have left (and loses his next one).
 */
export function walkovers(rounds: readonly Round[], out: ReadonlySet<string>): Round[] {
  let next = [...rounds];
  for (let changed = true; changed;) {
    changed = false;
    for (const r of next) {
      for (const p of r.pairings) {
        const sides = sidesOf(p);
        if (!sides || p.result !== null || p.matchId !== null) continue;
        const gone: [boolean, boolean] = [out.has(sides[0]), out.has(sides[1])];
        if (!gone[0] && !gone[1]) continue;
        const loser: SideIndex = gone[1] ? 1 : 0;
        const result: PairingResult = { winnerSide: loser === 0 ? 1 : 0, endedBy: { kind: 'forfeit', side: loser, reason: 'withdrawal' }, score: [0, 0] };
        next = carry(replacePairing(next, r.no, { ...p, result }), r.no, p.no);
        changed = true;
      }
    }
  }
  return next;
}

/**
 * R9.10: the winner taken out of the pairing a voided result fed, and that pairing's match
 * with it. When that pairing had been decided without a match (a walkover, R9.8), what it
 * carried further is taken back the same way, round by round.
 */
function clearFed(rounds: Round[], round: number, no: number): Round[] {
  const next = rounds[round];
  if (!next) return rounds;
  const into = Math.ceil(no / 2);
  const side = no % 2 === 1 ? 0 : 1;
  const target = next.pairings[into - 1];
  const slots: [string | null, string | null] = [target.slots[0], target.slots[1]];
  slots[side] = null;
  const cleared = replacePairing(rounds, round + 1, { ...target, slots, matchId: null, result: null });
  return target.result !== null ? clearFed(cleared, round + 1, into) : cleared;
}

/** Every pairing whose two players are known that has neither a match nor a result yet. */
export function readyPairings(rounds: readonly Round[]): ReadyPairing[] {
  const out: ReadyPairing[] = [];
  for (const r of rounds) {
    for (const p of r.pairings) {
      const sides = sidesOf(p);
      if (sides && p.matchId === null && p.result === null) out.push({ round: r.no, pairing: p.no, sides });
    }
  }
  return out;
}

/** R9.5: a knockout is over when its final is decided. */
export function knockoutFinished(rounds: readonly Round[]): boolean {
  const final = rounds[rounds.length - 1]?.pairings[0];
  return final !== undefined && winnerOf(final) !== null;
}

/**
 * R9.5: knockout places. The final's winner is 1st and its loser 2nd, the semi-finals'
 * losers 3rd equal; further down, the losers of a round of k pairings share place k + 1
 * (5th equal in the quarter-finals). Players still in have no place yet.
 */
export function knockoutPlaces(rounds: readonly Round[]): Map<string, number> {
  const places = new Map<string, number>();
  for (const r of rounds) {
    for (const p of r.pairings) {
      const loser = loserOf(p);
      if (loser !== null) places.set(loser, r.pairings.length + 1);
    }
  }
  if (knockoutFinished(rounds)) places.set(winnerOf(rounds[rounds.length - 1].pairings[0]) as string, 1);
  return places;
}

// ---- Swiss (R9.4) ---------------------------------------------------------------------

/** A player's line in a flight's standings (R9.4, R9.5). */
export interface TournamentStanding {
  readonly playerId: string;
  /** 1-based; Swiss: every player his own (the ranking); knockout: once decided (equal places shared). */
  readonly place: number | null;
  readonly wins: number;
  /** R9.4: the sum of the wins of the opponents met; a bye adds nothing. */
  readonly buchholz: number;
  readonly pointsFor: number;
  readonly pointsAgainst: number;
}

/** What each player has done so far: wins, opponents met, byes, points for and against. */
interface Record_ {
  wins: number;
  byes: number;
  opponents: string[];
  pointsFor: number;
  pointsAgainst: number;
}

function records(seeded: readonly string[], rounds: readonly Round[]): Map<string, Record_> {
  const rec = new Map<string, Record_>(seeded.map((id) => [id, { wins: 0, byes: 0, opponents: [], pointsFor: 0, pointsAgainst: 0 }]));
  const of = (id: string) => {
    let r = rec.get(id);
    if (!r) rec.set(id, (r = { wins: 0, byes: 0, opponents: [], pointsFor: 0, pointsAgainst: 0 }));
    return r;
  };
  for (const round of rounds) {
    for (const p of round.pairings) {
      if (p.bye !== null) {
        const r = of(p.bye);
        r.wins += 1;
        r.byes += 1;
        continue;
      }
      const sides = sidesOf(p);
      if (!sides || p.result === null) continue;
      const [a, b] = [of(sides[0]), of(sides[1])];
      a.opponents.push(sides[1]);
      b.opponents.push(sides[0]);
      (p.result.winnerSide === 0 ? a : b).wins += 1;
      a.pointsFor += p.result.score[0];
      a.pointsAgainst += p.result.score[1];
      b.pointsFor += p.result.score[1];
      b.pointsAgainst += p.result.score[0];
    }
  }
  return rec;
}

/**
 * R9.4: the Swiss ranking of the players (given in seed order): wins, then Buchholz, then
 * match points won minus lost, then seed; every player has his own place.
 */
export function swissStandings(seeded: readonly string[], rounds: readonly Round[]): TournamentStanding[] {
  const rec = records(seeded, rounds);
  const seedOf = new Map(seeded.map((id, i) => [id, i]));
  const lines = seeded.map((playerId) => {
    const r = rec.get(playerId) as Record_;
    const buchholz = r.opponents.reduce((n, o) => n + (rec.get(o)?.wins ?? 0), 0);
    return { playerId, wins: r.wins, buchholz, pointsFor: r.pointsFor, pointsAgainst: r.pointsAgainst };
  });
  lines.sort(
    (x, y) =>
      y.wins - x.wins ||
      y.buchholz - x.buchholz ||
      y.pointsFor - y.pointsAgainst - (x.pointsFor - x.pointsAgainst) ||
      (seedOf.get(x.playerId) as number) - (seedOf.get(y.playerId) as number),
  );
  return lines.map((l, i) => ({ ...l, place: i + 1 }));
}

/** Knockout standings: wins and points from the matches, places once decided (R9.5). */
export function knockoutStandings(seeded: readonly string[], rounds: readonly Round[]): TournamentStanding[] {
  const rec = records(seeded, rounds);
  const places = knockoutPlaces(rounds);
  const seedOf = new Map(seeded.map((id, i) => [id, i]));
  const lines = seeded.map((playerId) => {
    const r = rec.get(playerId) as Record_;
    return {
      playerId,
      place: places.get(playerId) ?? null,
      wins: r.wins,
      buchholz: r.opponents.reduce((n, o) => n + (rec.get(o)?.wins ?? 0), 0),
      pointsFor: r.pointsFor,
      pointsAgainst: r.pointsAgainst,
    };
  });
  // Placed players by place, then those still in, each by seed.
  return lines.sort((x, y) => (x.place ?? Infinity) - (y.place ?? Infinity) || (seedOf.get(x.playerId) as number) - (seedOf.get(y.playerId) as number));
}

/** A Swiss round once paired: its pairings (the better-ranked player on side 0) and its bye. */
export interface SwissPairing {
  readonly pairs: ReadonlyArray<readonly [string, string]>;
  readonly bye: string | null;
}

/** The most pairings tried before a pairing that avoids every rematch is given up for one with the fewest (a bound on the search). */
const SEARCH_BUDGET = 200_000;

/**
 * R9.4: the next Swiss round of the players still in, ranked (best first). With an odd
 * number, the lowest-ranked player who has not had a bye gets it. Round 1 pairs the top
 * half of the rest against the bottom half in order; later rounds take the players from
 * the top down and pair each with the best-ranked one below him he has not met, undoing
 * the last pairing and trying the next candidate where one would be left without a
 * possible opponent. Two players meet again only when no pairing avoids it.
 */
export function pairSwissRound(ranked: readonly string[], roundNo: number, met: ReadonlySet<string>, hadBye: ReadonlySet<string>): SwissPairing {
  let players = [...ranked];
  let bye: string | null = null;
  if (players.length % 2 === 1) {
    const i = [...players.keys()].reverse().find((k) => !hadBye.has(players[k]));
    // Everyone has had one (more rounds than players): the lowest-ranked takes a second.
    const at = i ?? players.length - 1;
    bye = players[at];
    players = players.filter((_, k) => k !== at);
  }
  if (roundNo === 1) {
    const k = players.length / 2;
    return { pairs: players.slice(0, k).map((a, i) => [a, players[k + i]] as const), bye };
  }
  const key = (a: string, b: string) => pairKey(a, b);
  const avoid = search(players, (a, b) => !met.has(key(a, b)));
  if (avoid) return { pairs: avoid, bye };
  // No pairing avoids every rematch: fewest rematches, found the same way with a cost.
  return { pairs: leastRematches(players, met), bye };
}

/** The key of two players who have met, whichever order they are given in. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** Depth-first from the top of the ranking, candidates in ranking order; null when none avoids the refused pairs (or the budget runs out). */
function search(players: readonly string[], allowed: (a: string, b: string) => boolean): Array<readonly [string, string]> | null {
  let budget = SEARCH_BUDGET;
  const used = new Array<boolean>(players.length).fill(false);
  const pairs: Array<readonly [string, string]> = [];
  const go = (): boolean => {
    const i = used.indexOf(false);
    if (i === -1) return true;
    used[i] = true;
    for (let j = i + 1; j < players.length; j++) {
      if (used[j] || !allowed(players[i], players[j])) continue;
      if (--budget < 0) return false;
      used[j] = true;
      pairs.push([players[i], players[j]]);
      if (go()) return true;
      pairs.pop();
      used[j] = false;
    }
    used[i] = false;
    return false;
  };
  return go() ? pairs : null;
}

/** A pairing with the fewest rematches: allowing 1, 2, … of them in turn (each tried as R9.4 orders candidates). */
function leastRematches(players: readonly string[], met: ReadonlySet<string>): Array<readonly [string, string]> {
  for (let allowance = 1; allowance <= players.length / 2; allowance++) {
    let budget = SEARCH_BUDGET;
    const used = new Array<boolean>(players.length).fill(false);
    const pairs: Array<readonly [string, string]> = [];
    const go = (left: number): boolean => {
      const i = used.indexOf(false);
      if (i === -1) return true;
      used[i] = true;
      for (let j = i + 1; j < players.length; j++) {
        if (used[j]) continue;
        const rematch = met.has(pairKey(players[i], players[j]));
        if (rematch && left === 0) continue;
        if (--budget < 0) return false;
        used[j] = true;
        pairs.push([players[i], players[j]]);
        if (go(rematch ? left - 1 : left)) return true;
        pairs.pop();
        used[j] = false;
      }
      used[i] = false;
      return false;
    };
    if (go(allowance)) return pairs;
  }
  // The search's budget ran out every time: top down in order.
  const out: Array<readonly [string, string]> = [];
  for (let i = 0; i + 1 < players.length; i += 2) out.push([players[i], players[i + 1]]);
  return out;
}

/** The pairs that have met in these rounds and the players who have had a bye (R9.4). */
export function swissHistory(rounds: readonly Round[]): { met: Set<string>; hadBye: Set<string> } {
  const met = new Set<string>();
  const hadBye = new Set<string>();
  for (const r of rounds) {
    for (const p of r.pairings) {
      if (p.bye !== null) hadBye.add(p.bye);
      const sides = sidesOf(p);
      if (sides) met.add(pairKey(sides[0], sides[1]));
    }
  }
  return { met, hadBye };
}

/** The Swiss round as pairings: the pairs in order, then the bye. */
export function swissRound(no: number, target: number, paired: SwissPairing): Round {
  const pairings: Pairing[] = paired.pairs.map(([a, b], i) => ({ no: i + 1, slots: [a, b], bye: null, matchId: null, result: null }));
  if (paired.bye !== null) pairings.push({ no: pairings.length + 1, slots: [paired.bye, null], bye: paired.bye, matchId: null, result: null });
  return { no, target, pairings };
}

/** Whether every pairing of the round has been decided (R9.4: the next round is paired then). */
export function roundDecided(r: Round): boolean {
  return r.pairings.every((p) => winnerOf(p) !== null);
}

// ---- results, withdrawals and corrections (R9.8, R9.10) ---------------------------------

/** Where a match sits in a draw. */
export interface PairingRef {
  readonly round: number;
  readonly pairing: number;
}

/** The pairing of a match, if the draw has it. */
export function pairingOfMatch(rounds: readonly Round[], matchId: string): PairingRef | null {
  for (const r of rounds) for (const p of r.pairings) if (p.matchId === matchId) return { round: r.no, pairing: p.no };
  return null;
}

/** A player's pairing that is still to be decided and has a match (R9.8: the one he forfeits when he leaves). */
export function currentPairingOf(rounds: readonly Round[], playerId: string): (PairingRef & { side: SideIndex; matchId: string }) | null {
  for (const r of rounds) {
    for (const p of r.pairings) {
      if (p.result !== null || p.bye !== null || p.matchId === null) continue;
      const side = p.slots.indexOf(playerId);
      if (side === 0 || side === 1) return { round: r.no, pairing: p.no, side, matchId: p.matchId };
    }
  }
  return null;
}

/**
 * R9.10: the matches of the event that come after this pairing for either of its players
 * (in later rounds): a correction of its result is allowed only while no game of theirs
 * has started.
 */
export function laterMatchesOf(rounds: readonly Round[], ref: PairingRef): string[] {
  const p = pairingAt(rounds, ref.round, ref.pairing);
  const players = new Set(p.slots.filter((s): s is string => s !== null));
  const out: string[] = [];
  for (const r of rounds) {
    if (r.no <= ref.round) continue;
    for (const q of r.pairings) if (q.matchId !== null && q.slots.some((s) => s !== null && players.has(s))) out.push(q.matchId);
  }
  return out;
}

/**
 * R9.10 (Swiss): a result voided after the next round was paired takes its two players'
 * pairings of that round back (their opponents' with them); the players are paired again
 * among themselves once the result is known again. Answers the rounds, the matches of the
 * pairings taken back (to be removed: none has a game) and the players left unpaired.
 */
export function unpairAfter(rounds: readonly Round[], ref: PairingRef): { rounds: Round[]; removed: string[] } {
  const p = pairingAt(rounds, ref.round, ref.pairing);
  const players = new Set(p.slots.filter((s): s is string => s !== null));
  const removed: string[] = [];
  const next = rounds.map((r) => {
    if (r.no <= ref.round) return r;
    const kept = r.pairings.filter((q) => {
      const hit = q.slots.some((s) => s !== null && players.has(s));
      if (hit && q.matchId !== null) removed.push(q.matchId);
      return !hit;
    });
    return { ...r, pairings: kept.map((q, i) => ({ ...q, no: i + 1 })) };
  });
  return { rounds: next.filter((r) => r.no <= ref.round || r.pairings.length > 0), removed };
}

/** Sets a pairing's match (once created) or result; the result of a knockout is carried with `recordKnockoutResult`. */
export function withPairing(rounds: readonly Round[], ref: PairingRef, change: Partial<Pick<Pairing, 'matchId' | 'result'>>): Round[] {
  return replacePairing(rounds, ref.round, { ...pairingAt(rounds, ref.round, ref.pairing), ...change });
}

/** Adds pairings to a round (Swiss players paired again after a correction). */
export function withPairings(rounds: readonly Round[], round: number, extra: SwissPairing): Round[] {
  return rounds.map((r) => {
    if (r.no !== round) return r;
    const at = r.pairings.length;
    const added: Pairing[] = extra.pairs.map(([a, b], i) => ({ no: at + i + 1, slots: [a, b], bye: null, matchId: null, result: null }));
    if (extra.bye !== null) added.push({ no: at + added.length + 1, slots: [extra.bye, null], bye: extra.bye, matchId: null, result: null });
    return { ...r, pairings: [...r.pairings, ...added] };
  });
}

// ---- consolation (R9.11) --------------------------------------------------------------

/** R9.8: a pairing decided without a match because a player had left. */
function isWalkover(p: Pairing): boolean {
  return p.matchId === null && p.result !== null && p.result.endedBy.kind === 'forfeit' && p.result.endedBy.reason === 'withdrawal' && p.result.score[0] === 0 && p.result.score[1] === 0;
}

/**
 * R9.11: the players who lost their first match played, in the order of their seeds, once
 * every player's first match is decided; null before. Neither a bye nor a walkover (R9.8)
 * is a match played: who advances by one waits for his next pairing, and who is walked
 * over has left the event and enters nothing.
 */
export function consolationEntrants(seeded: readonly string[], rounds: readonly Round[]): string[] | null {
  const first = new Map<string, 'won' | 'lost' | 'pending' | 'left'>();
  for (const r of rounds) {
    for (const p of r.pairings) {
      const sides = sidesOf(p);
      if (sides === null) continue;
      for (const side of [0, 1] as const) {
        const id = sides[side];
        if (first.has(id)) continue;
        if (isWalkover(p)) {
          if ((p.result as PairingResult).winnerSide !== side) first.set(id, 'left');
          continue;
        }
        first.set(id, p.result === null ? 'pending' : p.result.winnerSide === side ? 'won' : 'lost');
      }
    }
  }
  const finished = knockoutFinished(rounds);
  // Every player must have played (or be playing) his first match, and all of them decided;
  // once the bracket is over, one who never played a match (walkovers all the way) has none.
  for (const id of seeded) {
    const f = first.get(id);
    if (f === 'pending' || (f === undefined && !finished)) return null;
  }
  return seeded.filter((id) => first.get(id) === 'lost');
}

// ---- lateness and clocks (R9.6, R9.7) ---------------------------------------------------

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/**
 * R9.6: one penalty point for every full 5 minutes late (4:59 none, 5:00 one, 14:59 two,
 * 15:00 three), and a forfeit for lateness when they come to more than half the target.
 */
export function latenessPenalty(lateMs: number, target: number): { points: number; minutes: number; forfeit: boolean } {
  const late = Math.max(0, Math.floor(lateMs));
  const points = Math.floor(late / FIVE_MINUTES_MS);
  return { points, minutes: Math.floor(late / 60000), forfeit: points * 2 > target };
}

/**
 * R9.6: a side's arrival at a match: the penalty its lateness costs, from the match's
 * scheduled start (a match without one cannot judge lateness).
 */
export function arrivalPenalty(scheduledAt: string | undefined, arrivedAt: Date, target: number): { points: number; minutes: number; forfeit: boolean } {
  if (scheduledAt === undefined) refuse('NOT_SCHEDULED', 'R9.6', 'The match has no scheduled start to measure lateness from (R9.6)');
  return latenessPenalty(arrivedAt.getTime() - Date.parse(scheduledAt), target);
}

/**
 * R9.7: a match's time allowance on a clock: 2 minutes per match point for each player,
 * with a 12-second delay per move; a clock brought in mid-match gives each player
 * (RA + RB) × 2 minutes, RA and RB the points each side still needs.
 */
export function clockAllowance(target: number, score?: readonly [number, number]): { perPlayerMs: number; delayMs: number } {
  const points = score ? Math.max(0, target - score[0]) + Math.max(0, target - score[1]) : target;
  return { perPlayerMs: points * 2 * 60 * 1000, delayMs: 12 * 1000 };
}

// ---- seeding (R9.3) -------------------------------------------------------------------

/** An entry as the draw seeds it. */
export interface SeedInput {
  readonly playerId: string;
  /** Entry order, from 1. */
  readonly entryNo: number;
  readonly rating: number;
  readonly seed: number | null;
}

/**
 * R9.3: the players in seed order: by club rating (higher first, ties by entry order), by
 * the seeds given (1 first; every entry must have one, each once), or at random from a
 * given seed (the same seed gives the same draw).
 */
export function seedOrder(entries: readonly SeedInput[], seeding: 'rating' | 'given' | 'random', randomSeed = 0): string[] {
  if (seeding === 'given') {
    const seeds = entries.map((e) => e.seed);
    const n = entries.length;
    const ok = seeds.every((s) => s !== null && Number.isSafeInteger(s) && s >= 1 && s <= n) && new Set(seeds).size === n;
    if (!ok) refuse('INVALID_SEEDS', 'R9.3', `Seeding "given" needs every entry seeded 1 to ${n}, each seed once (R9.3)`);
    return [...entries].sort((a, b) => (a.seed as number) - (b.seed as number)).map((e) => e.playerId);
  }
  const byEntry = [...entries].sort((a, b) => a.entryNo - b.entryNo);
  if (seeding === 'rating') return [...byEntry].sort((a, b) => b.rating - a.rating || a.entryNo - b.entryNo).map((e) => e.playerId);
  const rnd = mulberry32(randomSeed >>> 0);
  const out = byEntry.map((e) => e.playerId);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A small seeded generator (mulberry32): the same seed, the same numbers, on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
