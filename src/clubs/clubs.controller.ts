import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole, OperatorOnly } from '../common/auth';
import { ApiProblem } from '../common/openapi';
import { ListQuery, PageOf } from '../common/pagination';
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
  @ApiOperation({ summary: 'Create a club (operator token)', description: 'Answers the club and its first API key (role owner). The token is shown only here.' })
  @ApiCreatedResponse({ type: CreatedClubDto })
  create(@Command() cmd: CommandContext, @Body() dto: CreateClubDto) {
    return this.clubs.create(cmd, dto);
  }

  @Get('club')
  @MinRole('viewer')
  @ApiOperation({ summary: 'The club of the calling key' })
  @ApiOkResponse({ type: ClubDto })
  get(@ClubKey() auth: KeyAuth) {
    return this.clubs.get(auth);
  }

  @Patch('club')
  @MinRole('owner')
  @ApiOperation({ summary: 'Change the club (name, default currency, time zone)' })
  @ApiOkResponse({ type: ClubDto })
  @ApiProblem(412, 'If-Match does not name the current version (VERSION_MISMATCH).')
  update(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: UpdateClubDto) {
    return this.clubs.update(cmd, auth, ifMatch, dto);
  }

  @Post('api-keys')
  @MinRole('owner')
  @ApiOperation({ summary: 'Create an API key', description: 'The token is shown only in this answer; only its hash is stored.' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  createKey(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateApiKeyDto) {
    return this.clubs.createKey(cmd, auth, dto);
  }

  @Get('api-keys')
  @MinRole('owner')
  @ApiOperation({ summary: "List the club's API keys (never their tokens)" })
  @ApiOkResponse({ type: ApiKeyPage })
  listKeys(@ClubKey() auth: KeyAuth, @Query() q: ListQuery) {
    return this.clubs.listKeys(auth, q.limit ?? 50, q.cursor);
  }

  @Delete('api-keys/:id')
  @MinRole('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key, at once' })
  @ApiNoContentResponse({ description: 'Revoked (also when it already was).' })
  @ApiProblem(404, 'No such key in this club (NOT_FOUND).')
  @ApiProblem(422, "The club's last working owner key (LAST_OWNER_KEY).")
  revokeKey(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('API key')) id: string) {
    return this.clubs.revokeKey(cmd, auth, id);
  }
}
