import { Injectable } from '@nestjs/common';
import { TABLE_KIND_NAMES } from '../domain/table-kinds';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { CommandContext, Replayed } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads, Tx } from '../db/tx';
import { inBatch } from '../domain/errors';
import type { SideIndex } from '../domain/types';
import { assertGameInProgress, assertGameIsLatestResult, assertLatestFinishedGame, assertNoGameInProgress, assertSomethingToUndo, assertVoidable } from '../domain/table-commands';
import type { GameAction } from '../domain/game';
import { assertMoneyTableOpen } from '../domain/money-game';
import { LedgerEntryEntity, LedgerRepository, minorFromDb, NewEntry } from '../ledger';
import { SessionEntity } from '../sessions';
import {
  chouettePostings,
  chouetteSeatsAfter,
  chouetteSeatsAfterVoid,
  chouetteWinnerSide,
  engineFor,
  latestResultOf,
  matchStakePostings,
  moneyLeadReached,
  moneyPostings,
  nextChouetteGame,
  nextMatchGame,
  nextMoneyGame,
  Posting,
  ratingsOf,
  scoreOf,
} from './engines';
import { SessionGate } from './table-context';
import { Outbox } from '../outbox/outbox';
import type { NewEvent } from '../outbox/event-types';
import { RatingChange, ratingEvents, RatingsService } from '../ratings';
import { gameEvents, gamesWith, netsWith, tableFace, tableUpdated } from './table-events';
import { answerDerivesFromGames, gameSummary, tableView, TableView } from './table-views';
import { decodeGame, gameVariantOf, toDomainAction, GameSetups, GameStates, StoredAction, StoredGame, StoredTable, TableKind, TableRow } from './stored-state';
import { ActionDto, GameDto, MatchDto, MoneyGameDto, StartGameDto, VoidDto } from './tables.dto';
import type { ChouetteDto } from './chouette.dto';
import { TablesRepository } from './tables.repository';
import { GameStats, type StatsChange } from './game-stats';
import { HookWrites, MatchEndHooks } from './match-end-hooks';

type IfMatch = number | '*' | undefined;

export const TABLE_NAMES: Record<TableKind, string> = { match: TABLE_KIND_NAMES.match.title, money: TABLE_KIND_NAMES.money.title, chouette: TABLE_KIND_NAMES.chouette.title };

function stored(a: ActionDto, seq: number, at: Date): StoredAction {
  const s: StoredAction = { seq, type: a.type, at: at.toISOString() };
  if (a.by !== undefined) s.by = a.by;
  if (a.cube !== undefined) s.cube = a.cube;
  if (a.cubes !== undefined) s.cubes = a.cubes;
  if (a.winner !== undefined) s.winner = a.winner;
  if (a.result !== undefined) s.result = a.result;
  if (a.checkersLeft !== undefined) s.checkersLeft = a.checkersLeft;
  if (a.type === 'finish') s.resigned = a.resigned ?? false;
  if (a.offeredBy !== undefined) s.offeredBy = a.offeredBy;
  return s;
}

// The shapes below hold a table with what goes with it, all of one kind: narrowing one by
// `kind` types its table's setup and state, its game's setup and the game's state alike.
// Each is built by a function generic over the kind, which takes its pieces typed by the
// same kind (the repository read them for that kind and checked them against it).

/** The locked table, its session and (asked by number) its game. */
type Locked<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; session: SessionEntity | null; game: StoredGame<P> | null } }[K];

/** A table and one of its games. */
type TableGame<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; game: StoredGame<P> } }[K];

/** A table and the setup of its next game. */
type NextGame<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; setup: GameSetups[P] } }[K];

/** A table, one of its games and the game's state. */
type Played<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; game: StoredGame<P>; state: GameStates[P] } }[K];

/** A game's state, for the answer. */
type KindState<K extends TableKind = TableKind> = { [P in K]: { kind: P; state: GameStates[P] } }[K];

/** What `finish` decided for a game that has just finished, written by `settle`. */
interface Finished {
  postings: Posting[];
  /** A match that ended: its players' ratings (R7.1). */
  rating?: RatingChange;
  /** A match that ended: the side that won it. */
  matchWinnerSide?: SideIndex;
  /** A match that ended: what follows it (a tournament's draw, R9.5), written with the rest. */
  hookWrites?: HookWrites;
  /** The events those writes made, emitted after the command's own. */
  hookEvents?: NewEvent[];
}

