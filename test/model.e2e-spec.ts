import fc from 'fast-check';
import type { Response } from 'supertest';
import { rebuildReadModels } from '../src/player-stats/rebuild';
import { bearer, newClub, startApp, TestApp } from './support/app';

/**
 * Model-based tests over the HTTP API (fast-check `commands`).
 *
 * Every run is a random club evening on a fresh club: sessions with a rake, money
 * tables, chouettes and matches; whole games, and games started then finished one
 * action at a time; abandons, voids (and refused voids), payments (the house
 * included) on open and closed sessions, joins and leaves at a chouette, penalties
 * in a match, closing sessions. Each command runs against the real app and against
 * `Model`, an in-memory implementation of docs/rules.md written here from the rule text
 * alone (nothing from src/ is imported). After every command the balances, every
 * session's statement (nets, outstanding, games, transfers) and whole ledger, and the
 * table touched are compared with the model; at the end of a run, each player's
 * statement and balances too, and the read models the commands kept (statistics,
 * balances, ratings' match counts, session totals) with a rebuild from the history.
 *
 * The model stays small by restricting the vocabulary:
 * - money tables with `jacoby: false`; a game is `finish`, `double take finish`,
 *   `double pass`, `double take redouble take finish` or `double take redouble pass`
 *   (R1.1, R1.3, R4.2);
 * - chouettes with per-member cubes and Jacoby (the defaults), single results only:
 *   either `finish` alone, or the box doubling some members who take or pass, then one
 *   centred member doubling the box, who takes or passes (R5.3–R5.5); rotation from
 *   the captain's cube (R5.7); a stake per player (R5.11); a box partner from 3 or 4
 *   seated at 50 % or 30 % (R5.9), at tables where nobody joins or leaves;
 * - matches with the default rules (Crawford on, dead cube refused), singles or pairs,
 *   doubles only where allowed (R3.3–R3.5), the stake on the last game (R3.8),
 *   penalties between games (R3.6), no void of a game followed by a penalty;
 * - rake (R6.4) on each party's positive net for a money or chouette game (after a
 *   partner's share), rounded down, in integers.
 *
 * Reproduce a failure: MODEL_SEED=<seed> MODEL_PATH=<path> (both printed by
 * fast-check), and MODEL_REPLAY=<replayPath> (printed at the end of the
 * counterexample) to replay exactly those commands. MODEL_RUNS and MODEL_COMMANDS
 * change the number of runs and the maximum number of commands per run;
 * MODEL_VERBOSE=1 lists every failing value met while shrinking.
 */

// ---------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------

const HOUSE = 'house';
const NAMES = ['Anna', 'Ben', 'Cleo', 'Dan', 'Eve', 'Finn'];
const MAX_SESSIONS = 4;
const MAX_TABLES = 10;

type Kind = 'game' | 'rake' | 'match-stake' | 'void';
type Result = 'single' | 'gammon' | 'backgammon';
type Side = 0 | 1;
type Shape = 'finish' | 'double-take' | 'double-pass' | 'redouble-take' | 'redouble-pass';

interface Entry {
  from: string;
  to: string;
  amount: number;
  kind: Kind;
}

interface Payment {
  from: string;
  to: string;
  amount: number;
}

interface SessionM {
  id: string;
  no: number;
  currency: string;
  rakeBp: number;
  open: boolean;
  /** What the ledger must hold, in the order posted (append-only). */
  entries: Entry[];
  payments: Payment[];
}

interface Seats {
  box: string;
  /** R5.9: the box's partner (not on the team while a partner). */
  partner: string | null;
  /** The team line, captain first. */
  line: string[];
}

interface GameM {
  no: number;
  status: 'in-progress' | 'finished' | 'voided' | 'abandoned';
  /** What the game posted when it finished (game, rake and match-stake entries). */
  entries: Entry[];
  /** Match games: whether it is the Crawford game (fixed at its start), its winner and points. */
  crawford?: boolean;
  winnerSide?: Side;
  points?: number;
  /** Chouette games: the seats before the game, and those it was played with (a partner taken at its start). */
  seatsBefore?: Seats;
  seatsAtStart?: Seats;
}

interface TableCommon {
  id: string;
  no: number;
  session: SessionM;
  games: GameM[];
}

interface MoneyM extends TableCommon {
  kind: 'money';
  players: [string, string];
  stake: number;
}

interface ChouetteM extends TableCommon {
  kind: 'chouette';
  stake: number;
  /** R5.11: a stake per player, or null for the table's stake. */
  stakes: Map<string, number> | null;
  /** R5.9: partnerFrom (null: off) and partnerShare (percent). */
  partnerFrom: number | null;
  partnerShare: number;
  seats: Seats;
  /** Everyone who ever sat at the table (a player who left does not come back here). */
  ever: string[];
}

interface PenaltyM {
  side: Side;
  points: number;
  /** How many games the table had started when it was awarded (it comes after them). */
  after: number;
  /** The stake, when the penalty ended the match. */
  entries: Entry[];
}

interface MatchM extends TableCommon {
  kind: 'match';
  sides: [string[], string[]];
  target: number;
  stake: number | null;
  penalties: PenaltyM[];
}

type TableM = MoneyM | ChouetteM | MatchM;

interface Model {
  players: string[];
  names: Map<string, string>;
  sessions: SessionM[];
  tables: TableM[];
}

const ROUTE = { money: 'money-games', chouette: 'chouettes', match: 'matches' } as const;
const MULTIPLIER: Record<Result, number> = { single: 1, gammon: 2, backgammon: 3 };

/** R6.4: floor(net × basis points / 10 000), in integers (net ≥ 0). */
function rakeOf(net: number, bp: number): number {
  const x = net * bp;
  return (x - (x % 10_000)) / 10_000;
}

/** Received − paid per party, zeros left out. */
function netsOf(moves: Array<{ from: string; to: string; amount: number }>): Record<string, number> {
  const n: Record<string, number> = {};
  for (const e of moves) {
    n[e.to] = (n[e.to] ?? 0) + e.amount;
    n[e.from] = (n[e.from] ?? 0) - e.amount;
  }
  return nonZero(n);
}

function nonZero(n: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(n).filter(([, v]) => v !== 0));
}

function kindTotals(entries: Entry[]): Record<string, number> {
  const k: Record<string, number> = {};
  for (const e of entries) k[e.kind] = (k[e.kind] ?? 0) + e.amount;
  return k;
}

/** R6.6: net + paid − received, per party (house included), zeros left out. */
function outstandingOf(s: SessionM): Record<string, number> {
  const o = { ...netsOf(s.entries) };
  for (const p of s.payments) {
    o[p.from] = (o[p.from] ?? 0) + p.amount;
    o[p.to] = (o[p.to] ?? 0) - p.amount;
  }
  return nonZero(o);
}

/** R6.6: balances across sessions, keyed "currency party". */
function balancesOf(m: Model): Record<string, number> {
  const b: Record<string, number> = {};
  for (const s of m.sessions) {
    for (const [party, v] of Object.entries(outstandingOf(s))) {
      const key = `${s.currency} ${party}`;
      b[key] = (b[key] ?? 0) + v;
    }
  }
  return nonZero(b);
}

const seatedOf = (x: Seats) => [x.box, ...(x.partner ? [x.partner] : []), ...x.line];

/** Finished (not voided) games per player in the session: who sat at each game. */
function gamesPlayed(m: Model, s: SessionM): Record<string, number> {
  const n: Record<string, number> = {};
  for (const t of m.tables.filter((x) => x.session === s)) {
    for (const g of t.games.filter((x) => x.status === 'finished')) {
      const who = t.kind === 'money' ? t.players : t.kind === 'match' ? t.sides.flat() : seatedOf(g.seatsAtStart!);
      for (const p of who) n[p] = (n[p] ?? 0) + 1;
    }
  }
  return n;
}

const current = (t: TableM) => t.games.find((g) => g.status === 'in-progress');
const finishedGames = (t: TableM) => t.games.filter((g) => g.status === 'finished');
const nextGameNo = (t: TableM) => t.games.length + 1;
const sessionBusy = (m: Model, s: SessionM) => m.tables.some((t) => t.session === s && current(t) !== undefined);

/** Splits an amount over n parties evenly, the odd minor unit on the first (R3.8). */
function split(amount: number, n: number): number[] {
  if (n === 1) return [amount];
  const low = (amount - (amount % 2)) / 2;
  return [amount - low, low];
}

/** Entries that move the amounts owed by payers to the amounts due to payees. */
function flow(payers: Array<[string, number]>, payees: Array<[string, number]>, kind: Kind): Entry[] {
  const from = payers.filter(([, a]) => a > 0).map(([p, a]) => ({ p, a }));
  const to = payees.filter(([, a]) => a > 0).map(([p, a]) => ({ p, a }));
  const out: Entry[] = [];
  while (from.length && to.length) {
    const amount = Math.min(from[0].a, to[0].a);
    out.push({ from: from[0].p, to: to[0].p, amount, kind });
    from[0].a -= amount;
    to[0].a -= amount;
    if (from[0].a === 0) from.shift();
    if (to[0].a === 0) to.shift();
  }
  return out;
}

