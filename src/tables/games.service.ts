import { Injectable } from '@nestjs/common';
import { TABLE_KIND_NAMES } from '../domain/table-kinds';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { CommandContext } from '../common/command';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads, Tx } from '../db/tx';
import { assertGameInProgress, assertLatestFinishedGame, assertNoGameInProgress, assertSomethingToUndo, assertVoidable } from '../domain/table-commands';
import { LedgerEntryEntity, LedgerRepository } from '../ledger';
import { SessionEntity } from '../sessions';
import { engineFor } from './engines';
import { SessionGate } from './table-context';
import { Outbox } from '../outbox/outbox';
import type { NewEvent } from '../outbox/event-types';
import type { RatingChange } from '../ratings';
import { gameEvents, gamesWith, netsWith, tableFace } from './table-events';
import { answerDerivesFromGames, gameSummary, tableView, TableView } from './table-views';
import { decodeGame, toDomainAction, StoredGame, StoredTable, TableKind } from './stored-state';
import { ActionDto, GameDto, MatchDto, MoneyGameDto, StartGameDto, VoidDto } from './tables.dto';
import type { ChouetteDto } from './chouette.dto';
import { TablesRepository } from './tables.repository';
import { GameOutcomes } from './game-outcomes';
import { applied, commandEvents, gameDto, KindState, Locked, NextGame, readFor, replayed, started, stateOf, stored, withGame } from './played';

export { stateOf } from './played';

type IfMatch = number | '*' | undefined;

