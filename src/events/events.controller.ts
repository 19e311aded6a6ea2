import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/api-error';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { negotiate } from '../common/negotiate';
import { ApiProblem } from '../common/openapi';
import { EventPageDto, EventsQuery, EventStreamQuery } from './events.dto';
import { EventsService } from './events.service';

const BAD_QUERY =
  'A query field of the wrong form or unknown (VALIDATION_FAILED), an id that is not an event id (INVALID_EVENT_ID), or `types` naming something that is not an event type (INVALID_EVENT_TYPE).';

const FRAMES = [
  'Server-sent events (`text/event-stream`). The stream opens with `retry: 1000` and, when it starts at "now" (no `Last-Event-ID`), an `id:` line alone: the place it starts from, which a client that reconnects before any event resumes from (EventSource keeps it; no event is dispatched).',
  'Then each event of the club, oldest first, as one frame:',
  '',
  '```',
  'id: <event id>',
  'event: <type>',
  'data: <the event as JSON, on one line: the same object as an item of GET /v1/events>',
  '',
  '```',
  '',
  'A comment line (`: keep-alive`) comes at least every 15 s, so proxies keep the connection open.',
  '',
  'Without `Last-Event-ID` (header, or `lastEventId` in the query) the stream starts at "now": with every event of a transaction still running or yet to start, none already readable. With it, the stream resumes after that event, nothing lost, from any instance: it catches up page by page, then follows live.',
  '',
  'A client that leaves too much untaken (1 MiB by default) is dropped: the stream ends, and the client resumes with `Last-Event-ID`. Streams also end when the instance stops or the API key is revoked.',
].join('\n');

@ApiTags('Events')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'listEvents',
    summary: "The club's events after a place in the log, oldest first",
    description:
      'Every change a client could show is an event, written in the transaction of the change. A page holds only events that can no longer be preceded by another: resuming with `after` = `nextCursor` never misses one, even one whose transaction committed after a later-numbered one. Events are kept at least 30 days.',
  })
  @ApiOkResponse({ type: EventPageDto })
  @ApiProblem(400, BAD_QUERY)
  list(@ClubKey() auth: KeyAuth, @Query() q: EventsQuery) {
    return this.events.page(auth, q);
  }

  @Get('stream')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'streamEvents', summary: "The club's events, live (server-sent events)", description: FRAMES })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received: the stream resumes after it. Sent by EventSource when it reconnects.' })
  @ApiResponse({
    status: 200,
    description: 'The stream (see the description for its frames).',
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          example:
            'retry: 1000\n\nid: 00000000000002f1000000000000003c\nevent: player.created\ndata: {"id":"00000000000002f1000000000000003c","type":"player.created",…}\n\n: keep-alive\n\n',
        },
      },
    },
  })
  @ApiProblem(400, BAD_QUERY)
  @ApiProblem(406, 'Accept does not admit text/event-stream (NOT_ACCEPTABLE).')
  @ApiProblem(
    429,
    'The club has as many streams open on this instance as it may (TOO_MANY_STREAMS); or too many requests for this API key, or too many failed authentications from this address (RATE_LIMITED). See Retry-After.',
  )
  @ApiProblem(
    503,
    'This instance serves as many streams as it can, or is stopping (STREAMS_AT_CAPACITY); or the database is unavailable or too busy (DATABASE_UNAVAILABLE, DATABASE_BUSY). See Retry-After.',
  )
  async stream(
    @ClubKey() auth: KeyAuth,
    @Query() q: EventStreamQuery,
    @Headers('accept') accept: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    if (!negotiate(accept, ['text/event-stream'])) {
      throw new ApiError(ErrorCode.NOT_ACCEPTABLE, 'The event stream is text/event-stream; Accept does not admit it.');
    }
    await this.events.openStream(auth, q, lastEventId, reply);
  }
}