/** The locked table with its game (404 without one). */
function withGame<K extends TableKind>(locked: Locked<K>): TableGame<K> {
  const { kind, t, game } = locked;
  if (!game) throw notFound('Game');
  return { kind, t, game };
}

/** A game's state, its action log replayed. */
export function stateOf<K extends TableKind>(kind: K, game: StoredGame<K>): KindState<K> {
  return { kind, state: engineFor(kind).replay(game.setup, game.actions.map(toDomainAction), game.automaticDoubles) };
}

/** A table's game replayed. */
function replayed<K extends TableKind>(tg: TableGame<K>): Played<K> {
  const { kind, t, game } = tg;
  return { kind, t, game, state: stateOf(kind, game).state };
}

/** One more action applied to a game. */
function applied<K extends TableKind>(p: Played<K>, action: GameAction): Played<K> {
  const { kind, t, game, state } = p;
  return { kind, t, game, state: engineFor(kind).apply(game.setup, state, action) };
}

/** The table's next game, started with the actions sent with it (all or nothing). */
function started<K extends TableKind>(next: NextGame<K>, clubId: string, dto: StartGameDto, now: Date): Played<K> {
  const { kind, t, setup } = next;
  const engine = engineFor(kind);
  let state = engine.start(setup, dto.automaticDoubles ?? 0);
  const actions: StoredAction[] = [];
  (dto.actions ?? []).forEach((a, i) => {
    state = inBatch(i, () => engine.apply(setup, state, toDomainAction(a)));
    actions.push(stored(a, i + 1, now));
  });
  const game: StoredGame<K> = {
    clubId,
    tableId: t.id,
    gameNo: t.nextGameNo,
    status: 'in-progress',
    automaticDoubles: dto.automaticDoubles ?? 0,
    setup,
    actions,
    result: null,
    points: null,
    winnerSide: null,
    startedAt: now,
    endedAt: null,
    voidedAt: null,
    voidReason: null,
    voidedBy: null,
    version: 1,
    players: engine.players(t.setup, setup),
  };
  return { kind, t, game, state };
}

/**
 * Games on every table (R6.8 one at a time, R6.3 void, abandon): one transaction per
 * command with the table's row locked, so two scorers on one game cannot both win.
 */
