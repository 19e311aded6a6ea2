import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { notFound } from '../common/api-error';
import { setBounded } from '../common/bounded-map';
import { KeyAuth, newApiToken, parseApiToken, secretMatches } from '../common/auth';
import { CommandContext } from '../common/command';
import { decodeCursor, Page, toPage } from '../common/pagination';
import { uuid7 } from '../common/uuid';
import { Commands } from '../commands/commands.service';
import { ClubsRepository } from '../clubs';
import { Db } from '../db/db.service';
import type { Reads } from '../db/tx';
import { EventsRepository, EventsService, positionOf } from '../events';
import { ApiKeyCache } from '../guards';
import { encodeEventId } from '../outbox/event-id';
import type { ClubEvent, EventType } from '../outbox/event-types';
import { playerNames } from '../players';
import { StandingsService } from '../standings';
import { ChouettesService, GameDto, GamesService, TablesService } from '../tables';
import { TournamentsService } from '../tournaments';
import { BOARD_RESULTS, BOARD_TABLES, boardLinkView, boardPlayerIds, boardView } from './board-view';
import { BoardDto, BoardLinkDto, BoardStreamQuery, CreateBoardDto, CreatedBoardLinkDto } from './boards.dto';
import { BoardLinkRow, BoardsRepository } from './boards.repository';

/** The events a board shows: what changes its tables, games, bracket, standings and names. */
export const BOARD_EVENT_TYPES: readonly EventType[] = [
  'table.created',
  'table.updated',
  'game.started',
  'game.action',
  'game.finished',
  'game.voided',
  'game.abandoned',
  'tournament.created',
  'tournament.updated',
  'session.updated',
  'session.closed',
  'player.updated',
];

/**
 * A board's frame: which event, of what, and nothing of its data (payments' notes, ratings,
 * anything else the board does not show never reach a board's token); the page reads the
 * board again, from the event's place on.
 */
export function boardFrame(e: ClubEvent): string {
  return `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify({ id: e.id, type: e.type, subject: e.subject })}\n\n`;
}

/** How long a board's answer is served again to boards that have seen no later event, and how many are kept. */
const SHARED_MS = 1000;
const SHARED_MAX = 1000;
/**
 * How often a scope's board is read when its screens keep asking (a flood of games): one
 * read per READ_GAP_MS, after a burst of READ_BURST (a token bucket). A quiet board's read
 * begins at once; under a flood its screens see the board a little later, and the database
 * reads it once for them all.
 */
const READ_GAP_MS = 2000;
const READ_BURST = 2;
/** Board links kept in memory (what a link shows never changes; a revoked one is refused by the guard before it gets here). */
const LINKS_MAX = 5000;

type BoardAnswer = Omit<BoardDto, 'board'>;

/** A read of a board's scope, shared by every screen it serves. */
class Shared {
  at = Date.now();
  /** The place in the log it reflects; null until its read has begun (a screen's `since` is then surely behind it). */
  asOf: string | null = null;
  /** The answer as JSON, written once for every screen it serves. */
  json: Promise<string> | null = null;
  /** The read that follows this one, for screens that have seen events after this one's place. */
  next: Shared | null = null;
  readonly answer: Promise<BoardAnswer>;

  /** `read` starts at once, given this entry. */
  constructor(read: (entry: Shared) => Promise<BoardAnswer>) {
    this.answer = read(this);
  }
}

/**
 * Board links (an API key of role `board` and what its board shows) and the board itself:
 * one answer with the tables in play, the tournament, the standings and the latest results,
 * and a stream that says when to read it again.
 *
 * Boards on the same session share their answers: one read serves every board that has
 * seen no event after it (`since`), so a room of screens woken by one event costs one read
 * per instance, not one per screen. Nothing kept here is needed by another instance.
 */
