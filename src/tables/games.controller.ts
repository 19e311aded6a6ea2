import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, Type } from '@nestjs/common';
import { TABLE_KIND_NAMES } from '../domain/table-kinds';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/api-error';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ErrorCode } from '../common/error-codes';
import { ApiProblem, ApiRefusals, EXAMPLE_ID, GAME_PLAY_REFUSALS, MONEY_WRITE_422 } from '../common/openapi';
import { ListQuery, PAGE_LIMIT, PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { GamesService } from './games.service';
import { TableKind } from './table.entity';
import { ActionDto, GameDto, StartGameDto, VoidDto } from './tables.dto';

const GamePage = PageOf(GameDto);
const gameNo = () =>
  Param(
    'gameNo',
    new ParseIntPipe({
      exceptionFactory: () => new ApiError(ErrorCode.NOT_FOUND, 'Game not found'),
    }),
  );

const { anna, ben, carla, dmitri } = EXAMPLE_ID;

type BodyExamples = Record<string, { summary: string; value: object }>;

/**
 * The request examples of a kind of table: starting a game (alone, or the whole game
 * recorded after the fact) and its actions. Anna and Ben play the match and the money
 * game; in the chouette Anna is the box, Ben the captain, Carla and Dmitri the team.
 */
const GAME_EXAMPLES: Record<TableKind, { start: BodyExamples; action: BodyExamples }> = {
  match: {
    start: {
      next: { summary: 'Start the next game', value: {} },
      afterTheFact: {
        summary: 'Record a whole game at once: Anna doubles, Ben takes, Anna wins a gammon',
        value: {
          actions: [
            { type: 'double', by: anna },
            { type: 'take', by: ben },
            { type: 'finish', winner: anna, result: 'gammon' },
          ],
        },
      },
    },
    action: {
      double: { summary: 'Anna doubles', value: { type: 'double', by: anna } },
      take: { summary: 'Ben takes', value: { type: 'take', by: ben } },
      pass: { summary: 'Ben passes: Anna wins the game at the cube value', value: { type: 'pass', by: ben } },
      finish: { summary: 'Anna wins a gammon', value: { type: 'finish', winner: anna, result: 'gammon' } },
      resigned: {
        summary: 'Ben offers a single and Anna accepts: he resigns the game to her (R1.4, R3.10)',
        value: { type: 'finish', winner: anna, result: 'single', resigned: true, offeredBy: ben },
      },
      resignRefused: { summary: 'Ben offers to resign a gammon; Anna refuses and play goes on (R3.10)', value: { type: 'resign-refused', by: ben, result: 'gammon' } },
    },
  },
  money: {
    start: {
      next: { summary: 'Start the next game', value: {} },
      automaticDouble: { summary: 'The opening roll was a double: one automatic double, on a table that allows them (R2.7)', value: { automaticDoubles: 1 } },
    },
    action: {
      double: { summary: 'Anna doubles', value: { type: 'double', by: anna } },
      beaver: { summary: 'Ben beavers: he keeps the cube at four times its value, and Anna must answer (R2.4)', value: { type: 'beaver', by: ben } },
      takeBeaver: { summary: "Anna takes Ben's beaver", value: { type: 'take', by: anna } },
      take: { summary: 'Ben takes', value: { type: 'take', by: ben } },
      finish: { summary: 'Ben wins a backgammon', value: { type: 'finish', winner: ben, result: 'backgammon' } },
    },
  },
  chouette: {
    start: {
      next: { summary: 'Start the next game', value: {} },
      afterTheFact: {
        summary: 'Record a whole game at once: the box doubles Carla and Dmitri, Carla takes, Dmitri passes, the box wins',
        value: {
          actions: [
            { type: 'double', by: anna, cubes: [carla, dmitri] },
            { type: 'take', by: carla, cube: carla },
            { type: 'pass', by: dmitri, cube: dmitri },
            { type: 'finish', winner: anna, result: 'single' },
          ],
        },
      },
    },
    action: {
      double: { summary: "The box (Anna) doubles Carla's and Dmitri's cubes (R5.3)", value: { type: 'double', by: anna, cubes: [carla, dmitri] } },
      take: { summary: 'Carla takes her cube', value: { type: 'take', by: carla, cube: carla } },
      pass: { summary: 'Dmitri passes his cube', value: { type: 'pass', by: dmitri, cube: dmitri } },
      finish: { summary: 'The team wins a gammon', value: { type: 'finish', winner: ben, result: 'gammon' } },
    },
  },
};

const RULE_422 = `A rule refuses it; \`code\` and \`rule\` say which (e.g. OFFER_PENDING R2.6, CRAWFORD_NO_DOUBLE R3.4, DEAD_CUBE R3.5, INVALID_RESIGNATION R3.10, GAME_IN_PROGRESS R6.8, SESSION_CLOSED R6.7). Finishing a game is refused, and the game stays as it was, with ${MONEY_WRITE_422}`;

/**
 * The same game routes on every kind of table (the HTTP contract, "Games and cube actions"):
 * /v1/matches/{id}/games, /v1/money-games/{id}/games, /v1/chouettes/{id}/games.
 * `noun` names the table in the operation ids (startMatchGame, recordMoneyTableGameAction,
 * voidChouetteGame): "MoneyTable" rather than "MoneyGame", which would read as a game of a game.
 */
function gamesControllerFor(kind: TableKind, noun: string): Type<unknown> {
  const { path, title: tag } = TABLE_KIND_NAMES[kind];
  const id = () => Param('id', new UuidParam(tag));

  @ApiTags(tag === 'Match' ? 'Matches' : tag === 'Money game' ? 'Money games' : 'Chouettes')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Controller(`v1/${path}/:id/games`)
  class GamesController {
    constructor(readonly games: GamesService) {}

    @Post()
    @ApiRefusals(...GAME_PLAY_REFUSALS)
    @MinRole('scorer')
    @ApiOperation({
      summary: `Start the next game of a ${tag.toLowerCase()}`,
      description: 'With `actions`, the whole game is applied at once, all or nothing (recording after the fact). R6.8: one game at a time.',
      operationId: `start${noun}Game`,
    })
    @ApiBody({ type: StartGameDto, examples: GAME_EXAMPLES[kind].start })
    @ApiCreatedResponse({ type: GameDto })
    @ApiProblem(412, "If-Match does not name the table's current version (VERSION_MISMATCH).")
    @ApiProblem(422, RULE_422)
    start(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() tableId: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: StartGameDto) {
      return this.games.start(cmd, auth, kind, tableId, ifMatch, dto);
    }

    @Get()
    @MinRole('viewer')
    @ApiOperation({ summary: 'Every game of the table, in order', operationId: `list${noun}Games` })
    @ApiOkResponse({ type: GamePage })
    list(@ClubKey() auth: KeyAuth, @id() tableId: string, @Query() q: ListQuery) {
      return this.games.list(auth, kind, tableId, q.limit ?? PAGE_LIMIT.default, q.cursor);
    }

    @Get(':gameNo')
    @MinRole('viewer')
    @ApiOperation({ summary: 'One game: cubes, actions, result, payouts', operationId: `get${noun}Game` })
    @ApiOkResponse({ type: GameDto })
    get(@ClubKey() auth: KeyAuth, @id() tableId: string, @gameNo() n: number) {
      return this.games.get(auth, kind, tableId, n);
    }

    @Post(':gameNo/actions')
    @ApiRefusals(...GAME_PLAY_REFUSALS)
    @HttpCode(200)
    @MinRole('scorer')
    @ApiOperation({ summary: 'Record one action: double, take, pass, beaver, raccoon or finish', operationId: `record${noun}GameAction` })
    @ApiBody({ type: ActionDto, examples: GAME_EXAMPLES[kind].action })
    @ApiOkResponse({ type: GameDto, description: 'The game after the action.' })
    @ApiProblem(412, "If-Match does not name the game's current version (VERSION_MISMATCH).")
    @ApiProblem(422, RULE_422)
    act(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() tableId: string, @gameNo() n: number, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: ActionDto) {
      return this.games.act(cmd, auth, kind, tableId, n, ifMatch, dto);
    }

    @Post(':gameNo/undo')
    @ApiRefusals('NOTHING_TO_UNDO', 'GAME_FINISHED', 'GAME_NOT_IN_PROGRESS')
    @HttpCode(200)
    @MinRole('scorer')
    @ApiOperation({ summary: 'Take back the last action of an unfinished game', operationId: `undo${noun}GameAction` })
    @ApiOkResponse({ type: GameDto })
    @ApiProblem(412, "If-Match does not name the game's current version (VERSION_MISMATCH).")
    @ApiProblem(422, 'Nothing to undo, or the game is not in progress (NOTHING_TO_UNDO, GAME_FINISHED, GAME_NOT_IN_PROGRESS).')
    undo(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() tableId: string, @gameNo() n: number, @IfMatch() ifMatch: number | '*' | undefined) {
      return this.games.undo(cmd, auth, kind, tableId, n, ifMatch);
    }

    @Post(':gameNo/void')
    @ApiRefusals('NOT_LATEST_GAME', 'GAME_IN_PROGRESS', 'GAME_NOT_FINISHED', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE', ...(kind === 'match' ? (['CORRECTION_CLOSED'] as const) : []))
    @HttpCode(200)
    @MinRole('scorer')
    @ApiOperation({ summary: 'Void the latest finished game (R6.3)', description: 'Posts reversing entries; the score and seats are as before the game.', operationId: `void${noun}Game` })
    @ApiBody({ type: VoidDto, examples: { wrongWinner: { summary: 'The wrong winner was recorded', value: { reason: 'Wrong winner recorded' } } } })
    @ApiOkResponse({ type: GameDto })
    @ApiProblem(412, "If-Match does not name the game's current version (VERSION_MISMATCH).")
    @ApiProblem(
      422,
      `Not the latest finished game, or a game is in progress (NOT_LATEST_GAME, GAME_IN_PROGRESS, GAME_NOT_FINISHED; R6.3)${kind === 'match' ? "; a tournament's match whose players have begun a later match (CORRECTION_CLOSED, R9.10)" : ''}; AMOUNT_OUT_OF_RANGE (R6.2) only for money recorded past 2^53 − 1 before that bound was kept.`,
    )
    void(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() tableId: string, @gameNo() n: number, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: VoidDto) {
      return this.games.void(cmd, auth, kind, tableId, n, ifMatch, dto);
    }

    @Post(':gameNo/abandon')
    @ApiRefusals('GAME_FINISHED', 'GAME_NOT_IN_PROGRESS')
    @HttpCode(200)
    @MinRole('scorer')
    @ApiOperation({ summary: 'End an unfinished game with no result and no money', operationId: `abandon${noun}Game` })
    @ApiOkResponse({ type: GameDto })
    @ApiProblem(412, "If-Match does not name the game's current version (VERSION_MISMATCH).")
    @ApiProblem(422, 'The game is not in progress (GAME_FINISHED, GAME_NOT_IN_PROGRESS).')
    abandon(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @id() tableId: string, @gameNo() n: number, @IfMatch() ifMatch: number | '*' | undefined) {
      return this.games.abandon(cmd, auth, kind, tableId, n, ifMatch);
    }
  }
  Object.defineProperty(GamesController, 'name', { value: `${tag.replace(/\s/g, '')}GamesController` });
  return GamesController;
}

export const MatchGamesController = gamesControllerFor('match', 'Match');
export const MoneyGamesGamesController = gamesControllerFor('money', 'MoneyTable');
export const ChouetteGamesController = gamesControllerFor('chouette', 'Chouette');
