import { Injectable } from '@nestjs/common';
import { fieldErrors, notFound } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { KeyAuth } from '../common/auth';
import { CommandContext } from '../common/command';
import { checkVersion } from '../common/request';
import { Commands } from '../commands/commands.service';
import type { Tx } from '../db/tx';
import type { MatchScore } from '../domain/match';
import { assertForfeitable, assertMatchNotOver, assertMatchVoidable, assertPenaltyBetweenGames } from '../domain/table-commands';
import type { SideIndex } from '../domain/types';
import { arrivalPenalty } from '../domain/tournament';
import { LedgerRepository, NewEntry } from '../ledger';
import type { NewEvent } from '../outbox/event-types';
import { Outbox } from '../outbox/outbox';
import { RatingChange, ratingEvents, RatingsService } from '../ratings';
import { SessionEntity } from '../sessions';
import {
  addForfeit,
  addPenalty,
  endMatch,
  endNeedsFinishedCount,
  latestResultOf,
  MatchReopening,
  MatchTableState,
  reopenMatch,
  scoreOf,
  stakeReversal,
  TableStatus,
  voidPenaltyOrForfeit,
} from './engines';
import { MatchEnds } from './match-ends';
import { postedOf, stakeOf } from './played';
import { GameStats } from './game-stats';
import { GamesService, stateOf } from './games.service';
import { decodeGame, MatchTableRow, StoredGame } from './stored-state';
import { SessionGate } from './table-context';
import { gameEvents, gamesWith, tableUpdated } from './table-events';
import { gameSummary, matchView } from './table-views';
import type { ArrivalDto, ArrivalResultDto, ForfeitDto, MatchDto, PenaltyDto } from './tables.dto';
import { TablesRepository } from './tables.repository';
import { HookWrites, MatchEndHooks } from './match-end-hooks';

type IfMatch = number | '*' | undefined;

/** The writes a match's end (or its reopening) makes, decided by reads done before them. */
interface EndChange {
  rating: RatingChange | null;
  /** The players' statistics: the match counted (1) or taken back (−1) with its winning side. */
  stats: { winnerSide: SideIndex; sign: 1 | -1 } | null;
  /** The stake's entries (R3.8) or their reversal. */
  entries: NewEntry[];
  /** What follows the match's end or reopening (a tournament's draw, R9.5, R9.10). */
  hookWrites: HookWrites | null;
}

const NO_CHANGE: EndChange = { rating: null, stats: null, entries: [], hookWrites: null };

/**
 * How a match's result changes other than by a game: penalty points (R3.6), a forfeit
 * (R3.9), and the void of its most recent result, whichever it is (R6.3, R3.6, R3.9).
 * Each is one command with the match's row locked; a match it ends or reopens is rated
 * or unrated (R7.1, R3.9), counted in the statistics and pays or takes back its stake
 * (R3.8), all in the same transaction.
 */
@Injectable()
export class MatchResultsService {
  constructor(
    private readonly commands: Commands,
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly sessions: SessionGate,
    private readonly ratings: RatingsService,
    private readonly outbox: Outbox,
    private readonly stats: GameStats,
    private readonly games: GamesService,
    private readonly hooks: MatchEndHooks,
    private readonly ends: MatchEnds,
  ) {}

  private async lockMatch(tx: Tx, auth: KeyAuth, id: string): Promise<{ t: MatchTableRow; session: SessionEntity | null }> {
    const t = await this.tables.lock(tx, auth.clubId, 'match', id);
    if (!t) throw notFound('Match');
    // R6.7: a closed session's scores are final: no penalty, forfeit or void.
    const session = await this.sessions.openSession(tx, auth.clubId, t.sessionId);
    return { t, session };
  }

  /** R3.6: points to a side between games; may end the match (stake posted) or forfeit it (R3.9). */
  penalty(cmd: CommandContext, auth: KeyAuth, id: string, dto: PenaltyDto): Promise<MatchDto> {
    return this.commands.run(cmd, async (tx) => {
      const { t, session } = await this.lockMatch(tx, auth, id);
      return this.penaltyOn(tx, t, session, dto);
    });
  }

