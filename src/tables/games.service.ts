import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { isoOrNull } from '../common/dates';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { checkVersion } from '../common/request';
import { CommandContext, Db, Replayed } from '../db/db.service';
import { inBatch } from '../domain/errors';
import { assertGameInProgress, assertLatestFinishedGame, assertNoGameInProgress, assertSomethingToUndo, assertVoidable } from '../domain/table-commands';
import type { GameAction, GameState } from '../domain/game';
import type { SideIndex } from '../domain/types';
import { LedgerEntryEntity, LedgerRepository, minorFromDb, NewEntry } from '../ledger';
import { SessionEntity } from '../sessions';
import {
  AnyGameState,
  ChouetteTableSetup,
  ChouetteTableState,
  chouettePostings,
  chouetteSeatsAfter,
  chouetteSeatsAfterVoid,
  chouetteWinnerSide,
  engineFor,
  gamePlayers,
  MatchTableSetup,
  matchStakePostings,
  moneyPostings,
  nextMatchGame,
  nextChouetteGame,
  nextMoneyGame,
  Posting,
  scoreOf,
  StoredChouetteGame,
  StoredPenalty,
} from './engines';
import type { ChouetteGameState } from '../domain/chouette';
import { SessionGate } from './table-context';
import { AppliedRating, RatingsService } from '../ratings';
import { GameEntity, StoredAction, TableEntity, TableKind } from './table.entity';
import { ActionDto, GameDto, StartGameDto, VoidDto } from './tables.dto';
import { TablesRepository } from './tables.repository';
import type { MoneyTable } from '../domain/money-game';

type IfMatch = number | '*' | undefined;

export const TABLE_NAMES: Record<TableKind, string> = { match: 'Match', money: 'Money game', chouette: 'Chouette' };

export function toDomainAction(a: ActionDto | StoredAction): GameAction {
  if (a.type === 'finish') {
    return { type: 'finish', winner: a.winner as string, result: a.result as 'single', resigned: a.resigned ?? false };
  }
  if (a.type === 'double') return { type: 'double', by: a.by as string, ...(a.cubes ? { cubes: a.cubes } : {}) };
  return { type: a.type, by: a.by as string, ...(a.cube ? { cube: a.cube } : {}) };
}

function stored(a: ActionDto, seq: number, at: Date): StoredAction {
  const s: StoredAction = { seq, type: a.type, at: at.toISOString() };
  if (a.by !== undefined) s.by = a.by;
  if (a.cube !== undefined) s.cube = a.cube;
  if (a.cubes !== undefined) s.cubes = a.cubes;
  if (a.winner !== undefined) s.winner = a.winner;
  if (a.result !== undefined) s.result = a.result;
  if (a.type === 'finish') s.resigned = a.resigned ?? false;
  return s;
}

/**
 * Games on every table (R6.8 one at a time, R6.3 void, abandon): one transaction per
 * command with the table's row locked, so two scorers on one game cannot both win.
 */
@Injectable()
export class GamesService {
  constructor(
    private readonly db: Db,
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly sessions: SessionGate,
    private readonly ratings: RatingsService,
  ) {}

  /** The table locked, its session share-locked and (with a number) the game, in one round trip. */
  private async locked(m: EntityManager, auth: KeyAuth, kind: TableKind, id: string, gameNo: number | null) {
    const found = await this.tables.lockForCommand(m, auth.clubId, kind, id, gameNo);
    if (!found) throw notFound(TABLE_NAMES[kind]);
    return found;
  }

  /** The setup of the table's next game, from its history (R3.4, R3.5, R3.2). */
  private async nextSetup(m: EntityManager, t: TableEntity): Promise<unknown> {
    if (t.kind === 'match') {
      const finished = await this.tables.finishedGames(m, t.clubId, t.id);
      const score = scoreOf(t.setup as unknown as MatchTableSetup, finished, penaltiesOf(t));
      return nextMatchGame(t.setup as unknown as MatchTableSetup, score);
    }
    if (t.kind === 'money') return nextMoneyGame(t.setup as unknown as MoneyTable);
    return nextChouetteGame(t.setup as unknown as ChouetteTableSetup, t.state as unknown as ChouetteTableState);
  }

