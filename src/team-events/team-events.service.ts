import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { KeyAuth } from '../common/auth';
import { CommandContext } from '../common/command';
import { decodeCursor, Page, PAGE_LIMIT, toPage } from '../common/pagination';
import { uuid7 } from '../common/uuid';
import { Commands } from '../commands/commands.service';
import { Db } from '../db/db.service';
import type { Reads } from '../db/tx';
import { variantOfSetup } from '../domain/game-variants';
import { assertStakeHasSession } from '../domain/session';
import { scoreTeamEvent, teamBoards } from '../domain/team-event';
import { minorFromDb } from '../ledger';
import { Outbox } from '../outbox/outbox';
import { assertPlayersInClub, matchEnd, matchView, newMatchSetup, newTableRow, scoreOf, SessionGate, standingForfeit, standingPenalties, tableEvent, TablesRepository } from '../tables';
import { TeamEventEntity } from './team-event.entity';
import { CreateTeamEventDto, TeamEventBoardDto, TeamEventDto, TeamEventListQuery } from './team-events.dto';
import { BoardGameRow, BoardRow, TeamEventRow, TeamEventsRepository } from './team-events.repository';

const latest = (times: Array<Date | string | null>): Date | null => {
  let max: Date | null = null;
  for (const t of times) {
    if (t === null) continue;
    const d = t instanceof Date ? t : new Date(t);
    if (max === null || d > max) max = d;
  }
  return max;
};

/**
 * Team events (R3.7): one command creates the event and one ordinary match per board;
 * the team score, status and winner are derived on every read from the board matches,
 * which scorers play through the match routes like any other.
 */
