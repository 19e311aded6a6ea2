import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ApiProblem, ApiRefusals, CHOUETTE_CREATION_REFUSALS, MONEY_READ_422 } from '../common/openapi';
import { PageOf } from '../common/pagination';
import { Command } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { ChouetteDto, CreateChouetteDto, JoinChouetteDto } from './chouette.dto';
import { ChouettesService } from './chouettes.service';
import { TableListQuery } from './tables.dto';

const ChouettePage = PageOf(ChouetteDto);

@ApiTags('Chouettes')
@Controller('v1/chouettes')
export class ChouettesController {
  constructor(private readonly chouettes: ChouettesService) {}

  @Post()
  @ApiRefusals(...CHOUETTE_CREATION_REFUSALS)
  @MinRole('scorer')
  @ApiOperation({
    summary: 'Seat a chouette of 3 to 12 players (R5.1)',
    description: 'Seating by roll-off, explicit order or server-side shuffle: the first is the box, the second the captain, the rest the team in order.',
  })
  @ApiCreatedResponse({ type: ChouetteDto })
  @ApiProblem(
    422,
    'A rule refuses it: ROLL_OFF_TIE / INVALID_SEATING / CHOUETTE_PLAYER_COUNT / DUPLICATE_PLAYER (R5.1), INVALID_CUBE_MODE (R5.3), INVALID_PARTNER_FROM / INVALID_PARTNER_SHARE (R5.9), DUPLICATE_STAKE (R5.11), RACCOONS_NEED_BEAVERS (R2.5), INVALID_CUBE_LIMIT (R2.2), UNKNOWN_PLAYER, SESSION_CLOSED (R6.7).',
  )
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateChouetteDto) {
    return this.chouettes.create(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({ summary: 'List chouettes (filter by session, player, status)' })
  @ApiOkResponse({ type: ChouettePage })
  @ApiProblem(422, MONEY_READ_422)
  list(@ClubKey() auth: KeyAuth, @Query() q: TableListQuery) {
    return this.chouettes.list(auth, q);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({ summary: 'A chouette: box, partner, team line, nets after rake, games' })
  @ApiOkResponse({ type: ChouetteDto })
  @ApiProblem(422, MONEY_READ_422)
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Chouette')) id: string) {
    return this.chouettes.get(auth, id);
  }

  @Post(':id/players')
  @ApiRefusals('GAME_IN_PROGRESS', 'ALREADY_SEATED', 'CHOUETTE_FULL', 'UNKNOWN_PLAYER', 'SESSION_CLOSED')
  @MinRole('scorer')
  @ApiOperation({ summary: 'A player joins at the end of the team line, between games (R5.8)' })
  @ApiCreatedResponse({ type: ChouetteDto })
  @ApiProblem(422, 'A rule refuses it: GAME_IN_PROGRESS / ALREADY_SEATED (R5.8), CHOUETTE_FULL (R5.1), UNKNOWN_PLAYER, SESSION_CLOSED (R6.7).')
  join(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Chouette')) id: string, @Body() dto: JoinChouetteDto) {
    return this.chouettes.join(cmd, auth, id, dto);
  }

  @Delete(':id/players/:playerId')
  @ApiRefusals('GAME_IN_PROGRESS', 'NOT_SEATED', 'LAST_PLAYER', 'SESSION_CLOSED')
  @HttpCode(200)
  @MinRole('scorer')
  @ApiOperation({
    summary: 'A player leaves, between games (R5.8)',
    description: 'If the box leaves, the captain becomes box; if the partner leaves, the box has none until the next box change.',
  })
  @ApiOkResponse({ type: ChouetteDto })
  @ApiProblem(422, 'A rule refuses it: GAME_IN_PROGRESS / NOT_SEATED / LAST_PLAYER (R5.8), SESSION_CLOSED (R6.7).')
  leave(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Chouette')) id: string, @Param('playerId', new UuidParam('Player')) playerId: string) {
    return this.chouettes.leave(cmd, auth, id, playerId);
  }
}