  start(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, ifMatch: IfMatch, dto: StartGameDto): Promise<GameDto | Replayed> {
    return this.db.command(cmd, 201, async (m) => {
      const { t, session: s } = await this.locked(m, auth, kind, id, null);
      checkVersion(ifMatch, t.version);
      const session = this.sessions.check(t.sessionId, s);
      assertNoGameInProgress(t);
      const setup = await this.nextSetup(m, t);
      const now = new Date();
      const engine = engineFor(t.kind);
      let state = engine.start(setup, dto.automaticDoubles ?? 0);
      const actions: StoredAction[] = [];
      (dto.actions ?? []).forEach((a, i) => {
        state = inBatch(i, () => engine.apply(setup, state, toDomainAction(a)));
        actions.push(stored(a, i + 1, now));
      });
      const game: GameEntity = {
        clubId: auth.clubId,
        tableId: t.id,
        gameNo: t.nextGameNo,
        status: 'in-progress',
        automaticDoubles: dto.automaticDoubles ?? 0,
        setup: setup as Record<string, unknown>,
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
        players: gamePlayers(t.kind, t.setup, setup),
      };
      t.nextGameNo += 1;
      let posted: LedgerEntryEntity[] = [];
      if (state.status === 'finished') {
        posted = await this.finish(m, t, game, state, session, now);
      } else {
        t.currentGameNo = game.gameNo;
      }
      await this.tables.insertGame(m, game);
      await this.tables.save(m, t);
      return this.dto(game, state, posted, t.kind);
    });
  }

