import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/api-error';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { negotiate } from '../common/negotiate';
import { markReadSource, ReadHeaders, readSource } from '../common/read-source';
import { ApiProblem, MONEY_READ_422 } from '../common/openapi';
import { ListCsvQuery } from '../common/csv-query';
import { PAGE_LIMIT, PageOf } from '../common/pagination';
import { UuidParam } from '../common/validators';
import { renderSessionGamesCsv } from './session-games-csv';
import { SessionGameDto, StandingsDto } from './standings.dto';
import { StandingsService } from './standings.service';

const SessionGamePage = PageOf(SessionGameDto);
const sessionId = () => Param('id', new UuidParam('Session'));

const GAMES_TYPES = ['application/json', 'text/csv'] as const;

@ApiTags('Sessions')
@Controller('v1/sessions/:id')
export class StandingsController {
  constructor(private readonly standings: StandingsService) {}

  @Get('standings')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'getSessionStandings',
    summary: "The session's standings: players by money net, then games won (end-of-night board)",
    description:
      "Everyone in the session's settlement statement but the house, by net (highest first), then games won (most first), then name, then id. `rank` is a competition rank on (net, games won): exact ties share it (1, 2, 2, 4). Each line also has the player's finished matches won and lost, and of those how many were forfeits (R3.9); they do not change the order. Open or closed sessions.",
  })
  @ApiOkResponse({ type: StandingsDto })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  @ApiProblem(422, MONEY_READ_422)
  async get(@ClubKey() auth: KeyAuth, @sessionId() id: string, @Headers() headers: ReadHeaders, @Res({ passthrough: true }) reply: FastifyReply) {
    const source = readSource(headers);
    const standings = await this.standings.standings(auth, id, source);
    markReadSource(reply, source, false);
    return standings;
  }

  @Get('games')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'listSessionGames',
    summary: "The session's finished, voided and abandoned games, every table",
    description:
      "Tables in creation order, then game number; games in progress are left out. JSON by default, paged (`limit`, `cursor`). `Accept: text/csv` answers every game of the session at once (`limit` and `cursor` are ignored) as RFC 4180 CSV with CRLF line ends and one header row: `tableKind,tableId,gameNo,status,startedAt,endedAt,players,winnerSide,winners,result,resigned,endedBy,points,voidReason,playerIds,winnerIds,variant,checkersLeft,matchEndedBy,forfeitSide,forfeitReason` (names joined by ` / `, side 0 first; ids separated by a space; `startedAt` and `endedAt` RFC 3339 in the club's time zone with their offset, where the JSON has UTC; `?bom=1` puts a UTF-8 byte-order mark first). Text cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab, CR or `'`) get a leading `'`.",
  })
  @ApiExtraModels(SessionGamePage)
  @ApiProduces(...GAMES_TYPES)
  @ApiResponse({
    status: 200,
    description: 'A page of games, or every game as CSV.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(SessionGamePage) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiProblem(404, 'No such session in this club (NOT_FOUND).')
  @ApiProblem(406, 'Accept names neither application/json nor text/csv (NOT_ACCEPTABLE).')
  async games(@ClubKey() auth: KeyAuth, @sessionId() id: string, @Query() q: ListCsvQuery, @Headers() headers: ReadHeaders, @Res({ passthrough: true }) reply: FastifyReply) {
    const type = negotiate(headers.accept, GAMES_TYPES);
    if (!type) {
      throw new ApiError(ErrorCode.NOT_ACCEPTABLE, `The session's games are available as ${GAMES_TYPES.join(', ')}; Accept names none of them.`);
    }
    const source = readSource(headers);
    if (type === 'text/csv') {
      const { sessionId: sid, timeZone, rows } = await this.standings.gamesForCsv(auth, id, source);
      markReadSource(reply, source);
      reply.header('content-type', 'text/csv; charset=utf-8; header=present');
      reply.header('content-disposition', `attachment; filename="games-${sid}.csv"`);
      return renderSessionGamesCsv(rows, { timeZone, bom: q.bom === '1' });
    }
    const page = await this.standings.games(auth, id, q.limit ?? PAGE_LIMIT.default, q.cursor, source);
    markReadSource(reply, source);
    return page;
  }
}
