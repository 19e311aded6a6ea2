/**
 * The events of tables and games (the HTTP contract, "Events: live updates and
 * webhooks"), built from what a command answers: a table's event carries the table as
 * its route answers it, a game's event the game as its route answers it plus where it is
 * (`tableId`, `tableKind`). Pure.
 */
import type { ChouetteSeats } from '../domain/chouette';
import { TABLE_KIND_NAMES, type RouteKind } from '../domain/table-kinds';
import type { EventType, NewEvent } from '../outbox/event-types';
import type { LedgerEntryEntity } from '../ledger';
import { chouetteSeatsShown } from './engines';
import type { StoredGame, StoredTable, TableKind } from './stored-state';
import type { GameDto, GameSummaryDto } from './tables.dto';

export type { RouteKind };

/** A table's kind as its route names it (and as events name the subject). */
export const ROUTE_KINDS: Record<TableKind, RouteKind> = { match: TABLE_KIND_NAMES.match.route, money: TABLE_KIND_NAMES.money.route, chouette: TABLE_KIND_NAMES.chouette.route };

/** A game as its events carry it: the game as answered, and its table. */
export type GameEventData = GameDto & { tableId: string; tableKind: RouteKind };

export function tableEvent(type: Extract<EventType, 'table.created' | 'table.updated'>, t: StoredTable, data: unknown): NewEvent {
  return { type, sessionId: t.sessionId, subject: { kind: ROUTE_KINDS[t.kind], id: t.id }, data };
}

/**
 * `table.updated`: the table as its route answers it, but for its `games`, which list only
 * the game the change concerns (`gameNo`; none for a change between games: seats, a
 * penalty, a forfeit). The event stays the same size however long the table's history;
 * GET the table for every game.
 */
export function tableUpdated<T extends { games: GameSummaryDto[] }>(t: StoredTable, data: T, gameNo: number | null): NewEvent {
  return tableEvent('table.updated', t, { ...data, games: data.games.filter((g) => g.gameNo === gameNo) });
}

/** The events of one game command, in order, all carrying the game as it is after the command. */
export function gameEvents(types: Array<Extract<EventType, `game.${string}`>>, t: StoredTable, game: GameDto): NewEvent[] {
  const data: GameEventData = { ...game, tableId: t.id, tableKind: ROUTE_KINDS[t.kind] };
  const subject = { kind: 'game' as const, id: `${t.id}/games/${game.gameNo}` };
  return types.map((type) => ({ type, sessionId: t.sessionId, subject, data }));
}

/**
 * What a client sees change of a table when a game command touches it: its status and,
 * at a chouette, the seats it shows (the seats of the game in progress, else the
 * table's: R5.7 rotation, R5.9 partner, R6.3 seats restored). A command whose face of
 * the table is unchanged announces only its game (a new score or net is in the game's
 * events); one that changes it announces `table.updated` too.
 *
 * `current`: the game in progress at the table, or null between games.
 */
export function tableFace(t: StoredTable, current: StoredGame | null): string {
  if (t.kind !== 'chouette') return t.status;
  const shown: ChouetteSeats = chouetteSeatsShown(t.state, current && current.gameNo === t.currentGameNo && 'seatsAtStart' in current.setup ? current.setup : null);
  return JSON.stringify([t.status, shown.box, shown.partner, shown.line]);
}

/** Each party's net at the table once `entries` are posted (nets: as read before). */
export function netsWith(nets: Map<string, number>, entries: LedgerEntryEntity[]): Map<string, number> {
  const after = new Map(nets);
  for (const e of entries) {
    const amount = Number(e.amountMinor);
    after.set(e.toParty, (after.get(e.toParty) ?? 0) + amount);
    after.set(e.fromParty, (after.get(e.fromParty) ?? 0) - amount);
  }
  return after;
}

/** The table's games with `game` as it now is (replacing the one of its number, or added at the end). */
export function gamesWith(games: GameSummaryDto[], game: GameSummaryDto): GameSummaryDto[] {
  const at = games.findIndex((g) => g.gameNo === game.gameNo);
  if (at < 0) return [...games, game];
  return games.map((g, i) => (i === at ? game : g));
}
