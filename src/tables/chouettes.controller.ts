import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ApiProblem, ApiRefusals, CHOUETTE_CREATION_REFUSALS, EXAMPLE_ID, MONEY_READ_422 } from '../common/openapi';
import { PageOf } from '../common/pagination';
import { Command } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { ChouetteDto, CreateChouetteDto, JoinChouetteDto } from './chouette.dto';
import { ChouettesService } from './chouettes.service';
import { TableListQuery } from './tables.dto';

const ChouettePage = PageOf(ChouetteDto);
const { anna, ben, carla, dmitri, elena, farid, session } = EXAMPLE_ID;

@ApiTags('Chouettes')
@Controller('v1/chouettes')
export class ChouettesController {
  constructor(private readonly chouettes: ChouettesService) {}

  @Post()
  @ApiRefusals(...CHOUETTE_CREATION_REFUSALS)
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'createChouette',
    summary: 'Seat a chouette of 3 to 12 players (R5.1)',
    description: 'Seating by roll-off, explicit order or server-side shuffle: the first is the box, the second the captain, the rest the team in order.',
  })
  @ApiBody({
    type: CreateChouetteDto,
    examples: {
      rollOff: {
        summary: 'Four players seated by the roll-off at 1.00 a point, one cube per member (R5.1, R5.3)',
        value: {
          sessionId: session,
          stakeMinor: 100,
          seating: {
            rolls: [
              { playerId: anna, roll: 6 },
              { playerId: ben, roll: 5 },
              { playerId: carla, roll: 3 },
              { playerId: dmitri, roll: 2 },
            ],
          },
          rules: { cubes: 'per-member', jacoby: true },
        },
      },
      order: {
        summary: 'Five players in an explicit order, with a partner for the box and one lower stake (R5.9, R5.11)',
        value: {
          sessionId: session,
          stakeMinor: 200,
          seating: { order: [anna, ben, carla, dmitri, elena] },
          stakes: [{ playerId: elena, stakeMinor: 100 }],
          rules: { partnerFrom: 5, partnerShare: 50 },
        },
      },
      shuffle: {
        summary: 'Three players seated by the server at random, with the single team cube',
        value: { sessionId: session, stakeMinor: 100, seating: { shuffle: [anna, ben, carla] }, rules: { cubes: 'single' } },
      },
    },
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
  @ApiOperation({ operationId: 'listChouettes', summary: 'List chouettes (filter by session, player, status)' })
  @ApiOkResponse({ type: ChouettePage })
  @ApiProblem(422, MONEY_READ_422)
  list(@ClubKey() auth: KeyAuth, @Query() q: TableListQuery) {
    return this.chouettes.list(auth, q);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'getChouette', summary: 'A chouette: box, partner, team line, nets after rake, games' })
  @ApiOkResponse({ type: ChouetteDto })
  @ApiProblem(422, MONEY_READ_422)
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Chouette')) id: string) {
    return this.chouettes.get(auth, id);
  }

  @Post(':id/players')
  @ApiRefusals('GAME_IN_PROGRESS', 'ALREADY_SEATED', 'CHOUETTE_FULL', 'UNKNOWN_PLAYER', 'SESSION_CLOSED')
  @MinRole('scorer')
  @ApiOperation({ operationId: 'joinChouette', summary: 'A player joins at the end of the team line, between games (R5.8)' })
  @ApiBody({ type: JoinChouetteDto, examples: { join: { summary: 'Farid joins at the end of the team line', value: { playerId: farid } } } })
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
    operationId: 'leaveChouette',
    summary: 'A player leaves, between games (R5.8)',
    description: 'If the box leaves, the captain becomes box; if the partner leaves, the box has none until the next box change.',
  })
  @ApiOkResponse({ type: ChouetteDto })
  @ApiProblem(422, 'A rule refuses it: GAME_IN_PROGRESS / NOT_SEATED / LAST_PLAYER (R5.8), SESSION_CLOSED (R6.7).')
  leave(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Chouette')) id: string, @Param('playerId', new UuidParam('Player')) playerId: string) {
    return this.chouettes.leave(cmd, auth, id, playerId);
  }
}
