import { Injectable, OnModuleInit } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { CommandContext } from '../common/command';
import { decodeCursor, Page, PAGE_LIMIT, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { uuid7 } from '../common/uuid';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Tx } from '../db/tx';
import {
  assertCorrectionOpen,
  assertEntriesOpen,
  assertNotEntered,
  assertRoomInFlight,
  assertNotFinished,
  assertTournamentSettings,
  entryFlight,
  flightIndex,
} from '../domain/tournament-commands';
import { seedOrder } from '../domain/tournament';
import {
  correctionOf,
  currentMatchOf,
  drawFlight,
  entriesToDraw,
  Flight,
  flightPrizes,
  flightStatus,
  laterRoundMatches,
  pendingMatches,
  recordResult,
  tournamentStatus,
  withdrawEntry,
  withMatch,
} from '../domain/tournament-flight';
import type { NewEntry } from '../ledger';
import type { NewEvent } from '../outbox/event-types';
import { Outbox } from '../outbox/outbox';
import {
  assertPlayersInClub,
  HookWrites,
  MatchChange,
  MatchEndHooks,
  MatchResultsService,
  matchView,
  newMatchSetup,
  newTableRow,
  SessionGate,
  tableEvent,
  TablesRepository,
} from '../tables';
import type { MatchTableRow } from '../tables';
import { TournamentLedger } from './tournament-ledger';
import { flightRules, TournamentConfig, TournamentRow } from './tournament-state';
import { tournamentView } from './tournament-view';
import { CreateTournamentDto, DrawDto, EntryDto, MoveEntryDto, TournamentDto, TournamentListQuery, WithdrawDto } from './tournaments.dto';
import { TournamentsRepository } from './tournaments.repository';

type IfMatch = number | '*' | undefined;

const DEFAULT_FLIGHT = 'main';

/** Two ids that stand for any two players when a tournament's match settings are checked at its creation. */
const CHECK_SIDES = [['00000000-0000-7000-8000-000000000001'], ['00000000-0000-7000-8000-000000000002']];

/** A tournament read and locked by a command, and whether a write of it is already queued. */
interface Held {
  t: TournamentRow;
  saved: boolean;
}

/**
 * Tournaments (R9): creation, entries, the draw, withdrawals, and the draw carried on by
 * its matches' ends and corrections (a hook on every match end). Every change takes the
 * tournament's row FOR UPDATE; two results racing to fill one pairing are serialised on
 * it, so exactly one match is created for it.
 */