  act(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, dto: ActionDto): Promise<GameDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const { t, game, setup, state, session } = await this.liveGame(m, auth, kind, id, gameNo, ifMatch);
      const next = engineFor(t.kind).apply(setup, state, toDomainAction(dto));
      const now = new Date();
      game.actions = [...game.actions, stored(dto, game.actions.length + 1, now)];
      let posted: LedgerEntryEntity[] = [];
      if (next.status === 'finished') {
        posted = await this.finish(m, t, game, next, session, now);
        t.currentGameNo = null;
        await this.tables.save(m, t);
      }
      const saved = await this.tables.saveGame(m, game);
      return this.dto(saved, next, posted, t.kind);
    });
  }

  undo(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch): Promise<GameDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const { game, setup } = await this.liveGame(m, auth, kind, id, gameNo, ifMatch);
      assertSomethingToUndo(gameNo, game.actions.length);
      game.actions = game.actions.slice(0, -1);
      const state = engineFor(kind).replay(setup, game.actions.map(toDomainAction), game.automaticDoubles);
      const saved = await this.tables.saveGame(m, game);
      return this.dto(saved, state, [], kind);
    });
  }

  abandon(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch): Promise<GameDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const { t, game, state } = await this.liveGame(m, auth, kind, id, gameNo, ifMatch, false);
      game.status = 'abandoned';
      game.endedAt = new Date();
      t.currentGameNo = null;
      await this.tables.save(m, t);
      const saved = await this.tables.saveGame(m, game);
      return this.dto(saved, state, [], kind);
    });
  }

  /** R6.3: reversing entries for the latest finished game; scores and seats come back. */
  void(cmd: CommandContext, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, dto: VoidDto): Promise<GameDto | Replayed> {
    return this.db.command(cmd, 200, async (m) => {
      const { t, session: s, game } = await this.locked(m, auth, kind, id, gameNo);
      const session = this.sessions.check(t.sessionId, s);
      if (!game) throw notFound('Game');
      checkVersion(ifMatch, game.version);
      assertVoidable(t, gameNo, game.status);
      assertLatestFinishedGame(gameNo, await this.tables.latestFinishedGameNo(m, auth.clubId, t.id));
      const now = new Date();
      const original = await this.ledger.forGame(m, auth.clubId, t.id, gameNo);
      const reversing: NewEntry[] = original.filter((e) => e.kind !== 'void').map((e) => ({ from: e.toParty, to: e.fromParty, amountMinor: minorFromDb(e.amountMinor), kind: 'void' }));
      const posted = session ? await this.ledger.post(m, auth.clubId, session.id, t.id, gameNo, reversing, now, { players: game.players, delta: -1 }) : [];
      game.status = 'voided';
      game.voidedAt = now;
      game.voidReason = dto.reason;
      game.voidedBy = auth.keyId;
      if (t.kind === 'match') {
        const finished = (await this.tables.finishedGames(m, auth.clubId, t.id)).filter((g) => g.gameNo !== gameNo);
        const score = scoreOf(t.setup as unknown as MatchTableSetup, finished, penaltiesOf(t));
        if (t.status === 'finished' && score.status !== 'finished') {
          // R7.1: the match is open again, so its rating change is taken back.
          await this.ratings.unrate(m, auth.clubId, ratingsOf(t));
          t.state = { ...t.state, ratings: [] };
        }
        t.status = score.status;
      } else if (t.kind === 'chouette') {
        // R6.3: seats and partner as before the game; who joined or left since stays joined or gone.
        const table = t.setup as unknown as ChouetteTableSetup;
        const now = (t.state as unknown as ChouetteTableState).seats;
        const before = (game.setup as unknown as StoredChouetteGame).seatsBefore;
        t.state = { ...t.state, seats: chouetteSeatsAfterVoid(before, now, table.rules) };
      }
      await this.tables.save(m, t);
      const saved = await this.tables.saveGame(m, game);
      const state = engineFor(kind).replay(game.setup, game.actions.map(toDomainAction), game.automaticDoubles);
      return this.dto(saved, state, [...original, ...posted], kind);
    });
  }

  async get(auth: KeyAuth, kind: TableKind, id: string, gameNo: number): Promise<GameDto> {
    const m = this.db.manager;
    const t = await this.tables.find(m, auth.clubId, kind, id);
    if (!t) throw notFound(TABLE_NAMES[kind]);
    const game = await this.tables.game(m, auth.clubId, t.id, gameNo);
    if (!game) throw notFound('Game');
    const state = engineFor(kind).replay(game.setup, game.actions.map(toDomainAction), game.automaticDoubles);
    return this.dto(game, state, await this.ledger.forGame(m, auth.clubId, t.id, gameNo), kind);
  }

  async list(auth: KeyAuth, kind: TableKind, id: string, limit: number, cursor?: string): Promise<Page<GameDto>> {
    const m = this.db.manager;
    const t = await this.tables.find(m, auth.clubId, kind, id);
    if (!t) throw notFound(TABLE_NAMES[kind]);
    const after = decodeCursor(cursor, ['number']);
    const games = await this.tables.games(m, auth.clubId, t.id, (after?.[0] as number) ?? 0, limit + 1);
    const page = games.slice(0, limit);
    const entries = page.length ? await this.ledger.forGames(m, auth.clubId, t.id, page[0].gameNo, page[page.length - 1].gameNo) : [];
    return toPage(
      games,
      limit,
      (g) => [g.gameNo],
      (g) =>
        this.dto(
          g,
          engineFor(kind).replay(g.setup, g.actions.map(toDomainAction), g.automaticDoubles),
          entries.filter((e) => e.gameNo === g.gameNo),
          kind,
        ),
    );
  }

  /** The locked table and its game in progress, replayed. */
  private async liveGame(m: EntityManager, auth: KeyAuth, kind: TableKind, id: string, gameNo: number, ifMatch: IfMatch, needSession = true) {
    const { t, session: s, game } = await this.locked(m, auth, kind, id, gameNo);
    if (!game) throw notFound('Game');
    checkVersion(ifMatch, game.version);
    assertGameInProgress(gameNo, game.status);
    const session = needSession ? this.sessions.check(t.sessionId, s) : null;
    const setup: unknown = game.setup;
    const state = engineFor(kind).replay(setup, game.actions.map(toDomainAction), game.automaticDoubles);
    return { t, game, setup, state, session };
  }

  /** A game has just finished: record its result, post its money (R4.2, R3.8, R6.4), end the match if it does. */
  private async finish(m: EntityManager, t: TableEntity, game: GameEntity, anyState: AnyGameState, session: SessionEntity | null, now: Date): Promise<LedgerEntryEntity[]> {
    game.status = 'finished';
    game.endedAt = now;
    game.result = anyState.result ? { ...anyState.result } : null;
    let postings: Posting[] = [];
    if (t.kind === 'chouette') {
      const state = anyState as ChouetteGameState;
      const table = t.setup as unknown as ChouetteTableSetup;
      const stored = game.setup as unknown as StoredChouetteGame;
      game.points = null;
      game.winnerSide = chouetteWinnerSide(state);
      postings = chouettePostings(table, stored, state, session?.rakeBp ?? 0);
      // R5.7/R5.9: rotate from the seats the game was played with.
      t.state = { ...t.state, seats: chouetteSeatsAfter(stored, state, table.rules) };
    } else {
      game.points = (anyState as GameState).points;
      game.winnerSide = (anyState as GameState).winnerSide;
    }
    const state = anyState as GameState;
    if (t.kind === 'money') {
      const table = t.setup as unknown as MoneyTable;
      postings = moneyPostings(state, table.stakeMinor, session?.rakeBp ?? 0);
    } else if (t.kind === 'match') {
      const setup = t.setup as unknown as MatchTableSetup;
      const finished = await this.tables.finishedGames(m, t.clubId, t.id);
      const history = [...finished.filter((g) => g.gameNo !== game.gameNo), { gameNo: game.gameNo, winnerSide: state.winnerSide as SideIndex, points: state.points as number }];
      const score = scoreOf(setup, history, penaltiesOf(t));
      if (score.status === 'finished' && score.winnerSide !== null) {
        t.status = 'finished';
        postings = matchStakePostings(setup, score.winnerSide, t.stakeMinor === null ? null : minorFromDb(t.stakeMinor));
        // R7.1: the finished match rates its players; kept on the match for a void.
        t.state = { ...t.state, ratings: await this.ratings.rate(m, t.clubId, t, score.winnerSide) };
      }
    }
    if (!session) return [];
    return this.ledger.post(m, t.clubId, session.id, t.id, game.gameNo, postings, now, { players: game.players, delta: 1 });
  }

  dto(g: GameEntity, anyState: AnyGameState, entries: LedgerEntryEntity[], kind: TableKind): GameDto {
    const chouette = kind === 'chouette';
    const state = anyState as GameState;
    return {
      gameNo: g.gameNo,
      status: g.status,
      crawford: chouette ? false : state.crawford,
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
      points: chouette ? null : state.points,
      winnerSide: chouette ? chouetteWinnerSide(anyState as ChouetteGameState) : (state.winnerSide ?? null),
      payouts: entries.map((e) => ({ from: e.fromParty, to: e.toParty, amountMinor: minorFromDb(e.amountMinor), kind: e.kind })),
      startedAt: g.startedAt.toISOString(),
      endedAt: isoOrNull(g.endedAt),
      voided: g.voidedAt ? { at: g.voidedAt.toISOString(), reason: g.voidReason ?? '', by: g.voidedBy ?? '' } : null,
      version: g.version,
    };
  }
}

export function penaltiesOf(t: TableEntity): StoredPenalty[] {
  return (t.state as { penalties?: StoredPenalty[] }).penalties ?? [];
}

/** The rating changes a finished match applied (R7.1), to be taken back by a void. */
export function ratingsOf(t: TableEntity): AppliedRating[] {
  return (t.state as { ratings?: AppliedRating[] }).ratings ?? [];
}