  /**
   * R9.6: a side arrives at a match with a scheduled start: one penalty point to its
   * opponent for every full 5 minutes late, a forfeit for lateness past half the target,
   * nothing under 5 minutes. Answers the match after it.
   */
  arrival(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: IfMatch, dto: ArrivalDto): Promise<ArrivalResultDto> {
    if (dto.arrivedAt !== undefined && dto.at !== undefined) {
      throw fieldErrors(ErrorCode.VALIDATION_FAILED, [{ field: 'at', message: 'at is the older name of arrivedAt: give one of them, not both' }]);
    }
    const when = dto.arrivedAt ?? dto.at;
    return this.commands.run(cmd, async (tx) => {
      const at = when === undefined ? new Date() : new Date(when);
      const { t, session } = await this.lockMatch(tx, auth, id);
      checkVersion(ifMatch, t.version);
      const late = arrivalPenalty(t.setup.scheduledAt, at, t.setup.target);
      const note = `${late.minutes} minutes late`;
      // R9.6, R3.9: past half the target, the side forfeits for lateness (the row is locked already).
      if (late.forfeit) return { ...(await this.forfeitIn(tx, auth, id, undefined, { side: dto.side, reason: 'lateness', note })), penalty: null };
      if (late.points === 0) {
        assertMatchNotOver(scoreOf(t.setup, await this.tables.finishedGames(tx, auth.clubId, t.id), t.state).status);
        const games = (await this.tables.games(tx, t.clubId, t.id)).map(gameSummary);
        return { ...matchView(t, games, session?.currency ?? null), penalty: null };
      }
      const match = await this.penaltyOn(tx, t, session, { side: dto.side === 0 ? 1 : 0, points: late.points, reason: `lateness: ${note}` });
      return { ...match, penalty: match.penalties[match.penalties.length - 1] };
    });
  }

  /** R3.6: the penalty on the locked match. */
  private async penaltyOn(tx: Tx, t: MatchTableRow, session: SessionEntity | null, dto: PenaltyDto): Promise<MatchDto> {
    assertPenaltyBetweenGames(t);
    const finished = await this.tables.finishedGames(tx, t.clubId, t.id);
    assertMatchNotOver(scoreOf(t.setup, finished, t.state).status);
    const now = new Date();
    t.state = addPenalty(t.state, dto, t.nextGameNo - 1, now);
    const change = await this.ended(tx, t, scoreOf(t.setup, finished, t.state), now);
    return this.write(tx, t, session, change, now, null);
  }

  /**
   * R3.9: a side forfeits; the other side wins, the score stays as played. A game in
   * progress is closed as abandoned (it posts nothing); the stake is paid as for any win;
   * the match is rated only if one of its games was finished.
   */
  forfeit(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: IfMatch, dto: ForfeitDto): Promise<MatchDto> {
    return this.commands.run(cmd, (tx) => this.forfeitIn(tx, auth, id, ifMatch, dto));
  }

  /** The forfeit inside the caller's command (its own route, or a tournament's withdrawal, R9.8). */
  async forfeitIn(tx: Tx, auth: KeyAuth, id: string, ifMatch: IfMatch, dto: ForfeitDto): Promise<MatchDto> {
    const { t, session } = await this.lockMatch(tx, auth, id);
    checkVersion(ifMatch, t.version);
    const finished = await this.tables.finishedGames(tx, auth.clubId, t.id);
    assertForfeitable(scoreOf(t.setup, finished, t.state).status);
    const now = new Date();
    let abandoned: StoredGame<'match'> | null = null;
    if (t.currentGameNo !== null) {
      const row = await this.tables.game(tx, auth.clubId, t.id, t.currentGameNo);
      if (row) {
        abandoned = decodeGame(row, 'match');
        abandoned.status = 'abandoned';
        abandoned.endedAt = now;
      }
      t.currentGameNo = null;
    }
    t.state = addForfeit(t.state, { side: dto.side, reason: dto.reason, note: dto.note ?? null }, t.nextGameNo - 1, abandoned?.gameNo ?? null, now);
    const change = await this.ended(tx, t, scoreOf(t.setup, finished, t.state), now);
    return this.write(tx, t, session, change, now, abandoned);
  }