@Injectable()
export class TeamEventsService {
  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly events: TeamEventsRepository,
    private readonly tables: TablesRepository,
    private readonly sessions: SessionGate,
    private readonly outbox: Outbox,
  ) {}

  /** R3.7 (+ R3.1, R2.8, R3.8, R6.7 for every board, as POST /v1/matches checks them), all in one transaction. */
  create(cmd: CommandContext, auth: KeyAuth, dto: CreateTeamEventDto): Promise<TeamEventDto> {
    return this.commands.run(cmd, async (tx) => {
      const sides = teamBoards(dto.teams.map((t) => t.players));
      // R8: every board plays the event's variant; its match's setup carries it, as a match's does.
      const variant = dto.variant ?? 'backgammon';
      const setups = sides.map((s) => newMatchSetup({ sides: s, target: dto.target, rules: dto.rules as Record<string, unknown> | undefined, variant }));
      assertStakeHasSession('team event', dto.stakeMinor, dto.sessionId);
      const players = sides.flatMap(([a, b]) => [...a, ...b]);
      await assertPlayersInClub(tx, auth.clubId, players);
      const session = await this.sessions.openSession(tx, auth.clubId, dto.sessionId ?? null);
      const now = new Date();
      const stake = dto.stakeMinor ?? null;
      const event: TeamEventEntity = {
        clubId: auth.clubId,
        id: uuid7(),
        sessionId: session?.id ?? null,
        name: dto.name ?? null,
        target: setups[0].target,
        stakeMinor: stake === null ? null : String(stake),
        teams: dto.teams.map((t) => ({ name: t.name, players: [...t.players] })),
        createdAt: now,
        version: 1,
      };
      // Built as POST /v1/matches builds a match: no penalties yet, the stake on the match itself (R3.8).
      const tables = setups.map((setup) => ({ setup, row: newTableRow(auth.clubId, 'match', session?.id ?? null, setup, { penalties: [] }, stake, now) }));
      // The new event's state is that of its new boards (no game played yet), with their
      // setup and state as a read of them would give them back; taken before the writes,
      // which may be deferred to the COMMIT.
      const stored = await this.events.asStored(
        tx,
        tables.map(({ row }) => ({ setup: row.setup, state: row.state })),
      );
      const boards: BoardRow[] = [];
      for (const [i, { setup, row }] of tables.entries()) {
        await this.tables.insert(tx, row, [...setup.sides[0], ...setup.sides[1]]);
        boards.push({ eventId: event.id, boardNo: i + 1, matchId: row.id, setup: stored[i].setup, state: stored[i].state, version: row.version });
      }
      this.events.insert(
        tx,
        event,
        boards.map((b) => ({ boardNo: b.boardNo, matchId: b.matchId })),
      );
      // The event itself has no event type; each of its boards is a new match like any other.
      this.outbox.emit(tx, auth.clubId, ...tables.map(({ row }) => tableEvent('table.created', row, matchView(row, [], session?.currency ?? null))));
      return this.stateOf({ ...event, currency: session?.currency ?? null }, boards, new Map());
    });
  }

  get(auth: KeyAuth, id: string): Promise<TeamEventDto> {
    return this.db.read(async (tx) => {
      const e = await this.events.find(tx, auth.clubId, id);
      if (!e) throw notFound('Team event');
      return (await this.states(tx, auth.clubId, [e]))[0];
    });
  }

  list(auth: KeyAuth, q: TeamEventListQuery): Promise<Page<TeamEventDto>> {
    const limit = q.limit ?? PAGE_LIMIT.default;
    const after = decodeCursor(q.cursor, ['string']);
    return this.db.read(async (tx) => {
      const rows = await this.events.list(tx, auth.clubId, { sessionId: q.sessionId }, (after?.[0] as string) ?? null, limit);
      const page = toPage(
        rows,
        limit,
        (e) => [e.id],
        (e) => e,
      );
      return { items: await this.states(tx, auth.clubId, page.items), nextCursor: page.nextCursor };
    });
  }

  /** The events' states, from their boards' matches (three queries whatever the number of events). */
  private async states(tx: Reads, clubId: string, events: TeamEventRow[]): Promise<TeamEventDto[]> {
    const boards = await this.events.boards(
      tx,
      clubId,
      events.map((e) => e.id),
    );
    const games = await this.events.finishedGames(
      tx,
      clubId,
      boards.map((b) => b.matchId),
    );
    const gamesOf = new Map<string, BoardGameRow[]>();
    for (const g of games) gamesOf.set(g.matchId, [...(gamesOf.get(g.matchId) ?? []), g]);
    return events.map((e) =>
      this.stateOf(
        e,
        boards.filter((b) => b.eventId === e.id),
        gamesOf,
      ),
    );
  }

  private stateOf(e: TeamEventRow, boards: BoardRow[], gamesOf: Map<string, BoardGameRow[]>): TeamEventDto {
    const boardDtos: TeamEventBoardDto[] = boards.map((b) => {
      const { setup } = b;
      const finished = gamesOf.get(b.matchId) ?? [];
      const s = scoreOf(setup, finished, b.state);
      // A match ends with the last event of its history: a game, a penalty or a forfeit (R3.2, R3.6, R3.9).
      const forfeit = standingForfeit(b.state);
      const adjustments = [...standingPenalties(b.state), ...(forfeit ? [forfeit] : [])];
      const endedAt = s.status === 'finished' ? latest([...finished.map((g) => g.endedAt), ...adjustments.map((p) => p.at)]) : null;
      return {
        boardNo: b.boardNo,
        matchId: b.matchId,
        players: [setup.sides[0][0], setup.sides[1][0]],
        score: [...s.score],
        status: s.status,
        winnerTeam: s.winnerSide,
        endedAt: endedAt?.toISOString() ?? null,
        endedBy: matchEnd(b, s),
      };
    });
    const ev = scoreTeamEvent(boardDtos.map((b) => ({ winnerSide: b.winnerTeam, endedAt: b.endedAt === null ? null : Date.parse(b.endedAt) })));
    const { rules } = boards[0].setup;
    return {
      id: e.id,
      name: e.name,
      sessionId: e.sessionId,
      target: e.target,
      variant: variantOfSetup(boards[0].setup),
      rules: { ...rules },
      stakeMinor: e.stakeMinor === null ? null : minorFromDb(e.stakeMinor),
      currency: e.currency,
      teams: e.teams.map((t) => ({ name: t.name, players: [...t.players] })),
      boards: boardDtos,
      score: [...ev.score],
      majority: ev.majority,
      status: ev.status,
      winnerTeam: ev.winnerTeam,
      decidedAt: ev.decidingBoard === null ? null : boardDtos[ev.decidingBoard].endedAt,
      // The event row never changes; its boards do: every change to a board match bumps its version.
      version: e.version + boards.reduce((n, b) => n + (b.version - 1), 0),
      createdAt: e.createdAt.toISOString(),
    };
  }
}