@Injectable()
export class TournamentsService implements OnModuleInit {
  /** The tournaments each open transaction holds locked (a withdrawal's forfeit reaches the hook inside it). */
  private readonly held = new WeakMap<Tx, Map<string, Held>>();

  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly repo: TournamentsRepository,
    private readonly tables: TablesRepository,
    private readonly sessions: SessionGate,
    private readonly outbox: Outbox,
    private readonly hooks: MatchEndHooks,
    private readonly results: MatchResultsService,
    private readonly ledger: TournamentLedger,
  ) {}

  onModuleInit(): void {
    this.hooks.register({ prepare: (tx, change) => this.matchChanged(tx, change) });
  }

  /** R9.1, R9.9, R9.11: a new tournament, open for entries. */
  create(cmd: CommandContext, auth: KeyAuth, dto: CreateTournamentDto): Promise<TournamentDto> {
    return this.commands.run(cmd, async (tx) => {
      const config = configOf(dto);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId ?? null);
      const now = new Date();
      const t: TournamentRow = {
        clubId: auth.clubId,
        id: uuid7(),
        sessionId: session?.id ?? null,
        name: dto.name,
        format: dto.format,
        status: 'open',
        config,
        state: { flights: config.flights.map((name) => ({ name, entries: [], main: null, consolation: null, prizes: null, scheduled: {} })), nextEntryNo: 1 },
        version: 1,
        createdAt: now,
        updatedAt: now,
        currency: session?.currency ?? null,
      };
      this.repo.insert(tx, t);
      const view = tournamentView(t);
      this.outbox.emit(tx, auth.clubId, tournamentEvent('tournament.created', t, view));
      return view;
    });
  }

  /** R9.2: a player enters a flight, before the draw. */
  enter(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: IfMatch, dto: EntryDto): Promise<TournamentDto> {
    return this.change(cmd, auth, id, ifMatch, async (tx, t) => {
      assertEntriesOpen(t.status);
      await assertPlayersInClub(tx, auth.clubId, [dto.playerId]);
      const player = dto.playerId.toLowerCase();
      assertNotEntered(t.state.flights, player);
      const fi = flightIndex(t.state.flights, dto.flight);
      assertRoomInFlight(t.state.flights[fi].entries.length);
      const flights = t.state.flights.map((f, i) =>
        i === fi ? { ...f, entries: [...f.entries, { playerId: player, entryNo: t.state.nextEntryNo, seed: dto.seed ?? null, status: 'in' as const }] } : f,
      );
      return { ...t, state: { flights, nextEntryNo: t.state.nextEntryNo + 1 } };
    });
  }

  /** R9.2: before the draw, an entry moves to another flight (or gets another seed). */
  moveEntry(cmd: CommandContext, auth: KeyAuth, id: string, playerId: string, ifMatch: IfMatch, dto: MoveEntryDto): Promise<TournamentDto> {
    return this.change(cmd, auth, id, ifMatch, (_tx, t) => {
      assertEntriesOpen(t.status);
      const player = playerId.toLowerCase();
      const from = entryFlight(t.state.flights, player, 'R9.2');
      const entry = t.state.flights[from].entries.find((e) => e.playerId === player)!;
      const moved = { ...entry, seed: dto.seed === undefined ? entry.seed : dto.seed };
      const to = dto.flight === undefined ? from : flightIndex(t.state.flights, dto.flight);
      if (to !== from) assertRoomInFlight(t.state.flights[to].entries.length);
      const flights = t.state.flights.map((f, i) => {
        let entries = f.entries.filter((e) => e.playerId !== player);
        if (i === to) entries = [...entries, moved].sort((a, b) => a.entryNo - b.entryNo);
        return { ...f, entries };
      });
      return Promise.resolve({ ...t, state: { ...t.state, flights } });
    });
  }

  /** R9.3, R9.4, R9.9: the draw of every flight; round 1's matches created, the entry fees paid into the pools. */
  draw(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: IfMatch, dto: DrawDto): Promise<TournamentDto> {
    return this.commands.run(cmd, async (tx) => {
      const held = await this.lock(tx, auth.clubId, id);
      const t = held.t;
      checkVersion(ifMatch, t.version);
      assertEntriesOpen(t.status);
      const session = await this.sessions.openSession(tx, auth.clubId, t.sessionId);
      const rules = flightRules(t);
      const ratings = await this.repo.ratings(
        tx,
        auth.clubId,
        t.state.flights.flatMap((f) => f.entries.map((e) => e.playerId)),
      );
      const now = new Date();
      const flights = t.state.flights.map((f) => {
        const seeded = seedOrder(
          entriesToDraw(f).map((e) => ({ playerId: e.playerId, entryNo: e.entryNo, rating: ratings.get(e.playerId) ?? 0, seed: e.seed })),
          dto.seeding,
          dto.randomSeed ?? 0,
        );
        return { ...drawFlight(f, rules, seeded), scheduled: f.scheduled };
      });
      let next: TournamentRow = { ...t, status: 'running', state: { ...t.state, flights } };
      const created = this.createMatches(next, now);
      next = created.t;
      const fees = this.ledger.entryFees(next);
      // The writes, with the COMMIT.
      const saved = this.repo.save(tx, next, now);
      held.t = saved;
      held.saved = true;
      for (const m of created.matches) this.tables.insertDeferred(tx, m, [...m.setup.sides[0], ...m.setup.sides[1]]);
      if (session) this.ledger.post(tx, saved, session, fees, now);
      const view = tournamentView(saved);
      this.outbox.emit(tx, auth.clubId, tournamentEvent('tournament.updated', saved, view), ...created.matches.map((m) => tableEvent('table.created', m, matchView(m, [], saved.currency))));
      return view;
    });
  }

  /** R9.8: a player withdraws or is disqualified: his match is forfeited, his next opponent goes through. */
  withdraw(cmd: CommandContext, auth: KeyAuth, id: string, playerId: string, ifMatch: IfMatch, dto: WithdrawDto): Promise<TournamentDto> {
    return this.commands.run(cmd, async (tx) => {
      const player = playerId.toLowerCase();
      // Locks in the order every match command takes them, the match before its tournament, so
      // a withdrawal and a result on the player's match wait for each other instead of
      // deadlocking: the match he is to forfeit, as the committed draw names it, first.
      const seen = await this.repo.find(tx, auth.clubId, id);
      const before = seen?.state.flights.map((f) => currentMatchOf(f, player)).find((m) => m !== null);
      if (before) await this.tables.lock(tx, auth.clubId, 'match', before);
      const held = await this.lock(tx, auth.clubId, id);
      checkVersion(ifMatch, held.t.version);
      const t = held.t;
      assertNotFinished(t.status);
      const fi = entryFlight(t.state.flights, player, 'R9.8');
      const rules = flightRules(t);
      const { flight, forfeit } = withdrawEntry(t.state.flights[fi], rules, player, dto.reason);
      held.t = { ...t, state: { ...t.state, flights: t.state.flights.map((f, i) => (i === fi ? { ...flight, scheduled: f.scheduled } : f)) } };
      if (forfeit) {
        // The forfeit (R3.9) reaches this tournament's hook, which carries the result on and writes the row.
        await this.results.forfeitIn(tx, auth, forfeit.matchId, '*', { side: forfeit.side, reason: dto.reason, note: dto.note ?? null });
        return tournamentView(held.t);
      }
      // No match to forfeit: walkovers (R9.8) may still have decided pairings and made new ones.
      const session = t.sessionId ? await this.sessions.openSession(tx, auth.clubId, t.sessionId) : null;
      const now = new Date();
      const writes = await this.settle(tx, held, now, session, []);
      const events = writes();
      this.outbox.emit(tx, auth.clubId, ...events);
      return tournamentView(held.t);
    });
  }

  async get(auth: KeyAuth, id: string): Promise<TournamentDto> {
    const t = await this.repo.find(this.db.once, auth.clubId, id);
    if (!t) throw notFound('Tournament');
    return tournamentView(t);
  }

  list(auth: KeyAuth, q: TournamentListQuery): Promise<Page<TournamentDto>> {
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = decodeCursor(q.cursor, ['string']);
    return this.db.read(async (tx) => {
      const rows = await this.repo.list(tx, auth.clubId, { status: q.status, sessionId: q.sessionId }, (after?.[0] as string) ?? null, limit);
      return toPage(rows, limit, (t) => [t.id], tournamentView);
    });
  }

  /** A command that changes only the tournament's row: locked, changed, saved, announced. */
  private change(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: IfMatch, fn: (tx: Tx, t: TournamentRow) => Promise<TournamentRow>): Promise<TournamentDto> {
    return this.commands.run(cmd, async (tx) => {
      const held = await this.lock(tx, auth.clubId, id);
      checkVersion(ifMatch, held.t.version);
      const next = await fn(tx, held.t);
      const saved = this.repo.save(tx, next, new Date());
      held.t = saved;
      held.saved = true;
      const view = tournamentView(saved);
      this.outbox.emit(tx, auth.clubId, tournamentEvent('tournament.updated', saved, view));
      return view;
    });
  }

  /** The tournament locked in this transaction (once: later calls of the same transaction get the same row). */
  private async lock(tx: Tx, clubId: string, id: string): Promise<Held> {
    let byId = this.held.get(tx);
    if (!byId) this.held.set(tx, (byId = new Map<string, Held>()));
    const known = byId.get(id);
    if (known) return known;
    const t = await this.repo.lock(tx, clubId, id);
    if (!t) throw notFound('Tournament');
    const held = { t, saved: false };
    byId.set(id, held);
    return held;
  }

  /**
   * The hook on a tournament match's end or reopening (R9.5, R9.10): the result carried into
   * the draw (or, for a void, the correction checked and the pairing it fed taken back);
   * reads now, writes with the match command's COMMIT.
   */
  private async matchChanged(tx: Tx, change: MatchChange): Promise<HookWrites | null> {
    const m: MatchTableRow = change.match;
    const ref = m.setup.tournament;
    if (!ref) return null;
    const held = await this.lock(tx, m.clubId, ref.id);
    const t = held.t;
    const fi = t.state.flights.findIndex((f) => f.name === ref.flight);
    if (fi < 0) return null;
    const rules = flightRules(t);
    const flight = t.state.flights[fi];
    let next: Flight;
    let removed: string[] = [];
    if (change.kind === 'ended') {
      const s = change.score;
      if (s.winnerSide === null || s.endedBy === null) return null;
      next = recordResult(flight, rules, m.id, { winnerSide: s.winnerSide, endedBy: s.endedBy, score: [s.score[0], s.score[1]] });
    } else {
      // R9.10, R9.4: a Swiss round none of whose matches has begun is paired again whole.
      const later = laterRoundMatches(flight, rules, m.id);
      const idle = later !== null && (await this.tables.startedGames(tx, m.clubId, later)) === 0;
      const c = correctionOf(flight, rules, m.id, idle);
      if (!c) return null;
      // R9.10: only while neither player has begun a game in a later match of the event.
      assertCorrectionOpen(await this.tables.startedGames(tx, m.clubId, c.guardMatches));
      next = c.flight;
      removed = c.removed;
    }
    held.t = { ...t, state: { ...t.state, flights: t.state.flights.map((f, i) => (i === fi ? { ...next, scheduled: f.scheduled } : f)) } };
    const session = t.sessionId ? await this.sessions.openSession(tx, m.clubId, t.sessionId) : null;
    return this.settle(tx, held, change.at, session, removed, flight);
  }

  /**
   * After a change to the held tournament: the matches its draw now needs, the prizes of a
   * flight that has just finished (or the reversal of those a correction took back), its
   * status. Reads nothing; answers the writes (with their events).
   */
  private settle(tx: Tx, held: Held, now: Date, session: { id: string; currency: string } | null, removed: string[], before?: Flight): Promise<HookWrites> {
    const created = this.createMatches(held.t, now);
    let t = created.t;
    const rules = flightRules(t);
    const entries: NewEntry[] = [];
    const flights = t.state.flights.map((f) => {
      const prior = before && before.name === f.name ? before : null;
      let flight = f;
      // R9.10: prizes posted before a correction are taken back.
      if (prior?.prizes && f.prizes === null) entries.push(...this.ledger.reversePrizes(t, prior.prizes));
      if (flightStatus(f, rules) === 'finished' && f.prizes === null) {
        const { prizes } = flightPrizes(f, rules);
        entries.push(...this.ledger.prizes(t, prizes));
        flight = { ...f, prizes };
      }
      return flight;
    });
    const status = tournamentStatus(flights, rules);
    t = { ...t, status, state: { ...t.state, flights } };
    const matches = created.matches;
    return Promise.resolve(() => {
      const saved = this.repo.save(tx, t, now);
      held.t = saved;
      held.saved = true;
      for (const m of matches) this.tables.insertDeferred(tx, m, [...m.setup.sides[0], ...m.setup.sides[1]]);
      for (const id of removed) this.tables.removeUnplayed(tx, t.clubId, id);
      if (session && entries.length) this.ledger.post(tx, saved, session, entries, now);
      const view = tournamentView(saved);
      const events: NewEvent[] = [tournamentEvent('tournament.updated', saved, view), ...matches.map((m) => tableEvent('table.created', m, matchView(m, [], saved.currency)))];
      return events;
    });
  }

  /** R9.5: a match for every pairing whose two players are known, scheduled at its round's start. */
  private createMatches(t: TournamentRow, now: Date): { t: TournamentRow; matches: MatchTableRow[] } {
    const matches: MatchTableRow[] = [];
    const flights = t.state.flights.map((f) => {
      let flight: Flight = f;
      const scheduled = { ...f.scheduled };
      for (const p of pendingMatches(f)) {
        const key = `${p.bracket}:${p.round}`;
        scheduled[key] ??= scheduleOf(t.config, p.bracket, p.round, now);
        const setup = newMatchSetup({ sides: [[p.sides[0]], [p.sides[1]]], target: p.target, rules: t.config.rules, variant: t.config.variant });
        setup.scheduledAt = scheduled[key];
        setup.tournament = { id: t.id, flight: f.name, bracket: p.bracket, round: p.round, pairing: p.pairing };
        const row = newTableRow(t.clubId, 'match', t.sessionId, setup, { penalties: [] }, null, now);
        matches.push(row);
        flight = withMatch(flight, p, row.id);
      }
      return { ...flight, scheduled };
    });
    return { t: { ...t, state: { ...t.state, flights } }, matches };
  }
}

