import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ApiProblem, ApiRefusals } from '../common/openapi';
import { PAGE_LIMIT, PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { CreateSessionDto, SessionDto, SessionListQuery, UpdateSessionDto } from './sessions.dto';
import { SessionsService } from './sessions.service';

const SessionPage = PageOf(SessionDto);
const id = () => Param('id', new UuidParam('Session'));

@ApiTags('Sessions')
@Controller('v1/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post()
  @ApiRefusals('INVALID_RAKE_PERCENT')
  @MinRole('scorer')
  @ApiOperation({ operationId: 'createSession', summary: 'Open a session (a club meeting, R6.1)' })
  @ApiBody({
    type: CreateSessionDto,
    examples: {
      clubNight: {
        summary: 'Tuesday club night in euros, with a 2.5 % rake (R6.4)',
        value: { name: 'Tuesday club night', currency: 'EUR', startsAt: '2026-03-03T19:00:00+01:00', rakePercent: 2.5 },
      },
      nameOnly: { summary: "A name only: the club's currency, no rake", value: { name: 'Friday friendly' } },
    },
  })
  @ApiCreatedResponse({ type: SessionDto })
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateSessionDto) {
    return this.sessions.create(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listSessions', summary: 'List sessions, oldest first' })
  @ApiOkResponse({ type: SessionPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: SessionListQuery) {
    return this.sessions.list(auth, q.status, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'getSession', summary: 'One session' })
  @ApiOkResponse({ type: SessionDto })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  get(@ClubKey() auth: KeyAuth, @id() sessionId: string) {
    return this.sessions.get(auth, sessionId);
  }

  @Patch(':id')
  @ApiRefusals('INVALID_RAKE_PERCENT', 'SESSION_CLOSED')
  @MinRole('scorer')
  @ApiOperation({ operationId: 'updateSession', summary: 'Change a session (If-Match honoured)' })
  @ApiBody({
    type: UpdateSessionDto,
    examples: {
      rake: { summary: 'A 5 % rake for the games finished from now on (R6.4)', value: { rakePercent: 5 } },
      later: { summary: 'Starts half an hour later, under another name', value: { name: 'Tuesday club night (late start)', startsAt: '2026-03-03T19:30:00+01:00' } },
    },
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  @ApiProblem(412, 'If-Match does not name the current version (VERSION_MISMATCH).')
  @ApiProblem(422, 'The rake of a closed session (SESSION_CLOSED, R6.7).')
  update(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() sessionId: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: UpdateSessionDto) {
    return this.sessions.update(cmd, auth, sessionId, ifMatch, dto);
  }

  @Post(':id/close')
  @ApiRefusals('GAMES_IN_PROGRESS')
  @HttpCode(200)
  @MinRole('scorer')
  @ApiOperation({ operationId: 'closeSession', summary: 'Close the session (R6.7)', description: 'Refused while a game is unfinished. Closing a closed session answers it unchanged.' })
  @ApiOkResponse({ type: SessionDto })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  @ApiProblem(422, 'A game is still in progress (GAMES_IN_PROGRESS, R6.7).')
  close(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() sessionId: string) {
    return this.sessions.close(cmd, auth, sessionId);
  }
}
