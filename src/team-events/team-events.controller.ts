import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ApiProblem, ApiRefusals, EXAMPLE_ID, MATCH_CREATION_REFUSALS } from '../common/openapi';
import { PageOf } from '../common/pagination';
import { Command } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { CreateTeamEventDto, TeamEventDto, TeamEventListQuery } from './team-events.dto';
import { TeamEventsService } from './team-events.service';

const TeamEventPage = PageOf(TeamEventDto);

@ApiTags('Matches')
@Controller('v1/team-events')
export class TeamEventsController {
  constructor(private readonly events: TeamEventsService) {}

  @Post()
  @ApiRefusals('TEAMS_UNEQUAL', 'BOARDS_EVEN', 'INVALID_TEAMS', 'TOO_MANY_BOARDS', ...MATCH_CREATION_REFUSALS)
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'createTeamEvent',
    summary: 'Start a team event: one match per board, won by a majority of the boards (R3.7)',
    description:
      'Two teams of the same odd number of players (1, 3, 5, … up to 9); board i is a match between the i-th player of each team, team 0 on side 0. ' +
      "Every board match is created in the same transaction, with the event's `target`, `rules` and `stakeMinor`, exactly as `POST /v1/matches` would create it, and is then played through `/v1/matches/{id}/games`. " +
      'The stake is per board: each board match carries `stakeMinor`, and when it ends its loser pays it to its winner through the session ledger (R3.8); the event as a whole moves no money. ' +
      'The team score, status and winner are derived from the board matches on every read.',
  })
  @ApiBody({
    type: CreateTeamEventDto,
    examples: {
      threeBoards: {
        summary: 'North against South on three boards, each a match to 5 for 5.00 a board (R3.7, R3.8)',
        value: {
          name: 'Inter-club, round 1',
          sessionId: EXAMPLE_ID.session,
          target: 5,
          stakeMinor: 500,
          teams: [
            { name: 'North', players: [EXAMPLE_ID.anna, EXAMPLE_ID.ben, EXAMPLE_ID.carla] },
            { name: 'South', players: [EXAMPLE_ID.dmitri, EXAMPLE_ID.elena, EXAMPLE_ID.farid] },
          ],
        },
      },
    },
  })
  @ApiCreatedResponse({ type: TeamEventDto })
  @ApiProblem(
    422,
    'A rule refuses it: TEAMS_UNEQUAL / BOARDS_EVEN / DUPLICATE_PLAYER / INVALID_TEAMS (R3.7), TARGET_EVEN / TARGET_OUT_OF_RANGE (R3.1), MONEY_ONLY_SETTING (R2.8), STAKE_NEEDS_SESSION (R3.8), UNKNOWN_PLAYER, SESSION_CLOSED (R6.7).',
  )
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateTeamEventDto) {
    return this.events.create(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listTeamEvents', summary: 'List team events (filter by session), oldest first' })
  @ApiOkResponse({ type: TeamEventPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: TeamEventListQuery) {
    return this.events.list(auth, q);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'getTeamEvent', summary: 'A team event: boards, team score, status and winner (R3.7)' })
  @ApiOkResponse({ type: TeamEventDto })
  @ApiProblem(404, 'No such team event in this club (NOT_FOUND).')
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Team event')) id: string) {
    return this.events.get(auth, id);
  }
}