  /**
   * R6.3, R3.6, R3.9: voids the match's most recent result: its last finished game (as the
   * game's own void route does), its last penalty or its forfeit. The score, the Crawford
   * game and a finish it caused are then as before it: a match it had ended is open again.
   */
  voidResult(cmd: CommandContext, auth: KeyAuth, id: string, ifMatch: IfMatch, reason: string): Promise<MatchDto> {
    return this.commands.run(cmd, async (tx) => {
      const { t, session } = await this.lockMatch(tx, auth, id);
      checkVersion(ifMatch, t.version);
      const latest = latestResultOf(t.state, await this.tables.latestFinishedGameNo(tx, auth.clubId, t.id));
      assertMatchVoidable(t, latest);
      if (latest.kind === 'game') {
        // The game's own void does it all (the table's row is already locked by this command).
        return (await this.games.voidGame(tx, auth, 'match', t.id, latest.gameNo, undefined, reason)).table as MatchDto;
      }
      const finished = await this.tables.finishedGames(tx, auth.clubId, t.id);
      const before = scoreOf(t.setup, finished, t.state);
      const now = new Date();
      t.state = voidPenaltyOrForfeit(t.state, latest, { at: now.toISOString(), reason, by: auth.keyId });
      const reopened = reopenMatch(t, before, scoreOf(t.setup, finished, t.state));
      const change = reopened.matchReopened ? await this.reopened(tx, t, reopened.matchReopened, reopened, now) : NO_CHANGE;
      return this.write(tx, t, session, change, now, null);
    });
  }

  /** A match that the change has just ended (the domain's `endMatch`): rated (R7.1, unless a forfeit with no finished game, R3.9), counted, its stake due (R3.8). Reads only. */
  private async ended(tx: Tx, t: MatchTableRow, score: MatchScore, now: Date): Promise<EndChange> {
    const finishedGames = endNeedsFinishedCount(score) ? await this.tables.finishedGameCount(tx, t.clubId, t.id) : 0;
    const ending = endMatch(t.setup, stakeOf(t), score, finishedGames);
    if (!ending) return NO_CHANGE;
    t.status = 'finished';
    const { rating, hookWrites } = await this.ends.ended(tx, t, ending, now);
    return { rating, stats: { winnerSide: ending.winnerSide, sign: 1 }, entries: ending.postings, hookWrites };
  }

  /** A finished match that the void reopens (the domain's `reopenMatch`): its rating change, statistics and stake taken back. Reads only. */
  private async reopened(tx: Tx, t: MatchTableRow, reopening: MatchReopening, after: { status: TableStatus; state: MatchTableState }, now: Date): Promise<EndChange> {
    const { score, winnerSide, unrate } = reopening;
    t.status = after.status;
    t.state = after.state;
    // R9.10: a tournament may refuse it (a later match of its players has begun) or take back the pairing it fed.
    const hookWrites = await this.hooks.prepare(tx, { match: t, kind: 'reopened', score, at: now });
    const rating = await this.ratings.unrate(tx, t.clubId, unrate);
    // R3.8: the stake paid when a penalty or forfeit ended it (entries of no game), less what was already reversed.
    const entries = t.sessionId ? stakeReversal((await this.ledger.stakeEntries(tx, t.clubId, t.id)).map(postedOf)) : [];
    return { rating, stats: winnerSide === null ? null : { winnerSide, sign: -1 }, entries, hookWrites };
  }

  /** The command's writes (with the COMMIT), its events and its answer: the match after it. */
  private async write(tx: Tx, t: MatchTableRow, session: SessionEntity | null, change: EndChange, now: Date, abandoned: StoredGame<'match'> | null): Promise<MatchDto> {
    // What the answer reads (the games and the currency), before the writes.
    const games = (await this.tables.games(tx, t.clubId, t.id)).map(gameSummary);
    const currency = session?.currency ?? null;
    if (change.rating) this.ratings.apply(tx, t.clubId, change.rating);
    const hookEvents = change.hookWrites?.() ?? [];
    if (change.stats) this.stats.apply(tx, t.clubId, { games: [], matches: [{ t, winnerSide: change.stats.winnerSide }] }, change.stats.sign);
    if (session && change.entries.length) await this.ledger.post(tx, t.clubId, session, t.id, null, change.entries, now);
    const events: NewEvent[] = [];
    let shown = games;
    if (abandoned) {
      const game = this.tables.saveGame(tx, abandoned);
      shown = gamesWith(games, gameSummary(game));
      events.push(...gameEvents(['game.abandoned'], t, this.games.dto(game, stateOf('match', game), [])));
    }
    const saved = this.tables.save(tx, t);
    const match = matchView(saved, shown, currency);
    // The change is the table's (R3.6, R3.9, R6.3); a match it ends or reopens rates or unrates its players (R7.1).
    events.push(tableUpdated(t, match, abandoned?.gameNo ?? null), ...(change.rating ? ratingEvents(t.sessionId, change.rating) : []), ...hookEvents);
    this.outbox.emit(tx, t.clubId, ...events);
    return match;
  }
}
