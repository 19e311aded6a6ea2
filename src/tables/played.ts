/**
 * A table with its game, all of one kind, as GamesService holds them, and what is built
 * from them without I/O: a game started or replayed, an action applied, the game's answer.
 * Narrowing one of these shapes by `kind` types its table's setup and state, its game's
 * setup and the game's state alike; each is built by a function generic over the kind.
 */
import { notFound } from '../common/api-error';
import { isoOrNull } from '../common/dates';
import type { Reads } from '../db/tx';
import { inBatch } from '../domain/errors';
import type { GameAction } from '../domain/game';
import { LedgerEntryEntity, minorFromDb } from '../ledger';
import { SessionEntity } from '../sessions';
import { engineFor, Needs, PostedEntry, Read } from './engines';
import { gameVariantOf, GameSetups, GameStates, MatchTableRow, StoredAction, StoredGame, StoredTable, TableKind, TableRow, toDomainAction } from './stored-state';
import type { ActionDto, GameDto, StartGameDto } from './tables.dto';
import type { TablesRepository } from './tables.repository';
import type { NewEvent } from '../outbox/event-types';
import { RatingChange, ratingEvents } from '../ratings';
import { gamesWith, netsWith, tableUpdated } from './table-events';
import { gameSummary, tableView, TableView } from './table-views';

/** The locked table, its session and (asked by number) its game. */
export type Locked<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; session: SessionEntity | null; game: StoredGame<P> | null } }[K];

/** A table and one of its games. */
export type TableGame<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; game: StoredGame<P> } }[K];

/** A table and the setup of its next game. */
export type NextGame<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; setup: GameSetups[P] } }[K];

/** A table, one of its games and the game's state. */
export type Played<K extends TableKind = TableKind> = { [P in K]: { kind: P; t: TableRow<P>; game: StoredGame<P>; state: GameStates[P] } }[K];

/** A game's state, for the answer. */
export type KindState<K extends TableKind = TableKind> = { [P in K]: { kind: P; state: GameStates[P] } }[K];

export function stored(a: ActionDto, seq: number, at: Date): StoredAction {
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

/** The locked table with its game (404 without one). */
export function withGame<K extends TableKind>(locked: Locked<K>): TableGame<K> {
  const { kind, t, game } = locked;
  if (!game) throw notFound('Game');
  return { kind, t, game };
}

/** A game's state, its action log replayed. */
export function stateOf<K extends TableKind>(kind: K, game: StoredGame<K>): KindState<K> {
  return { kind, state: engineFor(kind).replay(game.setup, game.actions.map(toDomainAction), game.automaticDoubles) };
}

/** A table's game replayed. */
export function replayed<K extends TableKind>(tg: TableGame<K>): Played<K> {
  const { kind, t, game } = tg;
  return { kind, t, game, state: stateOf(kind, game).state };
}

/** One more action applied to a game. */
export function applied<K extends TableKind>(p: Played<K>, action: GameAction): Played<K> {
  const { kind, t, game, state } = p;
  return { kind, t, game, state: engineFor(kind).apply(game.setup, state, action) };
}

/** The table's next game, started with the actions sent with it (all or nothing). */
export function started<K extends TableKind>(next: NextGame<K>, clubId: string, dto: StartGameDto, now: Date): Played<K> {
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

/** What a decision of the table's engine needs (`Needs`), read before the command's writes. */
export async function readFor(tables: TablesRepository, tx: Reads, t: { clubId: string; id: string }, needs: Needs): Promise<Read> {
  const history = needs.history ? await tables.finishedGames(tx, t.clubId, t.id) : [];
  const finishedCount = needs.finishedCount ? await tables.finishedGameCount(tx, t.clubId, t.id) : 0;
  return { history, finishedCount };
}

const MATCH_ROWS: { [P in TableKind]: (t: TableRow<P>) => MatchTableRow | null } = { match: (t) => t, money: () => null, chouette: () => null };

/** The table as a match, or null at another kind (a match's end is rated and followed by its hooks). */
export function matchRowOf<K extends TableKind>(kind: K, t: TableRow<K>): MatchTableRow | null {
  const of: (t: TableRow<K>) => MatchTableRow | null = MATCH_ROWS[kind];
  return of(t);
}

/** A table's own stake (a match's, R3.8), in minor units. */
export function stakeOf(t: { stakeMinor: string | null }): number | null {
  return t.stakeMinor === null ? null : minorFromDb(t.stakeMinor);
}

/** A ledger entry as the domain's decisions read it. */
export function postedOf(e: LedgerEntryEntity): PostedEntry {
  return { from: e.fromParty, to: e.toParty, amountMinor: minorFromDb(e.amountMinor), kind: e.kind };
}

/** A game as answered, its state replayed and its ledger entries. */
export function gameDto(g: StoredGame, played: KindState, entries: LedgerEntryEntity[]): GameDto {
  const { state } = played;
  const shown = shownOf(played);
  return {
    gameNo: g.gameNo,
    variant: gameVariantOf(g),
    status: g.status,
    crawford: shown.crawford,
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
    points: shown.points,
    winnerSide: shown.winnerSide,
    payouts: entries.map((e) => ({ from: e.fromParty, to: e.toParty, amountMinor: minorFromDb(e.amountMinor), kind: e.kind })),
    startedAt: g.startedAt.toISOString(),
    endedAt: isoOrNull(g.endedAt),
    voided: g.voidedAt ? { at: g.voidedAt.toISOString(), reason: g.voidReason ?? '', by: g.voidedBy ?? '' } : null,
    version: g.version,
  };
}

function shownOf<K extends TableKind>(played: KindState<K>) {
  const { kind, state } = played;
  return engineFor(kind).shown(state);
}

/**
 * A command's events in their order: its game's (`events`), then `table.updated` when the
 * table changed (`view` read: the table as saved, its games with this one as it now is,
 * its nets with what was just posted), then `rating.changed` for each player rated, then
 * what followed a match's end (`after`: a tournament's draw).
 */
export function commandEvents(
  t: StoredTable,
  game: StoredGame,
  view: TableView | null,
  posted: LedgerEntryEntity[],
  events: NewEvent[],
  rating?: RatingChange | null,
  after: NewEvent[] = [],
): NewEvent[] {
  if (view) {
    const games = gamesWith(view.games, gameSummary(game));
    const data = tableView(t, { games, nets: netsWith(view.nets, posted), players: view.players, currency: view.currency }, game.status === 'in-progress' ? game : null);
    events.push(tableUpdated(t, data, game.gameNo));
  }
  if (rating) events.push(...ratingEvents(t.sessionId, rating));
  events.push(...after);
  return events;
}