@Injectable()
export class GamesService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly sessions: SessionGate,
    private readonly ratings: RatingsService,
    private readonly outbox: Outbox,
    private readonly stats: GameStats,
    private readonly hooks: MatchEndHooks,
  ) {}

  /** The table locked, its session share-locked and (with a number) the game, in one round trip. */
  private async locked<K extends TableKind>(tx: Tx, auth: KeyAuth, kind: K, id: string, gameNo: number | null): Promise<Locked<K>> {
    const found = await this.tables.lockForCommand(tx, auth.clubId, kind, id, gameNo);
    if (!found) throw notFound(TABLE_NAMES[kind]);
    return { kind, ...found };
  }

  /** R8.5: a Tavli table's finished games so far (draws included), which pick its next variant. */
  private async cycleCount(tx: Reads, t: StoredTable): Promise<number> {
    return t.kind !== 'chouette' && t.setup.variant === 'tavli' ? this.tables.finishedGameCount(tx, t.clubId, t.id) : 0;
  }

  /** The setup of the table's next game, from its history (R3.4, R3.5, R3.2, R4.4, R8.5). */
  private async nextGame(tx: Reads, t: StoredTable): Promise<NextGame> {
    if (t.kind === 'match') {
      const finished = await this.tables.finishedGames(tx, t.clubId, t.id);
      const score = scoreOf(t.setup, finished, t.state);
      return { kind: t.kind, t, setup: nextMatchGame(t.setup, score, await this.cycleCount(tx, t)) };
    }
    if (t.kind === 'money') {
      assertMoneyTableOpen(t.status, t.setup.rules.stopAtLead);
      return { kind: t.kind, t, setup: nextMoneyGame(t.setup, await this.cycleCount(tx, t)) };
    }
    return { kind: t.kind, t, setup: nextChouetteGame(t.setup, t.state) };
  }

  start(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, ifMatch: IfMatch, dto: StartGameDto): Promise<GameDto | Replayed> {
    return this.commands.run(cmd, 201, async (tx) => {
      const { t, session: s } = await this.locked(tx, auth, kind, id, null);
      checkVersion(ifMatch, t.version);
      const session = this.sessions.check(t.sessionId, s);
      assertNoGameInProgress(t);
      const before = tableFace(t, null);
      const next = await this.nextGame(tx, t);
      const now = new Date();
      const played = started(next, auth.clubId, dto, now);
      t.nextGameNo += 1;
      const finished = played.state.status === 'finished' ? await this.finish(tx, played, session, now) : null;
      if (!finished) t.currentGameNo = played.game.gameNo;
      const view = await this.viewIfChanged(tx, t, before, finished ? null : played.game, session);
      // The writes, with the COMMIT.
      const posted = finished ? await this.settle(tx, played, session, now, finished) : [];
      this.tables.insertGame(tx, played.game);
      const saved = this.tables.save(tx, t);
      const game = this.dto(played.game, played, posted);
      // A game recorded whole is announced as started and finished, both as it is after the request.
      const events = finished ? gameEvents(['game.started', 'game.finished'], t, game) : gameEvents(['game.started'], t, game);
      this.announce(tx, saved, played.game, view, posted, events, finished?.rating, finished?.hookEvents);
      return game;
    });
  }

  act(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, dto: ActionDto): Promise<GameDto | Replayed> {
    return this.commands.run(cmd, 200, async (tx) => {
      const { live, session } = await this.liveGame(tx, auth, kind, id, gameNo, ifMatch);
      const before = tableFace(live.t, live.game);
      const next = applied(live, toDomainAction(dto));
      const { t, game } = next;
      const now = new Date();
      game.actions = [...game.actions, stored(dto, game.actions.length + 1, now)];
      const finished = next.state.status === 'finished' ? await this.finish(tx, next, session, now) : null;
      if (finished) t.currentGameNo = null;
      const view = await this.viewIfChanged(tx, t, before, finished ? null : game, session);
      // The writes, with the COMMIT.
      let posted: LedgerEntryEntity[] = [];
      let table = t;
      if (finished) {
        posted = await this.settle(tx, next, session, now, finished);
        table = this.tables.save(tx, t);
      }
      const saved = this.tables.saveGame(tx, game);
      const answer = this.dto(saved, next, posted);
      // An action that ends the game (a pass, a finish) is announced as the action, then the end.
      const events = finished ? gameEvents(['game.action', 'game.finished'], t, answer) : gameEvents(['game.action'], t, answer);
      this.announce(tx, table, saved, view, posted, events, finished?.rating, finished?.hookEvents);
      return answer;
    });
  }

  undo(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch): Promise<GameDto | Replayed> {
    return this.commands.run(cmd, 200, async (tx) => {
      const { live } = await this.liveGame(tx, auth, kind, id, gameNo, ifMatch);
      const { t, game } = live;
      assertSomethingToUndo(gameNo, game.actions.length);
      game.actions = game.actions.slice(0, -1);
      const undone = replayed(live);
      const saved = this.tables.saveGame(tx, game);
      const answer = this.dto(saved, undone, []);
      // The game stays in progress: nothing of its table changes.
      this.outbox.emit(tx, auth.clubId, ...gameEvents(['game.action'], t, answer));
      return answer;
    });
  }

  abandon(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch): Promise<GameDto | Replayed> {
    return this.commands.run(cmd, 200, async (tx) => {
      const { live, session } = await this.liveGame(tx, auth, kind, id, gameNo, ifMatch, false);
      const { t, game } = live;
      const before = tableFace(t, game);
      game.status = 'abandoned';
      game.endedAt = new Date();
      t.currentGameNo = null;
      // A chouette shows its seats from before the game again (R6.3: abandoning changes nothing).
      const view = await this.viewIfChanged(tx, t, before, null, session);
      const table = this.tables.save(tx, t);
      const saved = this.tables.saveGame(tx, game);
      const answer = this.dto(saved, live, []);
      this.announce(tx, table, saved, view, [], gameEvents(['game.abandoned'], t, answer));
      return answer;
    });
  }

  /** R6.3: reversing entries for the latest finished game; scores and seats come back. */
  void(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, dto: VoidDto): Promise<GameDto | Replayed> {
    return this.commands.run(cmd, 200, async (tx) => (await this.voidGame(tx, auth, kind, id, gameNo, ifMatch, dto.reason)).game);
  }

  /**
   * R6.3: voids the table's latest finished game inside the caller's command (the game's
   * own route, or a match's void of its most recent result): answers the game and the
   * table as they are after it. A match's game must be its most recent result (R3.6, R3.9).
   */
  async voidGame(
    tx: Tx,
    auth: KeyAuth,
    kind: TableKind,
    id: string,
    gameNo: number,
    ifMatch: IfMatch,
    reason: string,
  ): Promise<{ game: GameDto; table: MatchDto | MoneyGameDto | ChouetteDto }> {
    const locked = await this.locked(tx, auth, kind, id, gameNo);
    const session = this.sessions.check(locked.t.sessionId, locked.session);
    const tg = withGame(locked);
    const { t, game } = tg;
    checkVersion(ifMatch, game.version);
    assertVoidable(t, gameNo, game.status);
    const latest = await this.tables.latestFinishedGameNo(tx, auth.clubId, t.id);
    assertLatestFinishedGame(gameNo, latest);
    if (tg.kind === 'match') assertGameIsLatestResult(gameNo, latestResultOf(tg.t.state, latest));
    const before = tableFace(t, null);
    const now = new Date();
    const original = await this.ledger.forGame(tx, auth.clubId, t.id, gameNo);
    const reversing: NewEntry[] = original.filter((e) => e.kind !== 'void').map((e) => ({ from: e.toParty, to: e.fromParty, amountMinor: minorFromDb(e.amountMinor), kind: 'void' }));
    // A match's history (a money table's points) without this game, read before the writes below (which go with the COMMIT).
    const finishedBefore = tg.kind !== 'chouette' ? await this.tables.finishedGames(tx, auth.clubId, t.id) : [];
    game.status = 'voided';
    game.voidedAt = now;
    game.voidReason = reason;
    game.voidedBy = auth.keyId;
    let rating: RatingChange | undefined;
    let hookWrites: HookWrites | undefined;
    // What the game (and a match it ended) counted in the players' statistics, taken back.
    const stats: StatsChange = { games: [{ t, game }], matches: [] };
    if (tg.kind === 'match') {
      const match = tg.t;
      const finished = finishedBefore.filter((g) => g.gameNo !== gameNo);
      const score = scoreOf(match.setup, finished, match.state);
      if (match.status === 'finished' && score.status !== 'finished') {
        const ended = scoreOf(match.setup, finishedBefore, match.state).winnerSide;
        if (ended !== null) stats.matches.push({ t: match, winnerSide: ended });
        // R7.1: the match is open again, so its rating change is taken back (the players read and locked now).
        rating = await this.ratings.unrate(tx, auth.clubId, ratingsOf(match));
        match.state = { ...match.state, ratings: [] };
        // R9.10: a tournament may refuse it, or take back the pairing it fed.
        hookWrites = await this.hooks.prepare(tx, { match: { ...match, status: score.status }, kind: 'reopened', score, at: now });
      }
      match.status = score.status;
    } else if (tg.kind === 'money') {
      // R4.4: voiding the game that reached the lead reopens the table.
      const table = tg.t;
      table.status = moneyLeadReached(
        table.setup,
        finishedBefore.filter((g) => g.gameNo !== gameNo),
      )
        ? 'finished'
        : 'in-progress';
    } else if (tg.kind === 'chouette') {
      // R6.3: seats and partner as before the game; who joined or left since stays joined or gone.
      const chouette = tg.t;
      chouette.state = { ...chouette.state, seats: chouetteSeatsAfterVoid(tg.game.setup.seatsBefore, chouette.state.seats, chouette.setup.rules) };
    }
    // The table as answered after the void (read now, before the writes); announced when a client sees it change.
    const view: TableView = { ...(await this.tables.view(tx, t, answerDerivesFromGames(t.kind))), currency: session?.currency ?? null };
    const changed = tableFace(t, null) !== before;
    // The writes, with the COMMIT.
    const posted = session ? await this.ledger.post(tx, auth.clubId, session, t.id, gameNo, reversing, now, { players: game.players, delta: -1 }) : [];
    if (rating) this.ratings.apply(tx, auth.clubId, rating);
    const hookEvents = hookWrites?.() ?? [];
    this.stats.apply(tx, auth.clubId, stats, -1);
    const table = this.tables.save(tx, t);
    const saved = this.tables.saveGame(tx, game);
    const answer = this.dto(saved, stateOf(tg.kind, tg.game), [...original, ...posted]);
    this.announce(tx, table, saved, changed ? view : null, posted, gameEvents(['game.voided'], t, answer), rating, hookEvents);
    const shown = tableView(table, { games: gamesWith(view.games, gameSummary(saved)), nets: netsWith(view.nets, posted), players: view.players, currency: view.currency }, null);
    return { game: answer, table: shown };
  }

  async get(auth: KeyAuth, kind: TableKind, id: string, gameNo: number): Promise<GameDto> {
    const once = this.db.once;
    const t = await this.tables.find(once, auth.clubId, kind, id);
    if (!t) throw notFound(TABLE_NAMES[kind]);
    const game = await this.tables.game(once, auth.clubId, t.id, gameNo);
    if (!game) throw notFound('Game');
    const state = stateOf(kind, decodeGame(game, kind));
    return this.dto(game, state, await this.ledger.forGame(once, auth.clubId, t.id, gameNo));
  }

  async list(auth: KeyAuth, kind: TableKind, id: string, limit: number, cursor?: string): Promise<Page<GameDto>> {
    const once = this.db.once;
    const t = await this.tables.find(once, auth.clubId, kind, id);
    if (!t) throw notFound(TABLE_NAMES[kind]);
    const after = decodeCursor(cursor, ['number']);
    const games = await this.tables.games(once, auth.clubId, t.id, (after?.[0] as number) ?? 0, limit + 1);
    const page = games.slice(0, limit);
    const entries = page.length ? await this.ledger.forGames(once, auth.clubId, t.id, page[0].gameNo, page[page.length - 1].gameNo) : [];
    return toPage(
      games,
      limit,
      (g) => [g.gameNo],
      (g) =>
        this.dto(
          g,
          stateOf(kind, decodeGame(g, kind)),
          entries.filter((e) => e.gameNo === g.gameNo),
        ),
    );
  }

  /** The locked table and its game in progress, replayed. */
  private async liveGame(tx: Tx, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, needSession = true) {
    const locked = await this.locked(tx, auth, kind, id, gameNo);
    const tg = withGame(locked);
    checkVersion(ifMatch, tg.game.version);
    assertGameInProgress(gameNo, tg.game.status);
    // Unchecked when not needed (an abandon): read for the table's answer all the same.
    const session = needSession ? this.sessions.check(tg.t.sessionId, locked.session) : locked.session;
    return { live: replayed(tg), session };
  }

  /**
   * A game has just finished: its result, its money (R4.2, R3.8, R6.4), the end of its
   * match (rated, R7.1) or of its money table (R4.4), a chouette's rotation (R5.7, R5.9).
   * Reads (and changes the game and table it is given) but writes nothing: `settle`
   * writes what it decided, once the command's reads are done.
   */
  private async finish(tx: Tx, played: Played, session: SessionEntity | null, now: Date): Promise<Finished> {
    const { t, game } = played;
    game.status = 'finished';
    game.endedAt = now;
    game.result = played.state.result ? { ...played.state.result } : null;
    let postings: Posting[] = [];
    let rating: RatingChange | undefined;
    if (played.kind === 'chouette') {
      const { t: table, game: chouetteGame, state } = played;
      game.points = null;
      game.winnerSide = chouetteWinnerSide(state);
      postings = chouettePostings(table.setup, chouetteGame.setup, state, session?.rakeBp ?? 0);
      // R5.7/R5.9: rotate from the seats the game was played with.
      table.state = { ...table.state, seats: chouetteSeatsAfter(chouetteGame.setup, state, table.setup.rules) };
    } else {
      game.points = played.state.points;
      game.winnerSide = played.state.winnerSide;
    }
    if (played.kind === 'money') {
      const { t: table, state } = played;
      postings = moneyPostings(state, table.setup.stakeMinor, session?.rakeBp ?? 0);
      if (table.setup.rules.stopAtLead !== undefined && table.setup.rules.stopAtLead !== null) {
        // R4.4: the table is finished once a player's lead reaches stopAtLead.
        const finished = await this.tables.finishedGames(tx, t.clubId, t.id);
        const games = [...finished.filter((g) => g.gameNo !== game.gameNo), { winnerSide: state.winnerSide, points: state.points }];
        if (moneyLeadReached(table.setup, games)) table.status = 'finished';
      }
    } else if (played.kind === 'match') {
      const { t: match, state } = played;
      const finished = await this.tables.finishedGames(tx, t.clubId, t.id);
      // R8.3: a draw scores nothing, so it is not in the match's history.
      const thisGame = state.winnerSide === null ? [] : [{ gameNo: game.gameNo, winnerSide: state.winnerSide, points: state.points as number }];
      const history = [...finished.filter((g) => g.gameNo !== game.gameNo), ...thisGame];
      const score = scoreOf(match.setup, history, match.state);
      if (score.status === 'finished' && score.winnerSide !== null) {
        match.status = 'finished';
        postings = matchStakePostings(match.setup, score.winnerSide, match.stakeMinor === null ? null : minorFromDb(match.stakeMinor));
        // R7.1: the finished match rates its players (their rows read and locked now); kept on the match for a void.
        rating = await this.ratings.rate(tx, match.clubId, match, score.winnerSide);
        match.state = { ...match.state, ratings: rating.applied };
        const hookWrites = await this.hooks.prepare(tx, { match, kind: 'ended', score, at: now });
        return { postings, rating, matchWinnerSide: score.winnerSide, hookWrites };
      }
    }
    return { postings, rating };
  }

  /** Writes what `finish` decided (with the COMMIT): the rating change and the game's ledger entries. */
  private async settle(tx: Tx, played: Played, session: SessionEntity | null, now: Date, finished: Finished): Promise<LedgerEntryEntity[]> {
    const { t, game } = played;
    if (finished.rating) this.ratings.apply(tx, t.clubId, finished.rating);
    finished.hookEvents = finished.hookWrites?.() ?? [];
    // The players' statistics: the game, and the match it ended.
    const matches = played.kind === 'match' && finished.matchWinnerSide !== undefined ? [{ t: played.t, winnerSide: finished.matchWinnerSide }] : [];
    this.stats.apply(tx, t.clubId, { games: [{ t, game }], matches }, 1);
    if (!session) return [];
    return this.ledger.post(tx, t.clubId, session, t.id, game.gameNo, finished.postings, now, { players: game.players, delta: 1 });
  }

  /**
   * What the table's answer reads, when the command changed what a client sees of the
   * table (its face, before and after): read now, before the command's writes.
   * `current`: the game in progress at the table after the command, or null.
   */
  private async viewIfChanged(tx: Tx, t: StoredTable, before: string, current: StoredGame | null, session: SessionEntity | null): Promise<TableView | null> {
    if (tableFace(t, current) === before) return null;
    return { ...(await this.tables.view(tx, t, answerDerivesFromGames(t.kind))), currency: session?.currency ?? null };
  }

  /**
   * Emits the command's events in their order: its game's, then `table.updated` when the
   * table changed (`view` read: the table as saved, its games with this one as it now is,
   * its nets with what was just posted), then `rating.changed` for each player rated.
   */
  private announce(tx: Tx, t: StoredTable, game: StoredGame, view: TableView | null, posted: LedgerEntryEntity[], events: NewEvent[], rating?: RatingChange, after: NewEvent[] = []): void {
    if (view) {
      const games = gamesWith(view.games, gameSummary(game));
      const data = tableView(t, { games, nets: netsWith(view.nets, posted), players: view.players, currency: view.currency }, game.status === 'in-progress' ? game : null);
      events.push(tableUpdated(t, data, game.gameNo));
    }
    if (rating) events.push(...ratingEvents(t.sessionId, rating));
    // What followed the match's end (a tournament's draw), after the match's own events.
    events.push(...after);
    this.outbox.emit(tx, t.clubId, ...events);
  }

  dto(g: StoredGame, played: KindState, entries: LedgerEntryEntity[]): GameDto {
    const { state } = played;
    return {
      gameNo: g.gameNo,
      variant: gameVariantOf(g),
      status: g.status,
      crawford: played.kind === 'chouette' ? false : played.state.crawford,
      automaticDoubles: g.automaticDoubles,
      cubes: state.cubes.map((c) => ({
        member: c.member,
        value: c.value,
        owner: c.owner,
        status: c.status,
        pending: c.pending ? { by: c.pending.by, value: c.pending.value, kind: c.pending.kind } : null,
      })),
      actions: g.actions.map((a) => ({ ...a, cube: a.cube ?? null })),
      result: g.status === 'in-progress' ? null : state.result ? { ...state.result } : null,
      points: played.kind === 'chouette' ? null : played.state.points,
      winnerSide: played.kind === 'chouette' ? chouetteWinnerSide(played.state) : (played.state.winnerSide ?? null),
      payouts: entries.map((e) => ({ from: e.fromParty, to: e.toParty, amountMinor: minorFromDb(e.amountMinor), kind: e.kind })),
      startedAt: g.startedAt.toISOString(),
      endedAt: isoOrNull(g.endedAt),
      voided: g.voidedAt ? { at: g.voidedAt.toISOString(), reason: g.voidReason ?? '', by: g.voidedBy ?? '' } : null,
      version: g.version,
    };
  }
}
