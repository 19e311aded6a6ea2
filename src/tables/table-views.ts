/**
 * A table as its routes answer it (GET /v1/matches/{id}, /v1/money-games/{id},
 * /v1/chouettes/{id}), built from the row and what was read with it: its games, the nets
 * at the table, everyone who sat there, its session's currency. Pure: the GET routes,
 * the commands' answers and the events a command writes (`table.created`,
 * `table.updated`) share these, so an event carries what a GET would answer.
 */
import { clockAllowance } from '../domain/tournament';
import { isoOrNull } from '../common/dates';
import { seatedPlayers } from '../domain/chouette';
import { minorFromDb } from '../ledger';
import type { MatchScore } from '../domain/match';
import { chouetteSeatsShown, moneyPointsTotal, penaltiesOf, scoreOf, standingForfeit, standingPenalties } from './engines';
import type { ChouetteDto } from './chouette.dto';
import { ChouetteTableRow, decodeGame, gameVariantOf, isCrawfordGame, MatchTableRow, MoneyTableRow, StoredGame, StoredTable, TableKind } from './stored-state';
import type { GameSummaryDto, MatchDto, MatchEndDto, MoneyGameDto } from './tables.dto';

/** What a table's answer reads besides its row (`nets` and `players` only where its kind shows them). */
export interface TableView {
  /** Every game of the table, in order, as its table lists it. */
  games: GameSummaryDto[];
  /** Each party's net at the table (received − paid), voids included. */
  nets: Map<string, number>;
  /** Everyone who has sat at the table, by id. */
  players: string[];
  /** The session's currency (null for a table without a session). */
  currency: string | null;
}

/** A game as listed in its table's state. */
export function gameSummary(g: StoredGame): GameSummaryDto {
  return {
    gameNo: g.gameNo,
    variant: gameVariantOf(g),
    status: g.status,
    crawford: isCrawfordGame(g),
    result: (g.result as GameSummaryDto['result']) ?? null,
    points: g.points,
    winnerSide: (g.winnerSide ?? null) as 0 | 1 | null,
    startedAt: g.startedAt.toISOString(),
    endedAt: isoOrNull(g.endedAt),
  };
}