/** R3.8: the losing side pays the stake to the winning side, split within a pair. */
function stakeEntries(t: MatchM, winner: Side): Entry[] {
  if (t.stake === null) return [];
  const losers = t.sides[1 - winner];
  const winners = t.sides[winner];
  const paid = split(t.stake, losers.length);
  const got = split(t.stake, winners.length);
  return flow(
    losers.map((p, i) => [p, paid[i]] as [string, number]),
    winners.map((p, i) => [p, got[i]] as [string, number]),
    'match-stake',
  );
}

/** R3.2, R3.4, R3.6: a match's score, Crawford state and end, from its finished games. */
function matchView(t: MatchM) {
  const score: [number, number] = [0, 0];
  const awarded: [number, number] = [0, 0];
  let crawfordDone = false;
  let crawfordNo: number | null = null;
  const atCrawfordPoint = () => t.target > 1 && (score[0] === t.target - 1 || score[1] === t.target - 1);
  // Whether a Crawford game was due when the last penalty was awarded.
  let crawfordDueAtPenalty = false;
  const penaltiesAfter = (n: number) => {
    for (const p of t.penalties.filter((x) => x.after === n)) {
      crawfordDueAtPenalty = !crawfordDone && atCrawfordPoint();
      score[p.side] += p.points;
      awarded[p.side] += p.points;
    }
  };
  t.games.forEach((g, i) => {
    penaltiesAfter(i);
    if (g.status !== 'finished') return;
    if (!crawfordDone && atCrawfordPoint()) {
      crawfordDone = true;
      crawfordNo = g.no;
    }
    score[g.winnerSide!] += g.points!;
  });
  penaltiesAfter(t.games.length);
  // R3.6: penalty points against a side beyond half the target forfeit the match to the other.
  const forfeitTo = ([0, 1] as Side[]).find((x) => 2 * awarded[x] > t.target);
  const reached = ([0, 1] as Side[]).find((x) => score[x] >= t.target);
  const finished = forfeitTo !== undefined || reached !== undefined;
  const winnerSide: Side | null = reached ?? forfeitTo ?? null;
  // The next game (or the one in progress) is the Crawford game when a score stands at
  // target − 1 and no Crawford game has been played (abandoned and voided games do not count).
  const nextCrawford = !finished && !crawfordDone && atCrawfordPoint();
  const live = current(t);
  const crawfordGameNo = crawfordNo ?? (nextCrawford ? (live?.no ?? nextGameNo(t)) : null);
  // A penalty ended the match while a Crawford game was due: whether that game still has
  // a number is open (the API's "once it is known" against "no game can start after the end").
  const endedByPenalty = finished && t.penalties.some((p) => p.after === t.games.length);
  const crawfordMoot = endedByPenalty && crawfordNo === null && crawfordDueAtPenalty;
  return { score, finished, winnerSide, nextCrawford, crawfordGameNo, crawfordMoot };
}

/** R2.2, R3.3, R3.4, R3.5: may `side` double a centred cube at the start of this game? */
function matchMayDouble(t: MatchM, side: Side): boolean {
  const v = matchView(t);
  const live = current(t);
  const crawford = live ? live.crawford! : v.nextCrawford;
  return t.target > 1 && !crawford && t.target - v.score[side] > 1;
}

/** R5.11: a member and the box play at the lower of their two stakes (or the table's). */
function pairStake(t: ChouetteM, member: string): number {
  if (!t.stakes) return t.stake;
  return Math.min(t.stakes.get(t.seats.box)!, t.stakes.get(member)!);
}

const seatedCount = (x: Seats) => seatedOf(x).length;

/**
 * R5.9: at the start of a game, with at least partnerFrom players seated and no
 * partner, the player after the captain becomes the box's partner.
 */
function withPartner(t: ChouetteM, x: Seats): Seats {
  if (t.partnerFrom === null || x.partner || seatedCount(x) < t.partnerFrom || x.line.length < 2) return x;
  return { box: x.box, partner: x.line[1], line: [x.line[0], ...x.line.slice(2)] };
}

/**
 * R5.7, R5.9: the seats after a game the box won (or lost) against the captain. The
 * box keeps: the captain goes to the end of the line, a partner stays. The box loses:
 * the captain becomes box, the old box goes to the end of the line, a partner becomes
 * captain and the next in line partner (while at least partnerFrom are seated).
 */
function rotate(t: ChouetteM, x: Seats, boxKeeps: boolean): Seats {
  const [captain, ...rest] = x.line;
  if (boxKeeps) return { box: x.box, partner: x.partner, line: [...rest, captain] };
  const line = [...(x.partner ? [x.partner] : []), ...rest, x.box];
  if (x.partner && t.partnerFrom !== null && seatedCount(x) >= t.partnerFrom && line.length >= 2) {
    return { box: captain, partner: line[1], line: [line[0], ...line.slice(2)] };
  }
  return { box: captain, partner: null, line };
}

/**
 * R6.3 with R5.8: the seats before a voided game, less who has left since (a box who
 * left gives the box to the captain), plus who has joined since, at the end of the line.
 */
function restoreSeats(before: Seats, now: Seats): Seats {
  const seatedNow = seatedOf(now);
  if (seatedNow.length === seatedOf(before).length && seatedOf(before).every((p) => seatedNow.includes(p))) return before;
  // Someone joined or left: only at tables without a partner rule (no join or leave is generated at the others).
  const kept = [before.box, ...before.line].filter((p) => seatedNow.includes(p));
  const order = [...kept, ...seatedNow.filter((p) => !kept.includes(p))];
  return { box: order[0], partner: null, line: order.slice(1) };
}

// ---------------------------------------------------------------------------------
// The real system: an HTTP client bound to one club
// ---------------------------------------------------------------------------------

class Real {
  /** Every request that changed (or tried to change) something, for the failure report. */
  readonly trace: string[] = [];
  /** Every ledger entry seen so far, per session and id (R6.3: entries are never changed or deleted). */
  readonly ledgerSeen = new Map<string, Map<string, string>>();

  constructor(
    private readonly t: TestApp,
    private readonly token: string,
    private readonly names: Map<string, string>,
  ) {}

  pretty(text: string): string {
    let s = text;
    for (const [id, name] of this.names) s = s.split(id).join(name);
    return s;
  }

  private async send(method: 'post' | 'patch' | 'delete', url: string, body?: object): Promise<Response> {
    const http = this.t.http();
    const res = await http[method](url)
      .set(bearer(this.token))
      .send(body ?? {});
    const answer = res.status >= 400 ? ` ${res.body?.code ?? res.text.slice(0, 200)}` : '';
    this.trace.push(this.pretty(`${method.toUpperCase()} ${url} ${body ? JSON.stringify(body) : ''} → ${res.status}${answer}`));
    return res;
  }

  post(url: string, body?: object) {
    return this.send('post', url, body);
  }

  patch(url: string, body: object) {
    return this.send('patch', url, body);
  }

  del(url: string) {
    return this.send('delete', url);
  }

  get(url: string): Promise<Response> {
    return this.t.http().get(url).set(bearer(this.token));
  }
}

function expectStatus(res: Response, status: number, code?: string, rule?: string): void {
  const ok = res.status === status && (code === undefined || res.body?.code === code) && (rule === undefined || res.body?.rule === rule);
  if (!ok) {
    throw new Error(`expected ${status}${code ? ` ${code}` : ''}${rule ? ` (${rule})` : ''}, got ${res.status}: ${res.text.slice(0, 600)}`);
  }
}

type Payout = { from: string; to: string; amountMinor: number; kind: Kind };
const KINDS: Kind[] = ['game', 'rake', 'match-stake', 'void'];

/** A game's answer: `payouts` as entries. */
const entriesOf = (payouts: Payout[]): Entry[] => payouts.map((p) => ({ from: p.from, to: p.to, amount: p.amountMinor, kind: p.kind }));

/** The ledger entries a game posted must have the model's nets, kind totals and rake entries. */
function expectSamePostings(m: Model, got: Entry[], want: Entry[], what: string): void {
  const named = (n: Record<string, number>) => nameKeys(m, n);
  const rakes = (es: Entry[]) =>
    es
      .filter((e) => e.kind === 'rake')
      .map((e) => `${name(m, e.from)}→${name(m, e.to)} ${e.amount}`)
      .sort();
  expect({ what, nets: named(netsOf(got)), kinds: kindTotals(got), rake: rakes(got) }).toEqual({
    what,
    nets: named(netsOf(want)),
    kinds: kindTotals(want),
    rake: rakes(want),
  });
  for (const e of got) expect(Number.isSafeInteger(e.amount) && e.amount > 0).toBe(true);
}

const name = (m: Model, party: string) => (party === HOUSE ? HOUSE : (m.names.get(party) ?? party));
const nameKeys = (m: Model, n: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(n).map(([k, v]) => [
      k
        .split(' ')
        .map((x) => name(m, x))
        .join(' '),
      v,
    ]),
  );

// ---------------------------------------------------------------------------------
// Checks against the real system
// ---------------------------------------------------------------------------------

type LedgerLine = Payout & { id: string; gameRef: { tableId: string } };