export const TABLE_NAMES: Record<TableKind, string> = { match: TABLE_KIND_NAMES.match.title, money: TABLE_KIND_NAMES.money.title, chouette: TABLE_KIND_NAMES.chouette.title };

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
    private readonly outbox: Outbox,
    private readonly outcomes: GameOutcomes,
  ) {}

  /** The table locked, its session share-locked and (with a number) the game, in one round trip. */
  private async locked<K extends TableKind>(tx: Tx, auth: KeyAuth, kind: K, id: string, gameNo: number | null): Promise<Locked<K>> {
    const found = await this.tables.lockForCommand(tx, auth.clubId, kind, id, gameNo);
    if (!found) throw notFound(TABLE_NAMES[kind]);
    return { kind, ...found };
  }

  /** The setup of the table's next game, from its history (R3.4, R3.5, R3.2, R4.4, R5.8, R8.5). */
  private async nextGame<K extends TableKind>(tx: Reads, locked: Locked<K>): Promise<NextGame<K>> {
    const { kind, t } = locked;
    const engine = engineFor(kind);
    const read = await readFor(this.tables, tx, t, engine.needs.next(t.setup));
    return { kind, t, setup: engine.nextGame(t, read) };
  }

  start(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, ifMatch: IfMatch, dto: StartGameDto): Promise<GameDto> {
    return this.commands.run(cmd, async (tx) => {
      const locked = await this.locked(tx, auth, kind, id, null);
      const { t } = locked;
      checkVersion(ifMatch, t.version);
      const session = this.sessions.check(t.sessionId, locked.session);
      assertNoGameInProgress(t);
      const before = tableFace(t, null);
      const next = await this.nextGame(tx, locked);
      const now = new Date();
      const played = started(next, auth.clubId, dto, now);
      t.nextGameNo += 1;
      const finished = played.state.status === 'finished' ? await this.outcomes.finish(tx, played, session, now) : null;
      if (!finished) t.currentGameNo = played.game.gameNo;
      const view = await this.viewIfChanged(tx, t, before, finished ? null : played.game, session);
      // The writes, with the COMMIT.
      const posted = finished ? await this.outcomes.settle(tx, played, session, now, finished) : [];
      this.tables.insertGame(tx, played.game);
      const saved = this.tables.save(tx, t);
      const game = this.dto(played.game, played, posted);
      // A game recorded whole is announced as started and finished, both as it is after the request.
      const events = finished ? gameEvents(['game.started', 'game.finished'], t, game) : gameEvents(['game.started'], t, game);
      this.announce(tx, saved, played.game, view, posted, events, finished?.rating, finished?.hookEvents);
      return game;
    });
  }

  act(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, dto: ActionDto): Promise<GameDto> {
    return this.commands.run(cmd, async (tx) => {
      const { live, session } = await this.liveGame(tx, auth, kind, id, gameNo, ifMatch);
      const before = tableFace(live.t, live.game);
      const next = applied(live, toDomainAction(dto));
      const { t, game } = next;
      const now = new Date();
      game.actions = [...game.actions, stored(dto, game.actions.length + 1, now)];
      const finished = next.state.status === 'finished' ? await this.outcomes.finish(tx, next, session, now) : null;
      if (finished) t.currentGameNo = null;
      const view = await this.viewIfChanged(tx, t, before, finished ? null : game, session);
      // The writes, with the COMMIT.
      let posted: LedgerEntryEntity[] = [];
      let table = t;
      if (finished) {
        posted = await this.outcomes.settle(tx, next, session, now, finished);
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

  undo(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch): Promise<GameDto> {
    return this.commands.run(cmd, async (tx) => {
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

  abandon(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch): Promise<GameDto> {
    return this.commands.run(cmd, async (tx) => {
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
  void(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, dto: VoidDto): Promise<GameDto> {
    return this.commands.run(cmd, async (tx) => (await this.voidGame(tx, auth, kind, id, gameNo, ifMatch, dto.reason)).game);
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
    const before = tableFace(t, null);
    const now = new Date();
    const original = await this.ledger.forGame(tx, auth.clubId, t.id, gameNo);
    // Decided from reads done before the writes below (which go with the COMMIT).
    const { reversing, reopened } = await this.outcomes.decideVoid(tx, tg, original, latest, now);
    game.status = 'voided';
    game.voidedAt = now;
    game.voidReason = reason;
    game.voidedBy = auth.keyId;
    // The table as answered after the void (read now, before the writes); announced when a client sees it change.
    const view: TableView = { ...(await this.tables.view(tx, t, answerDerivesFromGames(t.kind))), currency: session?.currency ?? null };
    const changed = tableFace(t, null) !== before;
    // The writes, with the COMMIT.
    const { posted, hookEvents } = await this.outcomes.settleVoid(tx, t, game, session, reversing, reopened, now);
    const table = this.tables.save(tx, t);
    const saved = this.tables.saveGame(tx, game);
    const answer = this.dto(saved, stateOf(tg.kind, tg.game), [...original, ...posted]);
    this.announce(tx, table, saved, changed ? view : null, posted, gameEvents(['game.voided'], t, answer), reopened.rating, hookEvents);
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
   * What the table's answer reads, when the command changed what a client sees of the
   * table (its face, before and after): read now, before the command's writes.
   * `current`: the game in progress at the table after the command, or null.
   */
  private async viewIfChanged(tx: Tx, t: StoredTable, before: string, current: StoredGame | null, session: SessionEntity | null): Promise<TableView | null> {
    if (tableFace(t, current) === before) return null;
    return { ...(await this.tables.view(tx, t, answerDerivesFromGames(t.kind))), currency: session?.currency ?? null };
  }

  /** Emits the command's events (`commandEvents`): its game's, `table.updated` when `view` was read, then the ratings' and the hooks'. */
  private announce(
    tx: Tx,
    t: StoredTable,
    game: StoredGame,
    view: TableView | null,
    posted: LedgerEntryEntity[],
    events: NewEvent[],
    rating?: RatingChange | null,
    after: NewEvent[] = [],
  ): void {
    this.outbox.emit(tx, t.clubId, ...commandEvents(t, game, view, posted, events, rating, after));
  }

  dto(g: StoredGame, played: KindState, entries: LedgerEntryEntity[]): GameDto {
    return gameDto(g, played, entries);
  }
}
