import { Injectable } from '@nestjs/common';
import type { Tx } from '../db/tx';
import { LedgerEntryEntity, LedgerRepository } from '../ledger';
import type { NewEvent } from '../outbox/event-types';
import { RatingChange, RatingsService } from '../ratings';
import { SessionEntity } from '../sessions';
import { engineFor, Posting } from './engines';
import { GameStats, type StatsChange } from './game-stats';
import type { HookWrites } from './match-end-hooks';
import { MatchEnds, NOT_REOPENED, Reopened } from './match-ends';
import { matchRowOf, Played, postedOf, readFor, stakeOf, TableGame } from './played';
import type { StoredGame, StoredTable, TableKind } from './stored-state';
import { TablesRepository } from './tables.repository';

/** What `finish` decided for a game that has just finished, written by `settle`. */
export interface Finished {
  postings: Posting[];
  /** A match that ended: its players' ratings (R7.1). */
  rating?: RatingChange | null;
  /** The statistics of the match it ended (with the side that won it), with the game's. */
  matches: StatsChange['matches'];
  /** A match that ended: what follows it (a tournament's draw, R9.5), written with the rest. */
  hookWrites?: HookWrites;
  /** The events those writes made, emitted after the command's own. */
  hookEvents?: NewEvent[];
}

/**
 * What a game's finish or void decides and writes, for GamesService: reads what the
 * engine of the table's kind needs, calls its decision (src/domain: finishGame,
 * voidGame), changes the game and table to it, reads what a match it ends or reopens
 * needs (MatchEnds), and later writes it all with the command's COMMIT. No branch on
 * the kind: the engine decides.
 */
@Injectable()
export class GameOutcomes {
  constructor(
    private readonly tables: TablesRepository,
    private readonly ledger: LedgerRepository,
    private readonly ratings: RatingsService,
    private readonly stats: GameStats,
    private readonly ends: MatchEnds,
  ) {}

  /**
   * A game has just finished: its result, and what the domain's `finishGame` of the
   * table's kind decides: its money (R4.2, R3.8, R6.4), the end of its match (rated,
   * R7.1) or of its money table (R4.4), a chouette's rotation (R5.7, R5.9). Reads (and
   * changes the game and table it is given) but writes nothing: `settle` writes what it
   * decided, once the command's reads are done.
   */
  async finish<K extends TableKind>(tx: Tx, played: Played<K>, session: SessionEntity | null, now: Date): Promise<Finished> {
    const { kind, t, game, state } = played;
    const engine = engineFor(kind);
    const read = await readFor(this.tables, tx, t, engine.needs.finish(t.setup));
    const out = engine.finishGame({ table: t, stakeMinor: stakeOf(t), game, state, rakeBp: session?.rakeBp ?? 0, read });
    game.status = 'finished';
    game.endedAt = now;
    game.result = state.result ? { ...state.result } : null;
    game.points = out.points;
    game.winnerSide = out.winnerSide;
    t.status = out.status;
    t.state = out.state;
    const match = matchRowOf(kind, t);
    if (!match || !out.matchEnded) return { postings: out.postings, matches: [] };
    const { rating, hookWrites } = await this.ends.ended(tx, match, out.matchEnded, now);
    return { postings: out.postings, rating, matches: [{ t: match, winnerSide: out.matchEnded.winnerSide }], hookWrites };
  }

  /** Writes what `finish` decided (with the COMMIT): the rating change, the statistics and the game's ledger entries. */
  async settle(tx: Tx, played: Played, session: SessionEntity | null, now: Date, finished: Finished): Promise<LedgerEntryEntity[]> {
    const { t, game } = played;
    if (finished.rating) this.ratings.apply(tx, t.clubId, finished.rating);
    finished.hookEvents = finished.hookWrites?.() ?? [];
    // The players' statistics: the game, and the match it ended.
    this.stats.apply(tx, t.clubId, { games: [{ t, game }], matches: finished.matches }, 1);
    if (!session) return [];
    return this.ledger.post(tx, t.clubId, session, t.id, game.gameNo, finished.postings, now, { players: game.players, delta: 1 });
  }

  /**
   * R6.3: what the void decides (the domain's `voidGame` of the table's kind), the table
   * changed to it, and what a match it reopens reads (MatchEnds.reopened). Reads only.
   */
  async decideVoid<K extends TableKind>(tx: Tx, tg: TableGame<K>, original: LedgerEntryEntity[], latest: number | null, now: Date): Promise<{ reversing: Posting[]; reopened: Reopened }> {
    const { kind, t, game } = tg;
    const engine = engineFor(kind);
    const read = await readFor(this.tables, tx, t, engine.needs.void(t.setup));
    const out = engine.voidGame({ table: t, game, posted: original.map(postedOf), latestFinishedGameNo: latest, read });
    t.status = out.status;
    t.state = out.state;
    const match = matchRowOf(kind, t);
    const reopened = match && out.matchReopened ? await this.ends.reopened(tx, match, out.matchReopened, now) : NOT_REOPENED;
    return { reversing: out.reversing, reopened };
  }

  /** Writes what a void decided (with the COMMIT): the reversing entries, the rating change taken back and the statistics taken back. */
  async settleVoid(
    tx: Tx,
    t: StoredTable,
    game: StoredGame,
    session: SessionEntity | null,
    reversing: Posting[],
    reopened: Reopened,
    now: Date,
  ): Promise<{ posted: LedgerEntryEntity[]; hookEvents: NewEvent[] }> {
    const posted = session ? await this.ledger.post(tx, t.clubId, session, t.id, game.gameNo, reversing, now, { players: game.players, delta: -1 }) : [];
    if (reopened.rating) this.ratings.apply(tx, t.clubId, reopened.rating);
    const hookEvents = reopened.hookWrites?.() ?? [];
    // What the game (and a match it ended) counted in the players' statistics, taken back.
    this.stats.apply(tx, t.clubId, { games: [{ t, game }], matches: reopened.matches }, -1);
    return { posted, hookEvents };
  }
}
