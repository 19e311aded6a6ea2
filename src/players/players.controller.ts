import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ApiProblem, MONEY_READ_422 } from '../common/openapi';
import { ListQuery, PAGE_LIMIT, PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { PlayerDetailDto } from './player-stats.dto';
import { PlayerDetails } from './player-details';
import { CreatePlayerDto, PlayerDto, UpdatePlayerDto } from './players.dto';
import { PlayersService } from './players.service';

const PlayerPage = PageOf(PlayerDto);

@ApiTags('Players')
@Controller('v1/players')
export class PlayersController {
  constructor(
    private readonly players: PlayersService,
    private readonly stats: PlayerDetails,
  ) {}

  @Post()
  @MinRole('scorer')
  @ApiOperation({ operationId: 'createPlayer', summary: 'Add a player to the club' })
  @ApiBody({
    type: CreatePlayerDto,
    examples: {
      newcomer: { summary: 'A new player, rated 1500', value: { name: 'Anna Schmidt', nickname: 'Annie' } },
      rated: { summary: 'A player who brings his rating and experience from another club (R7)', value: { name: 'Ben Okafor', rating: 1712.35, experience: 840 } },
    },
  })
  @ApiCreatedResponse({ type: PlayerDto })
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreatePlayerDto) {
    return this.players.create(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'listPlayers',
    summary: "List the club's players, oldest first",
    description: "Items are lean: no `stats` (they cost a read of each player's games); `GET /v1/players/{id}` has them.",
  })
  @ApiOkResponse({ type: PlayerPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: ListQuery) {
    return this.players.list(auth, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'getPlayer',
    summary: 'One player, with his statistics',
    description:
      "The player's fields and `stats`: matches and games played and won, gammons and backgammons won and lost, cube actions, and money net per currency, over the club's finished games and matches (definitions on each field).",
  })
  @ApiOkResponse({ type: PlayerDetailDto })
  @ApiProblem(404, 'No such player in this club (NOT_FOUND).')
  @ApiProblem(422, MONEY_READ_422)
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Player')) id: string) {
    return this.stats.get(auth, id);
  }

  @Patch(':id')
  @MinRole('scorer')
  @ApiOperation({ operationId: 'updatePlayer', summary: 'Change a player (If-Match honoured)' })
  @ApiBody({
    type: UpdatePlayerDto,
    examples: {
      nickname: { summary: 'A new nickname', value: { nickname: 'The Doctor' } },
      noNickname: { summary: 'Remove the nickname', value: { nickname: null } },
      rating: { summary: 'Correct the rating carried over', value: { rating: 1650, experience: 1200 } },
    },
  })
  @ApiOkResponse({ type: PlayerDto })
  @ApiProblem(404, 'No such player in this club (NOT_FOUND).')
  @ApiProblem(412, 'If-Match does not name the current version (VERSION_MISMATCH).')
  update(
    @Command() cmd: CommandContext,
    @ClubKey() auth: KeyAuth,
    @Param('id', new UuidParam('Player')) id: string,
    @IfMatch() ifMatch: number | '*' | undefined,
    @Body() dto: UpdatePlayerDto,
  ) {
    return this.players.update(cmd, auth, id, ifMatch, dto);
  }
}