/** R9.5, R9.6: when a round is due: as the director spaced the rounds, else round 1 at the start and later ones when paired. */
function scheduleOf(c: TournamentConfig, bracket: 'main' | 'consolation', round: number, now: Date): string {
  const start = c.startsAt ? Date.parse(c.startsAt) : null;
  if (start !== null && c.roundMinutes !== null && bracket === 'main') return new Date(start + (round - 1) * c.roundMinutes * 60_000).toISOString();
  if (start !== null && round === 1 && bracket === 'main') return new Date(start).toISOString();
  return now.toISOString();
}

/** R9.1, R9.9, R9.11: the director's settings, checked. */
function configOf(dto: CreateTournamentDto): TournamentConfig {
  const payouts = dto.payouts ?? [100];
  assertTournamentSettings({ ...dto, payouts, housePercent: dto.housePercent ?? 0 });
  const variant = dto.variant ?? 'backgammon';
  // Every round's target and the match settings, checked as POST /v1/matches checks them (R3.1, R8.7, R8.10).
  const checked = dto.targets.map((target) => newMatchSetup({ sides: CHECK_SIDES, target, rules: dto.rules as Record<string, unknown> | undefined, variant }));
  return {
    targets: [...dto.targets],
    rounds: dto.rounds ?? null,
    variant,
    rules: dto.rules ? { ...(dto.rules as Record<string, unknown>) } : {},
    matchRules: { ...checked[checked.length - 1].rules },
    entryFeeMinor: dto.entryFeeMinor ?? null,
    housePercent: dto.housePercent ?? 0,
    payouts: Array.isArray(payouts) ? [...payouts] : { main: [...payouts.main], consolation: [...payouts.consolation] },
    consolation: dto.consolation ?? false,
    flights: dto.flights ? [...dto.flights] : [DEFAULT_FLIGHT],
    startsAt: dto.startsAt ? new Date(dto.startsAt).toISOString() : null,
    roundMinutes: dto.roundMinutes ?? null,
  };
}

function tournamentEvent(type: 'tournament.created' | 'tournament.updated', t: TournamentRow, data: TournamentDto): NewEvent {
  return { type, sessionId: t.sessionId, subject: { kind: 'tournament', id: t.id }, data };
}
