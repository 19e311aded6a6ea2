import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { BoardLinkOnly, ClubKey, KeyAuth, MinRole } from '../common/auth';
import type { CommandContext } from '../common/command';
import { ErrorCode } from '../common/error-codes';
import { EXAMPLE_ID } from '../common/example-ids';
import { negotiate } from '../common/negotiate';
import { ApiProblem } from '../common/openapi';
import { ListQuery, PAGE_LIMIT, PageOf } from '../common/pagination';
import { Command } from '../common/request';
import { UuidParam } from '../common/validators';
import { BoardDto, BoardLinkDto, BoardStreamQuery, CreateBoardDto, CreatedBoardLinkDto } from './boards.dto';
import { BoardsService } from './boards.service';

const BoardLinkPage = PageOf(BoardLinkDto);

export class BoardQuery {
  @ApiPropertyOptional({ description: 'The id of the last event the board has seen: the answer reflects it and every event before it.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  since?: string;
}

/** The origin a link's `url` names: this request's scheme and host (the path alone without a Host). */
function originOf(req: FastifyRequest): string | null {
  const host = req.headers.host;
  return typeof host === 'string' && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? `${req.protocol}://${host}` : null;
}

@ApiTags('Boards')
@Controller('v1/boards')
export class BoardsController {
  constructor(private readonly boards: BoardsService) {}

  @Post()
  @MinRole('owner')
  @ApiOperation({
    operationId: 'createBoard',
    summary: "Create a board link for the club's screen",
    description:
      'A read-only link to a live page (`url`) showing the tables in play, the tournament and the standings. Its token is shown only in this answer, only its hash is stored; it reads nothing but its board (every other route answers 403), and it may sit in a URL.',
  })
  @ApiBody({
    type: CreateBoardDto,
    examples: {
      session: { summary: "Tonight's session on the club room TV", value: { name: 'Club room TV', sessionId: EXAMPLE_ID.session } },
      tournament: { summary: 'A tournament bracket on the wall', value: { name: 'Bracket wall', tournamentId: EXAMPLE_ID.tournament } },
    },
  })
  @ApiCreatedResponse({ type: CreatedBoardLinkDto })
  @ApiProblem(404, 'No such session or tournament in this club (NOT_FOUND).')
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateBoardDto, @Req() req: FastifyRequest) {
    return this.boards.create(cmd, auth, dto, originOf(req));
  }

  @Get()
  @MinRole('owner')
  @ApiOperation({ operationId: 'listBoards', summary: "The club's board links (never their tokens)" })
  @ApiOkResponse({ type: BoardLinkPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: ListQuery) {
    return this.boards.list(auth, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }

  @Get(':id')
  @MinRole('owner')
  @ApiOperation({ operationId: 'getBoard', summary: 'One board link (never its token)' })
  @ApiOkResponse({ type: BoardLinkDto })
  @ApiProblem(404, 'No such board link in this club (NOT_FOUND).')
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Board link')) id: string) {
    return this.boards.get(auth, id);
  }

  @Delete(':id')
  @MinRole('owner')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeBoard', summary: 'Revoke a board link, at once', description: 'Its page says so, and its open streams end within seconds on every instance.' })
  @ApiNoContentResponse({ description: 'Revoked (also when it already was).' })
  @ApiProblem(404, 'No such board link in this club (NOT_FOUND).')
  revoke(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Board link')) id: string) {
    return this.boards.revoke(cmd, auth, id);
  }
}

@ApiTags('Boards')
@Controller('v1/board')
export class BoardController {
  constructor(private readonly boards: BoardsService) {}

  @Get()
  @BoardLinkOnly()
  @ApiOperation({
    operationId: 'getBoardView',
    summary: 'What the calling board link shows (a board link token only)',
    description:
      'The tables in play with their scores, Crawford game, cubes and chouette seats; the tournament bracket or Swiss standings; the session standings; the latest results (the latest games of its latest 200 tables). With `since`, the answer reflects at least that event. Boards on one session share one read: a read under way or just made serves every board it reflects; one that has seen more waits for the next, which begins at once on a quiet board and at most every 2 s while changes pour in.',
  })
  @ApiOkResponse({ type: BoardDto })
  @ApiProblem(400, 'A query field of the wrong form or unknown (VALIDATION_FAILED), or `since` not an event id (INVALID_EVENT_ID).')
  async view(@ClubKey() auth: KeyAuth, @Query() q: BoardQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const json = await this.boards.board(auth, q.since);
    reply.header('content-type', 'application/json; charset=utf-8');
    return json;
  }

  @Get('stream')
  @BoardLinkOnly()
  @ApiOperation({
    operationId: 'streamBoard',
    summary: "The board's changes, live (server-sent events; a board link token only)",
    description:
      "Server-sent events as GET /v1/events/stream, of the events a board shows (tables, games, tournaments, the session, players' names), each frame carrying only the event's `id`, `type` and `subject`: read the board again with `since` = that id. A frame stands for everything up to its event: the stream sends the latest event it has, at most one frame every 2 s (at once after a quiet spell). The token may be the `token` query parameter (EventSource sends no header); it is never logged. Resumes after `Last-Event-ID`. Ends within seconds when the link is revoked.",
  })
  @ApiProduces('text/event-stream')
  @ApiQuery({ name: 'token', required: false, description: "The board link's token (instead of the Authorization header)." })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received: the stream resumes after it.' })
  @ApiResponse({
    status: 200,
    description: 'The stream.',
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          example:
            'retry: 1000\n\nid: 00000000000002f1000000000000003c\nevent: game.finished\ndata: {"id":"00000000000002f1000000000000003c","type":"game.finished","subject":{"kind":"game","id":"…/games/3"}}\n\n',
        },
      },
    },
  })
  @ApiProblem(400, 'A query field of the wrong form or unknown (VALIDATION_FAILED), or an id that is not an event id (INVALID_EVENT_ID).')
  @ApiProblem(406, 'Accept does not admit text/event-stream (NOT_ACCEPTABLE).')
  @ApiProblem(429, 'The club has as many board streams open on this instance as it may (TOO_MANY_STREAMS); or too many requests (RATE_LIMITED). See Retry-After.')
  @ApiProblem(503, 'This instance serves as many streams as it can (STREAMS_AT_CAPACITY), or the database is unavailable (DATABASE_UNAVAILABLE). See Retry-After.')
  async stream(
    @ClubKey() auth: KeyAuth,
    @Query() q: BoardStreamQuery,
    @Headers('accept') accept: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    if (!negotiate(accept, ['text/event-stream'])) {
      throw new ApiError(ErrorCode.NOT_ACCEPTABLE, 'The board stream is text/event-stream; Accept does not admit it.');
    }
    await this.boards.stream(auth, q, lastEventId, reply);
  }
}