async function allLedger(r: Real, sessionId: string): Promise<LedgerLine[]> {
  const items: LedgerLine[] = [];
  let cursor: string | null = null;
  do {
    const res = await r.get(`/v1/sessions/${sessionId}/ledger?limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expectStatus(res, 200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
  } while (cursor);
  return items;
}

/** R6.3–R6.6 for one session: statement, transfers and the whole ledger. */
async function verifySession(m: Model, r: Real, s: SessionM): Promise<void> {
  const res = await r.get(`/v1/sessions/${s.id}/settlement`);
  expectStatus(res, 200);
  const st = res.body;
  const nets = netsOf(s.entries);
  const out = outstandingOf(s);
  const players = (n: Record<string, number>) => nameKeys(m, Object.fromEntries(Object.entries(n).filter(([p]) => p !== HOUSE)));
  expect({
    session: s.no,
    status: st.status,
    currency: st.currency,
    totalMinor: st.totalMinor,
    houseMinor: st.houseMinor,
    houseOutstandingMinor: st.houseOutstandingMinor,
    nets: nameKeys(m, nonZero(Object.fromEntries(st.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor])))),
    outstanding: nameKeys(m, nonZero(Object.fromEntries(st.players.map((p: { playerId: string; outstandingMinor: number }) => [p.playerId, p.outstandingMinor])))),
    games: nameKeys(m, nonZero(Object.fromEntries(st.players.map((p: { playerId: string; games: number }) => [p.playerId, p.games])))),
  }).toEqual({
    session: s.no,
    status: s.open ? 'open' : 'closed',
    currency: s.currency,
    totalMinor: 0,
    houseMinor: nets[HOUSE] ?? 0,
    houseOutstandingMinor: out[HOUSE] ?? 0,
    nets: players(nets),
    outstanding: players(out),
    games: nameKeys(m, gamesPlayed(m, s)),
  });
  expect(new Set(st.players.map((p: { playerId: string }) => p.playerId)).size).toBe(st.players.length);

  // The transfers settle every outstanding balance exactly, in at most (k − 1) transfers.
  const left: Record<string, number> = { ...out };
  for (const tr of st.transfers as Array<{ from: string; to: string; amountMinor: number }>) {
    expect(Number.isSafeInteger(tr.amountMinor) && tr.amountMinor > 0).toBe(true);
    left[tr.from] = (left[tr.from] ?? 0) + tr.amountMinor;
    left[tr.to] = (left[tr.to] ?? 0) - tr.amountMinor;
  }
  expect({ session: s.no, unsettled: nameKeys(m, nonZero(left)) }).toEqual({ session: s.no, unsettled: {} });
  expect(st.transfers.length).toBeLessThanOrEqual(Math.max(0, Object.keys(out).length - 1));

  // The whole ledger: every amount positive, the nets and kind totals of the model, summing to zero.
  const lines = await allLedger(r, s.id);
  const byId = new Map(lines.map((e) => [e.id, JSON.stringify(e)]));
  expect(byId.size).toBe(lines.length);
  for (const [id, was] of r.ledgerSeen.get(s.id) ?? []) {
    expect({ session: s.no, entry: byId.get(id) ?? 'gone' }).toEqual({ session: s.no, entry: was });
  }
  r.ledgerSeen.set(s.id, byId);
  const tableIds = m.tables.filter((x) => x.session === s).map((x) => x.id);
  for (const e of lines) {
    expect(Number.isSafeInteger(e.amountMinor) && e.amountMinor > 0).toBe(true);
    expect(KINDS).toContain(e.kind);
    expect(tableIds).toContain(e.gameRef.tableId);
  }
  const ledger = entriesOf(lines);
  const ledgerNets = netsOf(ledger);
  expect(Object.values(ledgerNets).reduce((a, b) => a + b, 0)).toBe(0);
  expect({ session: s.no, nets: nameKeys(m, ledgerNets), kinds: kindTotals(ledger) }).toEqual({
    session: s.no,
    nets: nameKeys(m, nets),
    kinds: kindTotals(s.entries),
  });
}

/** R6.6: balances across sessions (house included), then every session. */
async function verifyAll(m: Model, r: Real): Promise<void> {
  const res = await r.get('/v1/balances');
  expectStatus(res, 200);
  const got: Record<string, number> = {};
  for (const it of res.body.items as Array<{ playerId: string; currency: string; balanceMinor: number }>) {
    const key = `${it.currency} ${it.playerId}`;
    expect(got[key]).toBeUndefined();
    got[key] = it.balanceMinor;
  }
  expect({ balances: nameKeys(m, nonZero(got)) }).toEqual({ balances: nameKeys(m, balancesOf(m)) });
  for (const s of m.sessions) await verifySession(m, r, s);
}

/**
 * R6.6 from each player's side, at the end of a run: his statement (per session and per
 * currency) and his balances, filtered by player and by "outstanding".
 */
async function verifyPlayers(m: Model, r: Real): Promise<void> {
  const all = balancesOf(m);
  const outstanding = await r.get('/v1/balances?outstanding=true');
  expectStatus(outstanding, 200);
  expect(
    nameKeys(m, Object.fromEntries(outstanding.body.items.map((b: { currency: string; playerId: string; balanceMinor: number }) => [`${b.currency} ${b.playerId}`, b.balanceMinor]))),
  ).toEqual(nameKeys(m, all));
  for (const p of m.players) {
    const mine = (key: string) => key.endsWith(` ${p}`);
    const res = await r.get(`/v1/balances?playerId=${p}`);
    expectStatus(res, 200);
    const got = nonZero(Object.fromEntries(res.body.items.map((b: { currency: string; playerId: string; balanceMinor: number }) => [`${b.currency} ${b.playerId}`, b.balanceMinor])));
    expect({ player: name(m, p), balances: nameKeys(m, got) }).toEqual({
      player: name(m, p),
      balances: nameKeys(m, Object.fromEntries(Object.entries(all).filter(([k]) => mine(k)))),
    });

    const st = await r.get(`/v1/players/${p}/statement`);
    expectStatus(st, 200);
    type Line = { sessionId: string; netMinor: number; paidMinor: number; receivedMinor: number; outstandingMinor: number; games: number };
    const lines = (st.body.sessions as Line[]).map((l) => ({
      session: m.sessions.find((x) => x.id === l.sessionId)?.no ?? l.sessionId,
      net: l.netMinor,
      paid: l.paidMinor,
      received: l.receivedMinor,
      outstanding: l.outstandingMinor,
      games: l.games,
    }));
    const want = m.sessions
      .map((s) => ({
        session: s.no,
        net: netsOf(s.entries)[p] ?? 0,
        paid: s.payments.filter((x) => x.from === p).reduce((a, x) => a + x.amount, 0),
        received: s.payments.filter((x) => x.to === p).reduce((a, x) => a + x.amount, 0),
        outstanding: outstandingOf(s)[p] ?? 0,
        games: gamesPlayed(m, s)[p] ?? 0,
      }))
      .filter((l) => l.net || l.paid || l.received || l.games);
    // Sessions where he only sat (no game, no money) may be listed too, all zero.
    const moved = lines.filter((l) => l.net || l.paid || l.received || l.games);
    expect({ player: name(m, p), sessions: moved.sort((a, b) => Number(a.session) - Number(b.session)) }).toEqual({ player: name(m, p), sessions: want });
    const totals = nonZero(Object.fromEntries((st.body.totals as Array<{ currency: string; balanceMinor: number }>).map((x) => [`${x.currency} ${p}`, x.balanceMinor])));
    expect({ player: name(m, p), totals: nameKeys(m, totals) }).toEqual({
      player: name(m, p),
      totals: nameKeys(m, Object.fromEntries(Object.entries(all).filter(([k]) => mine(k)))),
    });
  }
}

/** The table as the API shows it: games so far, nets, seats, score. */
async function verifyTable(m: Model, r: Real, t: TableM): Promise<void> {
  const res = await r.get(`/v1/${ROUTE[t.kind]}/${t.id}`);
  expectStatus(res, 200);
  const body = res.body;
  expect({ table: t.no, games: body.games.map((g: { status: string }) => g.status) }).toEqual({ table: t.no, games: t.games.map((g) => g.status) });
  const tableNets = netsOf(finishedGames(t).flatMap((g) => g.entries));
  delete tableNets[HOUSE];
  if (t.kind === 'money') {
    expect({ table: t.no, nets: nameKeys(m, nonZero(body.netMinor)) }).toEqual({ table: t.no, nets: nameKeys(m, tableNets) });
  } else if (t.kind === 'chouette') {
    const nets = Object.fromEntries(body.players.map((p: { playerId: string; netMinor: number }) => [p.playerId, p.netMinor]));
    const seats = (x: { box: string; captain: string; team: string[]; partner: string | null }) => ({
      box: name(m, x.box),
      captain: name(m, x.captain),
      team: x.team.map((p) => name(m, p)),
      partner: x.partner === null ? null : name(m, x.partner),
    });
    // While a game is in progress the table shows the seats it is played with (a partner
    // taken at its start, R5.9); between games, the seats for the next one.
    const shown = current(t)?.seatsAtStart ?? t.seats;
    expect({ table: t.no, nets: nameKeys(m, nonZero(nets)), seats: seats(body) }).toEqual({
      table: t.no,
      nets: nameKeys(m, tableNets),
      seats: seats({ box: shown.box, captain: shown.line[0], team: shown.line, partner: shown.partner }),
    });
  } else {
    const v = matchView(t);
    const want: Record<string, unknown> = { table: t.no, score: v.score, status: v.finished ? 'finished' : 'in-progress', winnerSide: v.winnerSide };
    const got: Record<string, unknown> = { table: t.no, score: body.score, status: body.status, winnerSide: body.winnerSide };
    // R3.3/R3.4: in a 1-point match the Crawford game is moot.
    if (t.target > 1 && !v.crawfordMoot) {
      want.crawfordGameNo = v.crawfordGameNo;
      got.crawfordGameNo = body.crawfordGameNo;
    }
    if (v.crawfordMoot) tally(`match ended by a penalty while a Crawford game was due: crawfordGameNo ${body.crawfordGameNo}`);
    expect(got).toEqual(want);
  }
}

// ---------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------

const stats: Record<string, number> = {};
/** Situations worth knowing the runs reached (printed at the end). */
const situations: Record<string, number> = {};
const tally = (what: string) => {
  situations[what] = (situations[what] ?? 0) + 1;
};

abstract class Cmd implements fc.AsyncCommand<Model, Real> {
  /** What the last run resolved the indices to, for the counterexample. */
  protected note = '';

  abstract check(m: Readonly<Model>): boolean;
  protected abstract exec(m: Model, r: Real): Promise<TableM | void>;
  protected abstract label(): string;

  async run(m: Model, r: Real): Promise<void> {
    this.note = '';
    const name = this.constructor.name;
    stats[name] = (stats[name] ?? 0) + 1;
    const touched = await this.exec(m, r);
    if (touched) await verifyTable(m, r, touched);
    await verifyAll(m, r);
  }

  toString(): string {
    return `${this.label()}${this.note ? ` /* ${this.note} */` : ''}`;
  }
}

const openSessions = (m: Readonly<Model>) => m.sessions.filter((s) => s.open);
const pickFrom = <T>(xs: readonly T[], i: number): T => xs[i % xs.length];

async function openSession(m: Model, r: Real, rakeBp: number, currency: string): Promise<SessionM> {
  const no = m.sessions.length + 1;
  const res = await r.post('/v1/sessions', { name: `Night ${no}`, currency, rakePercent: rakeBp / 100 });
  expectStatus(res, 201);
  expect(res.body).toMatchObject({ status: 'open', currency, rakePercent: rakeBp / 100 });
  const s: SessionM = { id: res.body.id, no, currency, rakeBp, open: true, entries: [], payments: [] };
  m.sessions.push(s);
  return s;
}

class OpenSession extends Cmd {
  constructor(
    readonly rakeBp: number,
    readonly currency: string,
  ) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.sessions.length < MAX_SESSIONS;
  }
  async exec(m: Model, r: Real) {
    await openSession(m, r, this.rakeBp, this.currency);
  }
  label() {
    return `OpenSession(${this.rakeBp / 100} %, ${this.currency})`;
  }
}

/** R6.7: closing is refused while a game of the session is in progress. */
class CloseSession extends Cmd {
  constructor(readonly s: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return openSessions(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const s = pickFrom(openSessions(m), this.s);
    const busy = sessionBusy(m, s);
    this.note = `session ${s.no}${busy ? ', busy' : ''}`;
    const res = await r.post(`/v1/sessions/${s.id}/close`);
    if (busy) {
      expectStatus(res, 422, 'GAMES_IN_PROGRESS', 'R6.7');
      return;
    }
    expectStatus(res, 200);
    expect(res.body.status).toBe('closed');
    s.open = false;
  }
  label() {
    return `CloseSession(${this.s})`;
  }
}

/** R6.4: a new rake for the session's next games (only while none is in progress). */
class SetRake extends Cmd {
  constructor(
    readonly s: number,
    readonly rakeBp: number,
  ) {
    super();
  }
  check(m: Readonly<Model>) {
    return openSessions(m).some((s) => !sessionBusy(m, s));
  }
  async exec(m: Model, r: Real) {
    const s = pickFrom(
      openSessions(m).filter((x) => !sessionBusy(m, x)),
      this.s,
    );
    this.note = `session ${s.no}`;
    const res = await r.patch(`/v1/sessions/${s.id}`, { rakePercent: this.rakeBp / 100 });
    expectStatus(res, 200);
    expect(res.body.rakePercent).toBe(this.rakeBp / 100);
    s.rakeBp = this.rakeBp;
  }
  label() {
    return `SetRake(${this.s}, ${this.rakeBp / 100} %)`;
  }
}

/** R6.6: cash handed over, on an open or closed session; the house is a party. */
class Pay extends Cmd {
  constructor(
    readonly s: number,
    readonly from: number,
    readonly to: number,
    readonly amount: number,
  ) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.sessions.length > 0;
  }
  async exec(m: Model, r: Real) {
    const s = pickFrom(m.sessions, this.s);
    const parties = [...m.players, HOUSE];
    const from = parties[this.from];
    const to = parties[this.to];
    this.note = `session ${s.no}: ${name(m, from)} → ${name(m, to)}`;
    const res = await r.post(`/v1/sessions/${s.id}/payments`, { from, to, amountMinor: this.amount, note: 'cash' });
    expectStatus(res, 201);
    expect(res.body).toMatchObject({ sessionId: s.id, from, to, amountMinor: this.amount, currency: s.currency });
    s.payments.push({ from, to, amount: this.amount });
  }
  label() {
    return `Pay(${this.s}, ${this.from} → ${this.to}, ${this.amount})`;
  }
}

abstract class NewTable extends Cmd {
  constructor(readonly s: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return openSessions(m).length > 0 && m.tables.length < MAX_TABLES;
  }
  protected base(m: Model) {
    const session = pickFrom(openSessions(m), this.s);
    return { no: m.tables.length + 1, session, games: [] as GameM[] };
  }
}

class NewMoneyTable extends NewTable {
  constructor(
    s: number,
    readonly players: number[],
    readonly stake: number,
  ) {
    super(s);
  }
  async exec(m: Model, r: Real) {
    const base = this.base(m);
    const players: [string, string] = [m.players[this.players[0]], m.players[this.players[1]]];
    this.note = `table ${base.no} in session ${base.session.no}`;
    const res = await r.post('/v1/money-games', { sessionId: base.session.id, players, stakeMinor: this.stake, rules: { jacoby: false } });
    expectStatus(res, 201);
    const t: MoneyM = { ...base, kind: 'money', id: res.body.id, players, stake: this.stake };
    m.tables.push(t);
    return t;
  }
  label() {
    return `NewMoneyTable(${this.s}, [${this.players.join(',')}], ${this.stake})`;
  }
}

class NewChouette extends NewTable {
  constructor(
    s: number,
    readonly order: number[],
    readonly stake: number,
    readonly perPlayer: number[] | null,
    readonly partner: { from: number; share: number } | null,
  ) {
    super(s);
  }
  async exec(m: Model, r: Real) {
    const base = this.base(m);
    const order = this.order.map((i) => m.players[i]);
    this.note = `table ${base.no} in session ${base.session.no}`;
    const body: Record<string, unknown> = { sessionId: base.session.id, stakeMinor: this.stake, seating: { order } };
    const stakes = this.perPlayer ? new Map(order.map((p, i) => [p, this.perPlayer![i % this.perPlayer!.length]])) : null;
    if (stakes) body.stakes = [...stakes].map(([playerId, stakeMinor]) => ({ playerId, stakeMinor }));
    if (this.partner) body.rules = { partnerFrom: this.partner.from, partnerShare: this.partner.share };
    const res = await r.post('/v1/chouettes', body);
    expectStatus(res, 201);
    // R5.1: the first is the box, the second the captain, the rest the team in order.
    expect(res.body).toMatchObject({ box: order[0], captain: order[1], team: order.slice(1), partner: null });
    const t: ChouetteM = {
      ...base,
      kind: 'chouette',
      id: res.body.id,
      stake: this.stake,
      stakes,
      partnerFrom: this.partner?.from ?? null,
      partnerShare: this.partner?.share ?? 50,
      seats: { box: order[0], partner: null, line: order.slice(1) },
      ever: order,
    };
    m.tables.push(t);
    return t;
  }
  label() {
    const pp = this.perPlayer ? `, per player [${this.perPlayer.join(',')}]` : '';
    const partner = this.partner ? `, partner from ${this.partner.from} at ${this.partner.share} %` : '';
    return `NewChouette(${this.s}, [${this.order.join(',')}], ${this.stake}${pp}${partner})`;
  }
}

class NewMatch extends NewTable {
  constructor(
    s: number,
    readonly players: number[],
    readonly pairs: boolean,
    readonly target: number,
    readonly stake: number | null,
  ) {
    super(s);
  }
  async exec(m: Model, r: Real) {
    const base = this.base(m);
    const p = this.players.map((i) => m.players[i]);
    const sides: [string[], string[]] = this.pairs
      ? [
          [p[0], p[1]],
          [p[2], p[3]],
        ]
      : [[p[0]], [p[1]]];
    this.note = `table ${base.no} in session ${base.session.no}`;
    const body: Record<string, unknown> = { sessionId: base.session.id, sides, target: this.target };
    if (this.stake !== null) body.stakeMinor = this.stake;
    const res = await r.post('/v1/matches', body);
    expectStatus(res, 201);
    expect(res.body).toMatchObject({ score: [0, 0], status: 'in-progress', target: this.target });
    const t: MatchM = { ...base, kind: 'match', id: res.body.id, sides, target: this.target, stake: this.stake, penalties: [] };
    m.tables.push(t);
    return t;
  }
  label() {
    return `NewMatch(${this.s}, [${this.players.join(',')}], ${this.pairs ? 'pairs' : 'singles'}, to ${this.target}, stake ${this.stake})`;
  }
}

/**
 * What a game is about to be, worked out by the model: the actions to send, the
 * entries it posts when it finishes, and what changes on the table.
 */
interface Plan {
  actions: object[];
  entries: Entry[];
  points?: number;
  winnerSide?: Side;
  apply: (g: GameM) => void;
}

/**
 * Plays one game at a table: on an idle table the whole game in one POST; on a table
 * with a game in progress (StartGame), the actions one at a time on that game.
 * A table of a closed session takes no game (R6.7), a finished match neither (R3.2).
 */
abstract class PlayGame<T extends TableM> extends Cmd {
  protected abstract readonly kind: T['kind'];
  constructor(readonly t: number) {
    super();
  }
  protected tablesOf(m: Readonly<Model>): T[] {
    return m.tables.filter((x) => x.kind === this.kind) as T[];
  }
  check(m: Readonly<Model>) {
    return this.tablesOf(m).length > 0;
  }
  protected abstract plan(m: Model, t: T): Plan;

  async exec(m: Model, r: Real) {
    const t = pickFrom(this.tablesOf(m), this.t);
    const url = `/v1/${ROUTE[t.kind]}/${t.id}/games`;
    this.note = `table ${t.no}`;
    if (!t.session.open) {
      this.note += ', session closed';
      expectStatus(await r.post(url, { actions: [] }), 422, 'SESSION_CLOSED', 'R6.7');
      return t;
    }
    if (t.kind === 'match' && matchView(t).finished) {
      this.note += ', match over';
      expectStatus(await r.post(url, { actions: [] }), 422, 'MATCH_FINISHED', 'R3.2');
      return t;
    }
    const live = current(t);
    const plan = this.plan(m, t);
    this.note += `: ${r.pretty(JSON.stringify(plan.actions))}`;
    let res: Response;
    let game: GameM;
    if (live) {
      this.note += ` on game ${live.no} in progress`;
      tally(`${t.kind} game finished action by action`);
      game = live;
      res = undefined as unknown as Response;
      for (const action of plan.actions) {
        res = await r.post(`${url}/${live.no}/actions`, action);
        expectStatus(res, 200);
      }
    } else {
      game = { no: nextGameNo(t), status: 'in-progress', entries: [] };
      startedGame(t, game);
      res = await r.post(url, { actions: plan.actions });
      expectStatus(res, 201);
      t.games.push(game);
    }
    expect(res.body).toMatchObject({ gameNo: game.no, status: 'finished' });
    if (plan.points !== undefined) expect(res.body.points).toBe(plan.points);
    if (plan.winnerSide !== undefined) expect(res.body.winnerSide).toBe(plan.winnerSide);
    if (t.kind === 'match' && t.target > 1) expect(res.body.crawford).toBe(game.crawford);
    expectSamePostings(m, entriesOf(res.body.payouts), plan.entries, `game ${game.no} at table ${t.no}`);
    game.status = 'finished';
    game.entries = plan.entries;
    plan.apply(game);
    t.session.entries.push(...plan.entries);
    return t;
  }
}

/** What a game records when it starts (match: whether it is the Crawford game; chouette: the seats). */
function startedGame(t: TableM, g: GameM): void {
  if (t.kind === 'match') g.crawford = matchView(t).nextCrawford;
  if (t.kind === 'chouette') {
    g.seatsBefore = t.seats;
    g.seatsAtStart = withPartner(t, t.seats);
  }
}

const double = (by: string) => ({ type: 'double', by });
const take = (by: string) => ({ type: 'take', by });
const pass = (by: string) => ({ type: 'pass', by });
const finish = (winner: string, result: Result) => ({ type: 'finish', winner, result, resigned: false });

/**
 * The actions of a game of one of the shapes, between side `d` (who doubles first) and
 * the other side: R1.1 points = cube × result; R1.3 a pass scores the cube before the
 * double. `who(side, k)` names the player of a side who acts (pairs take turns).
 */
function shaped(shape: Shape, d: Side, winner: Side, result: Result, who: (side: Side, k: number) => string) {
  const o = (1 - d) as Side;
  const mult = MULTIPLIER[result];
  switch (shape) {
    case 'finish':
      return { actions: [finish(who(winner, 0), result)], winner, points: mult };
    case 'double-take':
      return { actions: [double(who(d, 0)), take(who(o, 1)), finish(who(winner, 1), result)], winner, points: 2 * mult };
    case 'double-pass':
      return { actions: [double(who(d, 1)), pass(who(o, 0))], winner: d, points: 1 };
    case 'redouble-take':
      return { actions: [double(who(d, 0)), take(who(o, 0)), double(who(o, 1)), take(who(d, 1)), finish(who(winner, 0), result)], winner, points: 4 * mult };
    case 'redouble-pass':
      return { actions: [double(who(d, 1)), take(who(o, 1)), double(who(o, 0)), pass(who(d, 0))], winner: o, points: 2 };
  }
}

/** R4.2 with jacoby off: stake × cube × result; a pass pays the cube before the double; rake on the winner. */
class PlayMoneyGame extends PlayGame<MoneyM> {
  protected readonly kind = 'money' as const;
  constructor(
    t: number,
    readonly shape: Shape,
    readonly winner: Side,
    readonly doubler: Side,
    readonly result: Result,
  ) {
    super(t);
  }
  plan(m: Model, t: MoneyM): Plan {
    const { actions, winner, points } = shaped(this.shape, this.doubler, this.winner, this.result, (side) => t.players[side]);
    const w = t.players[winner];
    const l = t.players[1 - winner];
    const amount = t.stake * points;
    const entries: Entry[] = [{ from: l, to: w, amount, kind: 'game' }];
    const rake = rakeOf(amount, t.session.rakeBp);
    if (rake > 0) entries.push({ from: w, to: HOUSE, amount: rake, kind: 'rake' });
    return { actions, entries, points, winnerSide: winner, apply: () => undefined };
  }
  label() {
    return `PlayMoneyGame(${this.t}, ${this.shape}, winner ${this.winner}, doubler ${this.doubler}, ${this.result})`;
  }
}

/** The seats a chouette game is played with: those of the game in progress, or the next game's. */
function gameSeats(t: ChouetteM): Seats {
  const live = current(t);
  return live ? live.seatsAtStart! : withPartner(t, t.seats);
}

/** Truncates toward zero: a share of a loss is as large as the same share of a win. */
function share(amount: number, percent: number): number {
  const x = Math.abs(amount) * percent;
  const q = (x - (x % 100)) / 100;
  return amount < 0 ? -q : q;
}

/**
 * The money of a chouette game from the moves between the box and the members: R5.9 the
 * partner takes partnerShare % of the box's money (a loss too; the odd minor unit stays
 * with the box), R6.4 the rake on each party's positive net after that; R5.7/R5.9 the
 * rotation from the seats the game was played with.
 */
function chouettePlan(t: ChouetteM, seats: Seats, actions: object[], moves: Entry[], boxKeeps: boolean): Plan {
  const entries = [...moves];
  if (seats.partner) {
    const part = share(netsOf(moves)[seats.box] ?? 0, t.partnerShare);
    if (part > 0) entries.push({ from: seats.box, to: seats.partner, amount: part, kind: 'game' });
    if (part < 0) entries.push({ from: seats.partner, to: seats.box, amount: -part, kind: 'game' });
    tally(`chouette: the partner ${part > 0 ? 'shares a win' : part < 0 ? 'shares a loss' : 'shares nothing'}`);
  }
  const nets = netsOf(entries);
  for (const party of Object.keys(nets).sort()) {
    const rake = nets[party] > 0 ? rakeOf(nets[party], t.session.rakeBp) : 0;
    if (rake > 0) entries.push({ from: party, to: HOUSE, amount: rake, kind: 'rake' });
  }
  return {
    actions,
    entries,
    apply: () => {
      t.seats = rotate(t, seats, boxKeeps);
    },
  };
}

/**
 * R5.5: no cube moves, a single: every member settles his stake × 1 with the box (the
 * box's partner may be named as the winner for the box). R5.7: rotation.
 */
class PlayChouetteGame extends PlayGame<ChouetteM> {
  protected readonly kind = 'chouette' as const;
  constructor(
    t: number,
    readonly boxWins: boolean,
    readonly member: number,
  ) {
    super(t);
  }
  plan(m: Model, t: ChouetteM): Plan {
    const seats = gameSeats(t);
    const { box, partner, line } = seats;
    // The winner may be any player of the winning side (API: box or partner, any team member).
    const winner = this.boxWins ? (partner && this.member % 2 ? partner : box) : pickFrom(line, this.member);
    const moves: Entry[] = line.map((p) => (this.boxWins ? { from: p, to: box, amount: pairStake(t, p), kind: 'game' } : { from: box, to: p, amount: pairStake(t, p), kind: 'game' }));
    const plan = chouettePlan(t, seats, [finish(winner, 'single')], moves, this.boxWins);
    return { ...plan, winnerSide: this.boxWins ? 0 : 1 };
  }
  label() {
    return `PlayChouetteGame(${this.t}, ${this.boxWins ? 'box wins' : 'team wins'}, member ${this.member})`;
  }
}

class PlayChouetteCubeGame extends PlayGame<ChouetteM> {
  protected readonly kind = 'chouette' as const;
  constructor(
    t: number,
    readonly boxDoubles: number[],
    readonly takes: number[],
    readonly memberDoubles: number | null,
    readonly boxTakes: boolean,
    readonly boxWins: boolean,
    readonly winner: number,
  ) {
    super(t);
  }
  plan(m: Model, t: ChouetteM): Plan {
    const seats = gameSeats(t);
    const { box, line } = seats;
    const captain = line[0];
    const actions: object[] = [];
    const value = new Map(line.map((p) => [p, 1]));
    const out = new Set<string>();
    const moves: Entry[] = [];
    let boxBeatsCaptain: boolean | null = null;

    const doubled = line.filter((_, i) => this.boxDoubles.includes(i));
    if (doubled.length) {
      actions.push({ type: 'double', by: box, cubes: doubled });
      doubled.forEach((p, i) => {
        if (this.takes.includes(i)) {
          actions.push(take(p));
          value.set(p, 2);
        } else {
          actions.push(pass(p));
          out.add(p);
          moves.push({ from: p, to: box, amount: pairStake(t, p), kind: 'game' });
          if (p === captain) boxBeatsCaptain = true;
        }
      });
    }
    const centred = line.filter((p) => !doubled.includes(p));
    if (this.memberDoubles !== null && centred.length) {
      const p = pickFrom(centred, this.memberDoubles);
      actions.push(double(p));
      if (this.boxTakes) {
        actions.push(take(box));
        value.set(p, 2);
      } else {
        actions.push(pass(box));
        out.add(p);
        moves.push({ from: box, to: p, amount: pairStake(t, p), kind: 'game' });
        if (p === captain) boxBeatsCaptain = false;
      }
      tally(`chouette: a member doubles the box, the box ${this.boxTakes ? 'takes' : 'passes'}`);
    }
    const still = line.filter((p) => !out.has(p));
    if (still.length) {
      const winner = this.boxWins ? box : pickFrom(still, this.winner);
      actions.push(finish(winner, 'single'));
      for (const p of still) {
        const amount = pairStake(t, p) * value.get(p)!;
        moves.push(this.boxWins ? { from: p, to: box, amount, kind: 'game' } : { from: box, to: p, amount, kind: 'game' });
      }
      if (boxBeatsCaptain === null) boxBeatsCaptain = this.boxWins;
    } else {
      tally('chouette: no cube left in play, the game ends without a finish');
    }
    if (out.has(captain) && still.length) tally('chouette: the captain is out, an acting captain plays on');
    return chouettePlan(t, seats, actions, moves, boxBeatsCaptain!);
  }
  label() {
    return `PlayChouetteCubeGame(${this.t}, box doubles [${this.boxDoubles.join(',')}], takes [${this.takes.join(',')}], member doubles ${this.memberDoubles}, box ${this.boxTakes ? 'takes' : 'passes'}, ${this.boxWins ? 'box wins' : `team wins (${this.winner})`})`;
  }
}

/**
 * R3.2: points to the winner's score; R3.4/R3.5/R3.3: a double only where allowed (else
 * the other side doubles, else no double); R3.8: the stake, split within a pair, on the
 * game that ends the match; no rake (R6.4).
 */
class PlayMatchGame extends PlayGame<MatchM> {
  protected readonly kind = 'match' as const;
  constructor(
    t: number,
    readonly shape: Shape,
    readonly winner: Side,
    readonly doubler: Side,
    readonly result: Result,
    readonly actor: number,
  ) {
    super(t);
  }
  plan(m: Model, t: MatchM): Plan {
    // The first double needs a live cube for the doubler (R3.4, R3.5, R3.3); the redouble
    // to 4 needs the other side to need more than 2 points (R3.5). Else the other side
    // doubles first; else one double fewer.
    const toGo = (side: Side) => t.target - matchView(t).score[side];
    const allowed = (sh: Shape, d: Side) => sh === 'finish' || (matchMayDouble(t, d) && (!sh.startsWith('redouble') || toGo((1 - d) as Side) > 2));
    const fewer: Record<Shape, Shape> = { 'redouble-take': 'double-take', 'redouble-pass': 'double-pass', 'double-take': 'finish', 'double-pass': 'finish', finish: 'finish' };
    let shape = this.shape;
    let d: Side = this.doubler;
    while (!allowed(shape, d)) {
      if (allowed(shape, (1 - d) as Side)) d = (1 - d) as Side;
      else shape = fewer[shape];
    }
    const { actions, winner, points } = shaped(shape, d, this.winner, this.result, (side, k) => pickFrom(t.sides[side], this.actor + k));
    if (shape.startsWith('redouble')) tally('match redouble');
    const before = matchView(t);
    const ends = before.score[winner] + points >= t.target;
    if (ends) tally(`match won${t.stake !== null ? ' with a stake' : ''}${t.sides[0].length > 1 ? ' by pairs' : ''}`);
    if ((current(t)?.crawford ?? before.nextCrawford) && t.target > 1) tally('Crawford game played');
    if (shape !== this.shape) tally('match double not allowed: played without it');
    const entries = ends ? stakeEntries(t, winner) : [];
    return {
      actions,
      entries,
      points,
      winnerSide: winner,
      apply: (g) => {
        g.winnerSide = winner;
        g.points = points;
      },
    };
  }
  label() {
    return `PlayMatchGame(${this.t}, ${this.shape}, winner ${this.winner}, doubler ${this.doubler}, ${this.result}, actor ${this.actor})`;
  }
}

/** Starts a game with no action: it stays in progress (R6.8 refuses a second one). */
class StartGame extends Cmd {
  constructor(readonly t: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.tables.length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(m.tables, this.t);
    const url = `/v1/${ROUTE[t.kind]}/${t.id}/games`;
    this.note = `table ${t.no}`;
    const res = await r.post(url, {});
    if (!t.session.open) {
      this.note += ', session closed';
      expectStatus(res, 422, 'SESSION_CLOSED', 'R6.7');
    } else if (current(t)) {
      this.note += ', busy';
      expectStatus(res, 422, 'GAME_IN_PROGRESS', 'R6.8');
    } else if (t.kind === 'match' && matchView(t).finished) {
      this.note += ', match over';
      expectStatus(res, 422, 'MATCH_FINISHED', 'R3.2');
    } else {
      expectStatus(res, 201);
      const g: GameM = { no: nextGameNo(t), status: 'in-progress', entries: [] };
      startedGame(t, g);
      expect(res.body).toMatchObject({ gameNo: g.no, status: 'in-progress', payouts: [] });
      if (t.kind === 'match' && t.target > 1) expect(res.body.crawford).toBe(g.crawford);
      t.games.push(g);
    }
    return t;
  }
  label() {
    return `StartGame(${this.t})`;
  }
}

/** An abandoned game posts nothing and changes nothing (R6.3, R6.7). */
class AbandonGame extends Cmd {
  constructor(readonly t: number) {
    super();
  }
  check(m: Readonly<Model>) {
    return m.tables.some((t) => current(t));
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(
      m.tables.filter((x) => current(x)),
      this.t,
    );
    const g = current(t)!;
    this.note = `table ${t.no} game ${g.no}`;
    const res = await r.post(`/v1/${ROUTE[t.kind]}/${t.id}/games/${g.no}/abandon`);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ gameNo: g.no, status: 'abandoned', payouts: [] });
    g.status = 'abandoned';
    if (g.crawford) tally('Crawford game abandoned');
    return t;
  }
  label() {
    return `AbandonGame(${this.t})`;
  }
}

/** A game started and abandoned at once: nothing changes (R6.3), the next game gets the next number. */
class StartAndAbandon extends Cmd {
  constructor(readonly t: number) {
    super();
  }
  private candidates(m: Readonly<Model>) {
    return m.tables.filter((x) => x.session.open && !current(x) && !(x.kind === 'match' && matchView(x).finished));
  }
  check(m: Readonly<Model>) {
    return this.candidates(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(this.candidates(m), this.t);
    const g: GameM = { no: nextGameNo(t), status: 'in-progress', entries: [] };
    startedGame(t, g);
    this.note = `table ${t.no} game ${g.no}`;
    const url = `/v1/${ROUTE[t.kind]}/${t.id}/games`;
    const started = await r.post(url, {});
    expectStatus(started, 201);
    expect(started.body).toMatchObject({ gameNo: g.no, status: 'in-progress' });
    if (t.kind === 'match' && t.target > 1) expect(started.body.crawford).toBe(g.crawford);
    t.games.push(g);
    const res = await r.post(`${url}/${g.no}/abandon`);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ gameNo: g.no, status: 'abandoned', payouts: [] });
    g.status = 'abandoned';
    if (g.crawford) tally('Crawford game abandoned');
    return t;
  }
  label() {
    return `StartAndAbandon(${this.t})`;
  }
}

/**
 * R6.3: only the latest finished game, only while no game is in progress, reversing
 * entries; the score and the seats come back. A closed session takes no void (R6.7).
 */
class VoidLatest extends Cmd {
  constructor(
    readonly t: number,
    readonly notLatest: boolean,
  ) {
    super();
  }
  /**
   * Tables with a finished game; not a match with a penalty after its latest finished game
   * (R6.3 and R3.6 leave open what voiding a game before a penalty does to it).
   */
  private candidates(m: Readonly<Model>) {
    return m.tables.filter((x) => {
      const done = finishedGames(x);
      if (!done.length) return false;
      return x.kind !== 'match' || x.penalties.every((p) => p.after < done[done.length - 1].no);
    });
  }
  check(m: Readonly<Model>) {
    return this.candidates(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(this.candidates(m), this.t);
    const done = finishedGames(t);
    const latest = done[done.length - 1];
    const url = `/v1/${ROUTE[t.kind]}/${t.id}/games`;
    this.note = `table ${t.no}`;
    if (!t.session.open) {
      this.note += `, session closed, game ${latest.no}`;
      expectStatus(await r.post(`${url}/${latest.no}/void`, { reason: 'model' }), 422, 'SESSION_CLOSED', 'R6.7');
      return t;
    }
    if (current(t)) {
      this.note += `, busy, game ${latest.no}`;
      expectStatus(await r.post(`${url}/${latest.no}/void`, { reason: 'model' }), 422, 'GAME_IN_PROGRESS', 'R6.3');
      return t;
    }
    if (this.notLatest && done.length > 1) {
      const earlier = done[done.length - 2];
      this.note += `, not the latest: game ${earlier.no}`;
      expectStatus(await r.post(`${url}/${earlier.no}/void`, { reason: 'model' }), 422, 'NOT_LATEST_GAME', 'R6.3');
      return t;
    }
    this.note += `, game ${latest.no}`;
    const res = await r.post(`${url}/${latest.no}/void`, { reason: 'model' });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ gameNo: latest.no, status: 'voided' });
    const reversing: Entry[] = latest.entries.map((e) => ({ from: e.to, to: e.from, amount: e.amount, kind: 'void' }));
    const payouts = entriesOf(res.body.payouts);
    expectSamePostings(
      m,
      payouts.filter((e) => e.kind !== 'void'),
      latest.entries,
      `voided game ${latest.no} at table ${t.no}`,
    );
    expectSamePostings(
      m,
      payouts.filter((e) => e.kind === 'void'),
      reversing,
      `reversal of game ${latest.no} at table ${t.no}`,
    );
    if (t.kind === 'match' && matchView(t).finished) tally('match void: the game that ended the match');
    latest.status = 'voided';
    t.session.entries.push(...reversing);
    if (t.kind === 'chouette') {
      const before = latest.seatsBefore!;
      const now = seatedOf(t.seats);
      const then = seatedOf(before);
      if (now.some((p) => !then.includes(p))) tally('chouette void: someone joined since');
      if (then.some((p) => !now.includes(p))) tally('chouette void: someone left since');
      if (!now.includes(before.box)) tally('chouette void: the box of the voided game has left');
      t.seats = restoreSeats(before, t.seats);
    }
    if (t.kind === 'match' && latest.crawford) tally('match void: the Crawford game');
    if (!latest.entries.length) tally(`${t.kind} void of a game that posted nothing`);
    return t;
  }
  label() {
    return `VoidLatest(${this.t}${this.notLatest ? ', an earlier one' : ''})`;
  }
}

/** R3.3, R3.4, R3.5: a double the match refuses; nothing changes (a batch is all or nothing). */
class RefusedMatchDouble extends Cmd {
  constructor(
    readonly t: number,
    readonly actor: number,
  ) {
    super();
  }
  private static refusal(t: MatchM): { side: Side; code: string; rule: string } | null {
    const v = matchView(t);
    if (!t.session.open || v.finished) return null;
    const live = current(t);
    if (t.target === 1) return { side: 0, code: 'NO_CUBE_IN_ONE_POINT_MATCH', rule: 'R3.3' };
    const crawford = live ? live.crawford! : v.nextCrawford;
    // In the Crawford game the trailer (who is not dead) doubles: only the Crawford rule refuses.
    if (crawford) return { side: v.score[0] === t.target - 1 ? 1 : 0, code: 'CRAWFORD_NO_DOUBLE', rule: 'R3.4' };
    if (t.target - v.score[0] === 1) return { side: 0, code: 'DEAD_CUBE', rule: 'R3.5' };
    if (t.target - v.score[1] === 1) return { side: 1, code: 'DEAD_CUBE', rule: 'R3.5' };
    return null;
  }
  private candidates(m: Readonly<Model>): MatchM[] {
    return m.tables.filter((x): x is MatchM => x.kind === 'match' && RefusedMatchDouble.refusal(x) !== null);
  }
  check(m: Readonly<Model>) {
    return this.candidates(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(this.candidates(m), this.t);
    const { side, code, rule } = RefusedMatchDouble.refusal(t)!;
    const by = pickFrom(t.sides[side], this.actor);
    const live = current(t);
    this.note = `table ${t.no}, ${name(m, by)} doubles: ${code}${live ? ` in game ${live.no}` : ''}`;
    const url = `/v1/matches/${t.id}/games`;
    const res = live ? await r.post(`${url}/${live.no}/actions`, double(by)) : await r.post(url, { actions: [double(by)] });
    expectStatus(res, 422, code, rule);
    tally(`refused match double ${code}`);
    return t;
  }
  label() {
    return `RefusedMatchDouble(${this.t}, actor ${this.actor})`;
  }
}

/**
 * R3.6: penalty points to a side, between games only: they may end the match (the stake
 * is posted, R3.8), forfeit it (more than half the target against one side), or make
 * the next game the Crawford game.
 */
class Penalty extends Cmd {
  constructor(
    readonly t: number,
    readonly side: Side,
    readonly points: number,
  ) {
    super();
  }
  private candidates(m: Readonly<Model>) {
    return m.tables.filter((x): x is MatchM => x.kind === 'match' && x.session.open && !matchView(x).finished);
  }
  check(m: Readonly<Model>) {
    return this.candidates(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(this.candidates(m), this.t);
    const live = current(t);
    this.note = `table ${t.no}${live ? `, busy (game ${live.no})` : ''}`;
    const res = await r.post(`/v1/matches/${t.id}/penalties`, { side: this.side, points: this.points, reason: 'model' });
    if (live) {
      expectStatus(res, 422, 'GAME_IN_PROGRESS', 'R3.6');
      return t;
    }
    expectStatus(res, 201);
    const p: PenaltyM = { side: this.side, points: this.points, after: t.games.length, entries: [] };
    t.penalties.push(p);
    const v = matchView(t);
    if (v.finished) {
      p.entries = stakeEntries(t, v.winnerSide!);
      t.session.entries.push(...p.entries);
      tally(`penalty ends the match${2 * t.penalties.filter((x) => x.side === v.winnerSide).reduce((a, x) => a + x.points, 0) > t.target ? ' (forfeit)' : ''}`);
    }
    if (v.nextCrawford) tally('penalty makes the next game the Crawford game');
    expect(res.body).toMatchObject({ score: v.score, status: v.finished ? 'finished' : 'in-progress', winnerSide: v.winnerSide });
    return t;
  }
  label() {
    return `Penalty(${this.t}, side ${this.side}, ${this.points})`;
  }
}

const chouettes = (m: Readonly<Model>) => m.tables.filter((x): x is ChouetteM => x.kind === 'chouette');

/** R5.8: a player joins at the end of the team line, between games only. */
class JoinChouette extends Cmd {
  constructor(
    readonly t: number,
    readonly player: number,
  ) {
    super();
  }
  private candidates(m: Readonly<Model>) {
    // A joiner's stake at a table of per-player stakes is not in the rules: not generated.
    return chouettes(m).filter((c) => !c.stakes && c.partnerFrom === null && m.players.some((p) => !c.ever.includes(p)));
  }
  check(m: Readonly<Model>) {
    return this.candidates(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(this.candidates(m), this.t);
    const p = pickFrom(
      m.players.filter((x) => !t.ever.includes(x)),
      this.player,
    );
    this.note = `table ${t.no}: ${name(m, p)}`;
    const res = await r.post(`/v1/chouettes/${t.id}/players`, { playerId: p });
    if (!t.session.open) {
      this.note += ', session closed';
      expectStatus(res, 422, 'SESSION_CLOSED', 'R6.7');
    } else if (current(t)) {
      this.note += ', busy';
      expectStatus(res, 422, 'GAME_IN_PROGRESS', 'R5.8');
    } else {
      expectStatus(res, 201);
      t.seats = { box: t.seats.box, partner: null, line: [...t.seats.line, p] };
      t.ever = [...t.ever, p];
    }
    return t;
  }
  label() {
    return `JoinChouette(${this.t}, ${this.player})`;
  }
}

/** R5.8: a player leaves between games (the box: the captain becomes box); at least two stay seated. */
class LeaveChouette extends Cmd {
  constructor(
    readonly t: number,
    readonly member: number,
  ) {
    super();
  }
  private candidates(m: Readonly<Model>) {
    // (Leaving a table with a partner rule is not generated: R5.8 and R5.9 leave open what the
    // next game's start does after the partner left.)
    return chouettes(m).filter((c) => c.partnerFrom === null && c.seats.line.length >= 2);
  }
  check(m: Readonly<Model>) {
    return this.candidates(m).length > 0;
  }
  async exec(m: Model, r: Real) {
    const t = pickFrom(this.candidates(m), this.t);
    const p = pickFrom([t.seats.box, ...t.seats.line], this.member);
    this.note = `table ${t.no}: ${name(m, p)}${p === t.seats.box ? ' (the box)' : ''}`;
    const res = await r.del(`/v1/chouettes/${t.id}/players/${p}`);
    if (!t.session.open) {
      this.note += ', session closed';
      expectStatus(res, 422, 'SESSION_CLOSED', 'R6.7');
    } else if (current(t)) {
      this.note += ', busy';
      expectStatus(res, 422, 'GAME_IN_PROGRESS', 'R5.8');
    } else {
      expectStatus(res, 200);
      if (p === t.seats.box) {
        tally('chouette: the box leaves');
        t.seats = { box: t.seats.line[0], partner: null, line: t.seats.line.slice(1) };
      } else {
        t.seats = { box: t.seats.box, partner: null, line: t.seats.line.filter((x) => x !== p) };
      }
    }
    return t;
  }
  label() {
    return `LeaveChouette(${this.t}, ${this.member})`;
  }
}

// ---------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------

const idx = fc.nat({ max: 99 });
const side = fc.constantFrom<Side>(0, 1);
const rakeBp = fc.constantFrom(0, 250, 1000);
const currency = fc.constantFrom('USD', 'EUR');
const shape = fc.constantFrom<Shape>('finish', 'double-take', 'double-pass', 'redouble-take', 'redouble-pass');
const result = fc.constantFrom<Result>('single', 'gammon', 'backgammon');
/** Mostly singles, so that matches last long enough to reach the Crawford game and beyond. */
const matchResult = fc.oneof({ arbitrary: fc.constant<Result>('single'), weight: 3 }, { arbitrary: result, weight: 1 });
const players = (min: number, max: number) => fc.shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: min, maxLength: max });
const stake = fc.constantFrom(1, 50, 75, 100, 250);
/** R5.11: one chouette in three with a stake per player. */
/** R5.9: one chouette in three with a box partner from 3 or 4 seated, at 50 % or 30 %. */
const partnerRule = fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.record({ from: fc.constantFrom(3, 4), share: fc.constantFrom(50, 30) }), weight: 1 });
const perPlayer = fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.array(stake, { minLength: 5, maxLength: 5 }), weight: 1 });

type Arb = fc.Arbitrary<Cmd>;
const weighted = (n: number, arb: Arb): Arb[] => Array.from({ length: n }, () => arb);

const commandArbs: Arb[] = [
  ...weighted(
    1,
    fc.tuple(rakeBp, currency).map(([bp, c]) => new OpenSession(bp, c)),
  ),
  ...weighted(
    1,
    idx.map((s) => new CloseSession(s)),
  ),
  ...weighted(
    1,
    fc.tuple(idx, rakeBp).map(([s, bp]) => new SetRake(s, bp)),
  ),
  ...weighted(
    2,
    fc.tuple(idx, fc.uniqueArray(fc.nat({ max: 6 }), { minLength: 2, maxLength: 2 }), fc.integer({ min: 1, max: 5000 })).map(([s, [from, to], amount]) => new Pay(s, from, to, amount)),
  ),
  ...weighted(
    2,
    fc.tuple(idx, players(2, 2), stake).map(([s, p, st]) => new NewMoneyTable(s, p, st)),
  ),
  ...weighted(
    2,
    fc.tuple(idx, players(3, 5), stake, perPlayer, partnerRule).map(([s, p, st, pp, pr]) => new NewChouette(s, p, st, pp, pr)),
  ),
  ...weighted(
    2,
    fc
      .tuple(idx, players(4, 4), fc.boolean(), fc.constantFrom(1, 3, 5, 7), fc.option(fc.constantFrom(1, 100, 500, 1001), { nil: null }))
      .map(([s, p, pairs, target, st]) => new NewMatch(s, p, pairs, target, st)),
  ),
  ...weighted(
    4,
    fc.tuple(idx, shape, side, side, result).map(([t, sh, w, d, res]) => new PlayMoneyGame(t, sh, w, d, res)),
  ),
  ...weighted(
    4,
    fc.tuple(idx, fc.boolean(), idx).map(([t, box, member]) => new PlayChouetteGame(t, box, member)),
  ),
  ...weighted(
    3,
    fc
      .tuple(idx, fc.subarray([0, 1, 2, 3, 4]), fc.subarray([0, 1, 2, 3, 4]), fc.option(idx, { nil: null }), fc.boolean(), fc.boolean(), idx)
      .map(([t, doubles, takes, md, boxTakes, boxWins, w]) => new PlayChouetteCubeGame(t, doubles, takes, md, boxTakes, boxWins, w)),
  ),
  ...weighted(
    4,
    fc.tuple(idx, shape, side, side, matchResult, idx).map(([t, sh, w, d, res, a]) => new PlayMatchGame(t, sh, w, d, res, a)),
  ),
  ...weighted(
    2,
    idx.map((t) => new StartGame(t)),
  ),
  ...weighted(
    2,
    idx.map((t) => new AbandonGame(t)),
  ),
  ...weighted(
    3,
    fc.tuple(idx, fc.boolean()).map(([t, earlier]) => new VoidLatest(t, earlier)),
  ),
  ...weighted(
    2,
    idx.map((t) => new StartAndAbandon(t)),
  ),
  ...weighted(
    1,
    fc.tuple(idx, side, fc.integer({ min: 1, max: 2 })).map(([t, sd, pts]) => new Penalty(t, sd, pts)),
  ),
  ...weighted(
    2,
    fc.tuple(idx, idx).map(([t, a]) => new RefusedMatchDouble(t, a)),
  ),
  ...weighted(
    1,
    fc.tuple(idx, idx).map(([t, p]) => new JoinChouette(t, p)),
  ),
  ...weighted(
    1,
    fc.tuple(idx, idx).map(([t, p]) => new LeaveChouette(t, p)),
  ),
];

/** Every run starts with a session and one table of each kind in it, so that games start at once. */
const firstTables: fc.Arbitrary<Cmd[]> = fc.tuple(
  fc.tuple(players(2, 2), stake).map(([p, st]) => new NewMoneyTable(0, p, st)),
  fc.tuple(players(3, 5), stake, perPlayer, partnerRule).map(([p, st, pp, pr]) => new NewChouette(0, p, st, pp, pr)),
  fc
    .tuple(players(4, 4), fc.boolean(), fc.constantFrom(1, 3, 5, 7), fc.option(fc.constantFrom(1, 100, 500, 1001), { nil: null }))
    .map(([p, pairs, target, st]) => new NewMatch(0, p, pairs, target, st)),
);

// ---------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------

const envInt = (key: string, fallback: number) => {
  const v = process.env[key];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new Error(`${key} must be an integer, got ${v}`);
  return n;
};

const SEED = envInt('MODEL_SEED', 20261201);
const RUNS = envInt('MODEL_RUNS', 20);
const MAX_COMMANDS = envInt('MODEL_COMMANDS', 40);
const FC_PATH = process.env.MODEL_PATH || undefined;
const REPLAY = process.env.MODEL_REPLAY || undefined;
/** 1: every failing value met while shrinking; 2: every value tried. */
const VERBOSE = Math.min(2, Math.max(0, envInt('MODEL_VERBOSE', 0))) as 0 | 1 | 2;

describe('model-based: random club evenings over HTTP against a model of the rules', () => {
  let t: TestApp;
  let runs = 0;
  let executed = 0;
  let generated = 0;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
    const per = Object.entries(stats)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const seen = Object.entries(situations)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    console.log(`[model] seed ${SEED}: ${runs} runs, ${generated} commands generated, ${executed} executed (${per})\n[model] situations: ${seen}`);
  });

  it(
    'every balance, statement and ledger equals the model after every command',
    async () => {
      const property = fc.asyncProperty(
        fc.tuple(rakeBp, currency),
        firstTables,
        fc.commands(commandArbs, { maxCommands: MAX_COMMANDS, size: 'max', replayPath: REPLAY }),
        async ([bp, cur], first, cmds) => {
          runs++;
          generated += [...cmds].length;
          const { clubId, owner } = await newClub(t, 'Model club', 'USD');
          const names = new Map<string, string>();
          const ids: string[] = [];
          for (const n of NAMES) {
            const res = await t.http().post('/v1/players').set(bearer(owner)).send({ name: n });
            expectStatus(res, 201);
            ids.push(res.body.id);
            names.set(res.body.id, n);
          }
          const model: Model = { players: ids, names, sessions: [], tables: [] };
          const real = new Real(t, owner, names);
          const before = Object.values(stats).reduce((a, b) => a + b, 0);
          try {
            await openSession(model, real, bp, cur);
            for (const c of first) await c.run(model, real);
            await fc.asyncModelRun(() => ({ model, real }), cmds);
            await verifyAll(model, real);
            await verifyPlayers(model, real);
            // The read models the commands kept equal a rebuild from the games, the ledger and the payments.
            expect(await rebuildReadModels({ query: (text, values) => t.sql(text, values) }, clubId, 'check')).toEqual([]);
          } catch (e) {
            const err = e as Error;
            err.message += `\n\nRequests of this run (ids as player names):\n  ${real.trace.slice(-80).join('\n  ')}`;
            throw err;
          } finally {
            executed += Object.values(stats).reduce((a, b) => a + b, 0) - before;
          }
        },
      );
      await fc.assert(property, { seed: SEED, path: FC_PATH, numRuns: RUNS, verbose: VERBOSE, endOnFailure: FC_PATH !== undefined });
    },
    30 * 60_000,
  );
});