/** The match as answered, from its games and its session's currency. */
export function matchView(t: MatchTableRow, games: GameSummaryDto[], currency: string | null): MatchDto {
  const { setup } = t;
  // R8.3: a draw has no winner and scores nothing.
  const finished = games.filter((g) => g.status === 'finished' && g.winnerSide !== null).map((g) => ({ gameNo: g.gameNo, winnerSide: g.winnerSide as 0 | 1, points: g.points as number }));
  const score = scoreOf(setup, finished, t.state);
  let crawfordGameNo: number | null = null;
  if (score.crawfordGameIndex !== null) {
    if (score.crawfordGameIndex < score.games.length) crawfordGameNo = score.games[score.crawfordGameIndex].gameNo;
    // R3.2: a match that ended (by a penalty, R3.6) before its Crawford game was played has none.
    else if (score.status !== 'finished') crawfordGameNo = t.currentGameNo ?? t.nextGameNo;
  }
  return {
    id: t.id,
    sessionId: t.sessionId,
    sides: setup.sides,
    variant: setup.variant ?? 'backgammon',
    target: setup.target,
    rules: { ...setup.rules },
    score: [...score.score],
    status: score.status,
    winnerSide: score.winnerSide,
    crawfordGameNo,
    stakeMinor: t.stakeMinor === null ? null : minorFromDb(t.stakeMinor),
    currency,
    endedBy: matchEnd(t, score),
    scheduledAt: setup.scheduledAt ?? null,
    tournament: setup.tournament ? { ...setup.tournament } : null,
    clock: setup.tournament ? clockOf(setup.target, score.score) : null,
    penalties: penaltiesOf(t).map(({ voided, ...p }) => ({ ...p, voided: voided !== undefined, voidedBy: voided ? { ...voided } : null })),
    currentGameNo: t.currentGameNo,
    games,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** R9.7: the match's time allowance, for the whole match and for a clock brought in at this score. */
function clockOf(target: number, score: readonly number[]): { perPlayerMinutes: number; delaySeconds: number; fromNowMinutes: number } {
  const whole = clockAllowance(target);
  const now = clockAllowance(target, [score[0], score[1]]);
  return { perPlayerMinutes: whole.perPlayerMs / 60_000, delaySeconds: whole.delayMs / 1000, fromNowMinutes: now.perPlayerMs / 60_000 };
}

/**
 * R3.2, R3.9: how the match ended, as answered: by points, or a side's forfeit with its
 * reason (a forfeit by penalties, R3.6, dated by its last penalty).
 */
export function matchEnd(t: Pick<MatchTableRow, 'state'>, score: MatchScore): MatchEndDto | null {
  const end = score.endedBy;
  if (end === null) return null;
  if (end.kind === 'points') return { kind: 'points' };
  const forfeit = standingForfeit(t.state);
  if (forfeit) return { kind: 'forfeit', side: forfeit.side, reason: forfeit.reason, note: forfeit.note, at: forfeit.at };
  const penalties = standingPenalties(t.state);
  const last = penalties[penalties.length - 1];
  return { kind: 'forfeit', side: end.side, reason: end.reason, note: null, ...(last ? { at: last.at } : {}) };
}

/** The money game as answered, from its games, the nets at the table and its session's currency. */
export function moneyView(t: MoneyTableRow, games: GameSummaryDto[], nets: Map<string, number>, currency: string | null): MoneyGameDto {
  const { setup } = t;
  return {
    id: t.id,
    sessionId: t.sessionId as string,
    players: [...setup.players],
    stakeMinor: setup.stakeMinor,
    currency: currency as string,
    variant: setup.variant ?? 'backgammon',
    rules: { ...setup.rules, stopAtLead: setup.rules.stopAtLead ?? null },
    netMinor: Object.fromEntries(setup.players.map((p) => [p, nets.get(p) ?? 0])),
    pointsTotal: moneyPointsTotal(
      setup,
      games.filter((g) => g.status === 'finished').map((g) => ({ winnerSide: g.winnerSide, points: g.points })),
    ),
    status: t.status,
    currentGameNo: t.currentGameNo,
    games,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/**
 * The chouette as answered, from its games, the nets at the table, everyone who sat there
 * and its session's currency; `current`: its game in progress, if any (its seats are shown).
 */
export function chouetteView(t: ChouetteTableRow, view: TableView, current: StoredGame | null): ChouetteDto {
  const { setup } = t;
  const { games, nets } = view;
  const playing = current !== null && current.gameNo === t.currentGameNo ? decodeGame(current, t.kind).setup : null;
  const seats = chouetteSeatsShown(t.state, playing);
  const seated = seatedPlayers(seats);
  const everyone = [...seated, ...view.players.filter((p) => !seated.includes(p))];
  return {
    id: t.id,
    sessionId: t.sessionId as string,
    box: seats.box,
    partner: seats.partner,
    captain: seats.line.length ? seats.line[0] : null,
    team: [...seats.line],
    rules: { ...setup.rules },
    stakeMinor: setup.stakeMinor,
    stakes: setup.stakes.map((x) => ({ playerId: x.playerId, stakeMinor: x.stakeMinor })),
    currency: view.currency as string,
    players: everyone.map((playerId) => ({ playerId, netMinor: nets.get(playerId) ?? 0 })),
    status: t.status,
    currentGameNo: t.currentGameNo,
    games,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/**
 * Whether a kind's answer is derived from its games (a match's score, a money table's
 * points): a chouette's is not, so a command that announces it after a game need not read
 * its other games (its `table.updated` lists only the game concerned).
 */
export const answerDerivesFromGames = (kind: TableKind): boolean => kind !== 'chouette';

/** Any table as its route answers it (`current`: its game in progress, if any). */
export function tableView(t: StoredTable, view: TableView, current: StoredGame | null): MatchDto | MoneyGameDto | ChouetteDto {
  if (t.kind === 'match') return matchView(t, view.games, view.currency);
  if (t.kind === 'money') return moneyView(t, view.games, view.nets, view.currency);
  return chouetteView(t, view, current);
}
