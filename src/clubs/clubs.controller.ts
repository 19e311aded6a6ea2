import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole, OperatorOnly } from '../common/auth';
import { ApiProblem } from '../common/openapi';
import { ListQuery, PAGE_LIMIT, PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { ApiKeyDto, ClubDto, CreateApiKeyDto, CreateClubDto, CreatedApiKeyDto, CreatedClubDto, UpdateClubDto } from './clubs.dto';
import { ClubsService } from './clubs.service';

const ApiKeyPage = PageOf(ApiKeyDto);

@ApiTags('Clubs and keys')
@Controller('v1')
export class ClubsController {
  constructor(private readonly clubs: ClubsService) {}

  @Post('clubs')
  @OperatorOnly()
  @ApiOperation({ operationId: 'createClub', summary: 'Create a club (operator token)', description: 'Answers the club and its first API key (role owner). The token is shown only here.' })
  @ApiBody({
    type: CreateClubDto,
    examples: {
      club: { summary: 'A club in Berlin that keeps its money in euros', value: { name: 'Riverside Backgammon Club', currency: 'EUR', timezone: 'Europe/Berlin' } },
      nameOnly: { summary: 'A name only: USD and UTC', value: { name: 'Harbour Backgammon Society' } },
    },
  })
  @ApiCreatedResponse({ type: CreatedClubDto })
  create(@Command() cmd: CommandContext, @Body() dto: CreateClubDto) {
    return this.clubs.create(cmd, dto);
  }

  @Get('club')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'getClub', summary: 'The club of the calling key' })
  @ApiOkResponse({ type: ClubDto })
  get(@ClubKey() auth: KeyAuth) {
    return this.clubs.get(auth);
  }

  @Patch('club')
  @MinRole('owner')
  @ApiOperation({ operationId: 'updateClub', summary: 'Change the club (name, default currency, time zone)' })
  @ApiBody({
    type: UpdateClubDto,
    examples: {
      rename: { summary: 'A new name', value: { name: 'Riverside Backgammon & Tavla Club' } },
      move: { summary: 'Another time zone and currency for new sessions', value: { currency: 'CHF', timezone: 'Europe/Zurich' } },
    },
  })
  @ApiOkResponse({ type: ClubDto })
  @ApiProblem(412, 'If-Match does not name the current version (VERSION_MISMATCH).')
  update(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: UpdateClubDto) {
    return this.clubs.update(cmd, auth, ifMatch, dto);
  }

  @Post('api-keys')
  @MinRole('owner')
  @ApiOperation({ operationId: 'createApiKey', summary: 'Create an API key', description: 'The token is shown only in this answer; only its hash is stored.' })
  @ApiBody({
    type: CreateApiKeyDto,
    examples: {
      scorer: { summary: "A scorer's key for the tablet at table 3", value: { name: 'Scorer tablet, table 3', role: 'scorer' } },
      viewer: { summary: 'A read-only key for the scoreboard screen', value: { name: 'Scoreboard screen', role: 'viewer' } },
    },
  })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  createKey(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateApiKeyDto) {
    return this.clubs.createKey(cmd, auth, dto);
  }

  @Get('api-keys')
  @MinRole('owner')
  @ApiOperation({ operationId: 'listApiKeys', summary: "List the club's API keys (never their tokens)" })
  @ApiOkResponse({ type: ApiKeyPage })
  listKeys(@ClubKey() auth: KeyAuth, @Query() q: ListQuery) {
    return this.clubs.listKeys(auth, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }

  @Delete('api-keys/:id')
  @MinRole('owner')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key, at once' })
  @ApiNoContentResponse({ description: 'Revoked (also when it already was).' })
  @ApiProblem(404, 'No such key in this club (NOT_FOUND).')
  @ApiProblem(422, "The club's last working owner key (LAST_OWNER_KEY).")
  revokeKey(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('API key')) id: string) {
    return this.clubs.revokeKey(cmd, auth, id);
  }
}