@Injectable()
export class BoardsService {
  private readonly shared = new Map<string, Shared>();
  private readonly links = new Map<string, BoardLinkRow>();
  /** Per scope: the reads it may begin now (READ_BURST at most), as of `at`. */
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly commands: Commands,
    private readonly repo: BoardsRepository,
    private readonly clubs: ClubsRepository,
    private readonly keyCache: ApiKeyCache,
    private readonly events: EventsRepository,
    private readonly streams: EventsService,
    private readonly tables: TablesService,
    private readonly chouettes: ChouettesService,
    private readonly games: GamesService,
    private readonly tournaments: TournamentsService,
    private readonly standings: StandingsService,
  ) {}

  /** A new link, answered with its token and page (shown only here). */
  create(cmd: CommandContext, auth: KeyAuth, dto: CreateBoardDto, origin: string | null): Promise<CreatedBoardLinkDto> {
    return this.commands.run(cmd, async (tx) => {
      const sessionId = dto.sessionId?.toLowerCase() ?? null;
      const tournamentId = dto.tournamentId?.toLowerCase() ?? null;
      if (sessionId !== null && !(await this.repo.exists(tx, 'sessions', auth.clubId, sessionId))) throw notFound('Session');
      if (tournamentId !== null && !(await this.repo.exists(tx, 'tournaments', auth.clubId, tournamentId))) throw notFound('Tournament');
      const id = uuid7();
      const { token, secretHash, hint } = newApiToken(auth.clubId, id);
      const link: BoardLinkRow = { clubId: auth.clubId, id, name: dto.name, sessionId, tournamentId, hint, createdAt: new Date(), revokedAt: null };
      this.repo.insert(tx, link, secretHash);
      const path = `/board/${token}`;
      return { ...boardLinkView(link), token, path, url: origin === null ? path : `${origin}${path}` };
    });
  }

  async list(auth: KeyAuth, limit: number, cursor?: string): Promise<Page<BoardLinkDto>> {
    const after = decodeCursor(cursor, ['string']);
    const rows = await this.repo.list(this.db.once, auth.clubId, (after?.[0] as string) ?? null, limit);
    return toPage(rows, limit, (l) => [l.id], boardLinkView);
  }

  async get(auth: KeyAuth, id: string): Promise<BoardLinkDto> {
    const link = await this.repo.find(this.db.once, auth.clubId, id);
    if (!link) throw notFound('Board link');
    return boardLinkView(link);
  }

  /** Revokes at once: the page and every open stream of the link stop (streams within seconds, on every instance). */
  async revoke(cmd: CommandContext, auth: KeyAuth, id: string): Promise<void> {
    try {
      await this.commands.run(cmd, async (tx) => {
        const link = await this.repo.lock(tx, auth.clubId, id);
        if (!link) throw notFound('Board link');
        if (link.revokedAt === null) await this.repo.revoke(tx, auth.clubId, id);
        return null;
      });
    } finally {
      // Committed, or answered again: both caches drop it (whatever the outcome: it costs one read at most).
      this.keyCache.forget(auth.clubId, id);
      this.links.delete(`${auth.clubId}/${id}`);
    }
  }

  /** Whether a token is a working board link (the page's own check: the page itself holds no data). */
  async pageToken(token: string): Promise<boolean> {
    const parsed = parseApiToken(token);
    if (!parsed) return false;
    const key = await this.keyCache.get(parsed.clubId, parsed.keyId);
    return key !== null && key.role === 'board' && key.revokedAt === null && secretMatches(parsed.secret, key.secretHash);
  }

  /**
   * The board of the calling link as JSON; `since`: the last event the board has seen (an
   * answer reflecting it is served). The scope's part is serialised once for all its screens.
   */
  async board(auth: KeyAuth, since: string | undefined): Promise<string> {
    if (since !== undefined) positionOf(since, 'since');
    const link = await this.link(auth);
    const scope = `${auth.clubId}|${link.sessionId ?? ''}|${link.tournamentId ?? ''}`;
    const entry = this.answerFor(scope, since, (asOf) => this.read(auth, link, asOf));
    const json = await (entry.json ??= entry.answer.then((a) => JSON.stringify(a)));
    return `{"board":${JSON.stringify(boardLinkView(link))},${json.slice(1)}`;
  }

  /** The calling link (kept in memory: a link's session, tournament and name never change). */
  private async link(auth: KeyAuth): Promise<BoardLinkRow> {
    const key = `${auth.clubId}/${auth.keyId}`;
    const kept = this.links.get(key);
    if (kept) return kept;
    const link = await this.repo.find(this.db.once, auth.clubId, auth.keyId);
    if (!link) throw notFound('Board link');
    setBounded(this.links, key, link, LINKS_MAX);
    return link;
  }

  /**
   * The scope's answer for a screen that has seen the log up to `since`: the read under
   * way or the last one when it reflects that (or, without `since`, is under a second
   * old); else the next read. One read of a scope at a time, READ_GAP_MS apart: screens
   * that have seen more than the last read wait for the one after it, which serves them all.
   */
  private answerFor(scope: string, since: string | undefined, read: (asOf: string) => Promise<BoardAnswer>): Shared {
    const entry = this.shared.get(scope);
    if (entry && (entry.asOf === null || (since !== undefined ? entry.asOf > since : Date.now() - entry.at < SHARED_MS))) return entry;
    if (entry) return (entry.next ??= this.startRead(scope, read, entry));
    return this.startRead(scope, read, null);
  }

  /**
   * Takes one of the scope's reads and answers 0, or answers how long until one is there
   * (taking nothing). The bucket fills by one read per READ_GAP_MS, to READ_BURST.
   */
  private takeRead(scope: string): number {
    const now = Date.now();
    const b = this.buckets.get(scope) ?? { tokens: READ_BURST, at: now };
    const tokens = Math.min(READ_BURST, b.tokens + (now - b.at) / READ_GAP_MS);
    if (tokens < 1) return Math.ceil((1 - tokens) * READ_GAP_MS);
    setBounded(this.buckets, scope, { tokens: tokens - 1, at: now }, SHARED_MAX);
    return 0;
  }

  /** A shared read of the scope, begun now or, after `prev`, once it has settled and the scope may read again (takeRead). */
  private startRead(scope: string, read: (asOf: string) => Promise<BoardAnswer>, prev: Shared | null): Shared {
    const entry = new Shared(async (self) => {
      if (prev) {
        await prev.answer.catch(() => undefined);
        const wait = this.takeRead(scope);
        if (wait > 0) {
          await new Promise((r) => setTimeout(r, wait));
          this.takeRead(scope);
        }
        setBounded(this.shared, scope, self, SHARED_MAX);
      } else {
        this.takeRead(scope);
      }
      self.at = Date.now();
      self.asOf = encodeEventId(await this.events.horizon(this.db.once));
      return read(self.asOf);
    });
    entry.answer.catch(() => this.shared.get(scope) === entry && this.shared.delete(scope));
    if (!prev) setBounded(this.shared, scope, entry, SHARED_MAX);
    return entry;
  }

  /** The board's stream (the token may be in the query: EventSource sends no header). */
  async stream(auth: KeyAuth, q: BoardStreamQuery, lastEventId: string | undefined, reply: FastifyReply): Promise<void> {
    const resumeFrom = lastEventId !== undefined ? positionOf(lastEventId, 'Last-Event-ID') : q.lastEventId !== undefined ? positionOf(q.lastEventId, 'lastEventId') : null;
    const link = await this.link(auth);
    // A session's board follows its session; one with a tournament follows the club (the tournament may have no session).
    const sessionId = link.tournamentId === null ? link.sessionId : null;
    await this.streams.openBoardStream(auth, { types: BOARD_EVENT_TYPES, sessionId }, resumeFrom, reply, boardFrame);
  }

  /** Everything the board shows, read as of `asOf` or later. */
  private async read(auth: KeyAuth, link: BoardLinkRow, asOf: string): Promise<Omit<BoardDto, 'board'>> {
    // The views are the API's own, read as a viewer of the club would read them.
    const viewer: KeyAuth = { ...auth, role: 'viewer' };
    const q = { sessionId: link.sessionId ?? undefined, status: 'in-progress' as const, limit: BOARD_TABLES };
    const [matches, moneyGames, chouettes] = await Promise.all([this.tables.listMatches(viewer, q), this.tables.listMoneyGames(viewer, q), this.chouettes.list(viewer, q)]);
    const current = new Map<string, GameDto>();
    const inPlay = [
      ...matches.items.map((t) => ['match', t.id, t.currentGameNo] as const),
      ...moneyGames.items.map((t) => ['money', t.id, t.currentGameNo] as const),
      ...chouettes.items.map((t) => ['chouette', t.id, t.currentGameNo] as const),
    ].slice(0, BOARD_TABLES);
    await Promise.all(
      inPlay.map(async ([kind, id, gameNo]) => {
        if (gameNo !== null) current.set(id, await this.games.get(viewer, kind, id, gameNo));
      }),
    );
    const tournament = link.tournamentId ? await this.tournaments.get(viewer, link.tournamentId) : null;
    const standings = link.sessionId ? await this.standings.standings(viewer, link.sessionId) : null;
    const results = await this.repo.latestResults(this.db.once, auth.clubId, link.sessionId, BOARD_RESULTS);
    const parts = { matches: matches.items, moneyGames: moneyGames.items, chouettes: chouettes.items, current, tournament, standings, results };
    const names = await this.names(this.db.once, auth.clubId, boardPlayerIds(parts));
    const club = await this.clubs.find(this.db.once, auth.clubId);
    const { board: _board, ...view } = boardView({ ...parts, link, clubName: club?.name ?? '', asOf, names });
    return view;
  }

  private names(tx: Reads, clubId: string, ids: string[]): Promise<Map<string, string>> {
    return ids.length === 0 ? Promise.resolve(new Map<string, string>()) : playerNames(tx, clubId, ids);
  }
}
