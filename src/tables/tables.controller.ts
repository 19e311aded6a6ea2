import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/api-error';
import { ErrorCode } from '../common/error-codes';
import { negotiate } from '../common/negotiate';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ApiProblem, ApiRefusals, EXAMPLE_ID, MATCH_CREATION_REFUSALS, MONEY_GAME_CREATION_REFUSALS, MONEY_READ_422, MONEY_WRITE_422 } from '../common/openapi';
import { PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import type { CommandContext } from '../common/command';
import { ArrivalDto, ArrivalResultDto, CreateMatchDto, CreateMoneyGameDto, ForfeitDto, MatchDto, MoneyGameDto, PenaltyDto, TableListQuery, VoidDto } from './tables.dto';
import { MatchResultsService } from './match-results.service';
import { TablesService } from './tables.service';

const MatchPage = PageOf(MatchDto);
const { anna, ben, carla, dmitri, session } = EXAMPLE_ID;
const MoneyGamePage = PageOf(MoneyGameDto);

@ApiTags('Matches')
@Controller('v1/matches')
export class MatchesController {
  constructor(
    private readonly tables: TablesService,
    private readonly results: MatchResultsService,
  ) {}

  @Post()
  @ApiRefusals(...MATCH_CREATION_REFUSALS, 'SETTING_NOT_IN_VARIANT')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'createMatch',
    summary: 'Start a match to an odd target (R3)',
    description:
      'Sides of one player or a pair (R3.7); rules `crawford` and `deadCube`; money-only settings must be off (R2.8). `variant` (R8) picks the game: a variant match takes any target from 1 to 63 (Tavla 31: 1 to 255, default 31; R8.7).',
  })
  @ApiBody({
    type: CreateMatchDto,
    examples: {
      backgammon: { summary: 'A backgammon match to 5', value: { sides: [[anna], [ben]], target: 5 } },
      staked: {
        summary: 'Two pairs play to 7 in a session, for a stake of 20.00 paid by the losing side (R3.7, R3.8)',
        value: {
          sessionId: session,
          sides: [
            [anna, carla],
            [ben, dmitri],
          ],
          target: 7,
          stakeMinor: 2000,
          rules: { crawford: true, cubeLimit: 64 },
        },
      },
      longNardy: {
        summary: 'A long nardy match to 5 with the cube (R8.1)',
        value: { variant: 'long-nardy', sides: [[anna], [ben]], target: 5, rules: { cube: true } },
      },
      tavla31: { summary: 'A Tavla 31 match to 31 (R8.6)', value: { variant: 'tavla-31', sides: [[anna], [ben]], target: 31 } },
    },
  })
  @ApiCreatedResponse({ type: MatchDto })
  @ApiProblem(
    422,
    'A rule refuses it: TARGET_EVEN / TARGET_OUT_OF_RANGE (R3.1), MONEY_ONLY_SETTING (R2.8), DUPLICATE_PLAYER (R3.7), STAKE_NEEDS_SESSION (R3.8), UNKNOWN_PLAYER, SESSION_CLOSED (R6.7).',
  )
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateMatchDto) {
    return this.tables.createMatch(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listMatches', summary: 'List matches (filter by session, player, status)' })
  @ApiOkResponse({ type: MatchPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: TableListQuery) {
    return this.tables.listMatches(auth, q);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'getMatch', summary: 'A match: score, Crawford game, games' })
  @ApiOkResponse({ type: MatchDto })
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Match')) id: string) {
    return this.tables.getMatch(auth, id);
  }

  @Get(':id/export')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'exportMatch',
    summary: 'The match as a Jellyfish .mat record (text/plain), for GNU Backgammon and other analysis programs',
    description:
      "One block per finished game with the score before it (penalties included, R3.6), the cube lines (`Doubles => 2`, `Takes`, `Drops`, `Beavers => 4`) in the acting side's column and `Wins N points`. No checker moves: the service records none, so a game without cube actions carries a position line that tells the importer the game is in play.",
  })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'The .mat record.', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiProblem(404, 'No such match in this club (NOT_FOUND).')
  @ApiProblem(406, 'Accept names no text type (NOT_ACCEPTABLE).')
  @ApiProblem(422, 'The match cannot be written in the format (EXPORT_NOT_POSSIBLE), or it is not a backgammon match (EXPORT_UNSUPPORTED_VARIANT, R8.9).')
  @ApiRefusals('EXPORT_UNSUPPORTED_VARIANT')
  async exportMat(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Match')) id: string, @Headers('accept') accept: string | undefined, @Res({ passthrough: true }) reply: FastifyReply) {
    if (!negotiate(accept, ['text/plain'])) {
      throw new ApiError(ErrorCode.NOT_ACCEPTABLE, 'The match record is available as text/plain (Jellyfish .mat).');
    }
    const { text, file } = await this.tables.exportMat(auth, id);
    reply.header('content-type', 'text/plain; charset=utf-8').header('content-disposition', `attachment; filename="${file}"`).header('vary', 'Accept');
    return text;
  }

  @Post(':id/penalties')
  @ApiRefusals('INVALID_PENALTY', 'GAME_IN_PROGRESS', 'MATCH_FINISHED', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'awardMatchPenalty',
    summary: 'Award penalty points to a side between games (R3.6)',
    description:
      'May end the match, make the next game the Crawford game, or forfeit the match: more than half the target in penalty points against a side forfeits it to the other side (`endedBy: { kind: "forfeit", reason: "penalties" }`, R3.9). `POST /v1/matches/{id}/void` takes the latest penalty back.',
  })
  @ApiBody({ type: PenaltyDto, examples: { late: { summary: 'One point to side 1: side 0 came back late (R3.6)', value: { side: 1, points: 1, reason: 'Late for round 2' } } } })
  @ApiCreatedResponse({ type: MatchDto })
  @ApiProblem(
    422,
    `A game is in progress, the match is over or its session is closed (GAME_IN_PROGRESS R3.6, MATCH_FINISHED R3.2, SESSION_CLOSED R6.7); or, when the penalty ends a staked match, ${MONEY_WRITE_422}`,
  )
  penalty(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Match')) id: string, @Body() dto: PenaltyDto) {
    return this.results.penalty(cmd, auth, id, dto);
  }

  @Post(':id/forfeit')
  @ApiRefusals('MATCH_FINISHED', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'recordMatchForfeit',
    summary: 'A side forfeits the match (R3.9)',
    description:
      "The other side wins; the score stays as played and `endedBy` says how it ended. A game in progress is closed as abandoned (it posts nothing; `game.abandoned`). A stake (R3.8) is paid as for any win. The match is rated (R7) only if at least one of its games was finished. `POST /v1/matches/{id}/void` takes the forfeit back and reopens the match. Honours `If-Match` (the match's version).",
  })
  @ApiBody({
    type: ForfeitDto,
    examples: {
      lateness: { summary: 'Side 1 forfeits: more than half the target late (R3.9)', value: { side: 1, reason: 'lateness', note: 'Arrived 40 minutes after the round started' } },
      time: { summary: "Side 0's clock ran out (R3.9)", value: { side: 0, reason: 'time' } },
    },
  })
  @ApiCreatedResponse({ type: MatchDto, description: 'The match, finished, with `endedBy: { kind: "forfeit", side, reason }`.' })
  @ApiProblem(412, "If-Match does not name the match's current version (VERSION_MISMATCH).")
  @ApiProblem(422, `The match is over (MATCH_FINISHED, R3.9) or its session is closed (SESSION_CLOSED, R6.7); or, when the forfeit ends a staked match, ${MONEY_WRITE_422}`)
  forfeit(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Match')) id: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: ForfeitDto) {
    return this.results.forfeit(cmd, auth, id, ifMatch, dto);
  }

  @Post(':id/arrivals')
  @ApiRefusals('NOT_SCHEDULED', 'GAME_IN_PROGRESS', 'MATCH_FINISHED', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'recordMatchArrival',
    summary: 'A side arrives at a match with a scheduled start: lateness penalised (R9.6)',
    description:
      "From the match's `scheduledAt` to `arrivedAt` (now unless given; `at` is its older name): one penalty point (R3.6) to the other side for every full 5 minutes late (4:59 costs nothing, 5:00 one point, 15:00 three), given as a penalty with the reason `lateness: N minutes late`; more than half the target forfeits the match for `lateness` (R3.9). On time: nothing changes. Honours `If-Match` (the match's version). Answers 201 with the match after it and `penalty`, the penalty it gave (null when none).",
  })
  @ApiBody({
    type: ArrivalDto,
    examples: { late: { summary: 'Side 1 arrives at 19:45 for a 19:30 start: 3 points to side 0 (R9.6)', value: { side: 1, arrivedAt: '2026-12-11T19:45:00+01:00' } } },
  })
  @ApiCreatedResponse({ type: ArrivalResultDto, description: 'The match after the arrival, with the lateness penalty it gave (R9.6).' })
  @ApiProblem(412, "If-Match does not name the match's current version (VERSION_MISMATCH).")
  @ApiProblem(
    422,
    `The match has no scheduled start (NOT_SCHEDULED, R9.6), a game is in progress (GAME_IN_PROGRESS, R3.6), the match is over (MATCH_FINISHED, R3.2) or its session is closed (SESSION_CLOSED, R6.7); or, when the penalty ends a staked match, ${MONEY_WRITE_422}`,
  )
  arrival(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Match')) id: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: ArrivalDto) {
    return this.results.arrival(cmd, auth, id, ifMatch, dto);
  }

  @Post(':id/void')
  @HttpCode(200)
  @ApiRefusals('NOTHING_TO_VOID', 'GAME_IN_PROGRESS', 'NOT_LATEST_GAME', 'CORRECTION_CLOSED', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'voidMatchResult',
    summary: "Void the match's most recent result: a game, a penalty or a forfeit (R6.3, R3.6, R3.9)",
    description:
      "Whichever came last: the latest finished game (as `POST /v1/matches/{id}/games/{gameNo}/void` does: reversing entries, `game.voided`), the latest penalty (kept in `penalties` with `voided: true`) or the forfeit. The score, the Crawford game and a finish it caused are then as before it: a match it had ended is in progress again, its rating change, statistics and stake taken back. Only while no game is in progress and the session is open. Honours `If-Match` (the match's version). Answers the match.",
  })
  @ApiBody({ type: VoidDto, examples: { wrongRuling: { summary: 'The ruling was given in error', value: { reason: 'Clock was started late by the director' } } } })
  @ApiOkResponse({ type: MatchDto })
  @ApiProblem(412, "If-Match does not name the match's current version (VERSION_MISMATCH).")
  @ApiProblem(
    422,
    `Nothing to void, a game is in progress, or the session is closed (NOTHING_TO_VOID, GAME_IN_PROGRESS; R6.3; SESSION_CLOSED, R6.7); a tournament's match whose players have begun a game in a later match (CORRECTION_CLOSED, R9.10); AMOUNT_OUT_OF_RANGE (R6.2) only for money recorded past 2^53 − 1 before that bound was kept.`,
  )
  voidResult(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Match')) id: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: VoidDto) {
    return this.results.voidResult(cmd, auth, id, ifMatch, dto.reason);
  }
}

@ApiTags('Money games')
@Controller('v1/money-games')
export class MoneyGamesController {
  constructor(private readonly tables: TablesService) {}

  @Post()
  @ApiRefusals(...MONEY_GAME_CREATION_REFUSALS, 'SETTING_NOT_IN_VARIANT')
  @MinRole('scorer')
  @ApiOperation({ operationId: 'createMoneyGame', summary: 'Open a money-game table for two players (R4)' })
  @ApiBody({
    type: CreateMoneyGameDto,
    examples: {
      backgammon: {
        summary: 'Anna and Ben at 1.00 a point, Jacoby and beavers, cube up to 64 (R4.1)',
        value: { sessionId: session, players: [anna, ben], stakeMinor: 100, rules: { jacoby: true, beavers: true, cubeLimit: 64 } },
      },
      automaticDoubles: {
        summary: 'Anna and Ben at 0.50 a point, with one automatic double per game (R2.7)',
        value: { sessionId: session, players: [anna, ben], stakeMinor: 50, rules: { automaticDoubles: 1 } },
      },
    },
  })
  @ApiCreatedResponse({ type: MoneyGameDto })
  @ApiProblem(422, 'A rule refuses it: RACCOONS_NEED_BEAVERS (R2.5), INVALID_CUBE_LIMIT (R2.2), DUPLICATE_PLAYER, UNKNOWN_PLAYER, SESSION_CLOSED (R6.7).')
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateMoneyGameDto) {
    return this.tables.createMoneyGame(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listMoneyGames', summary: 'List money-game tables (filter by session, player, status)' })
  @ApiOkResponse({ type: MoneyGamePage })
  @ApiProblem(422, MONEY_READ_422)
  list(@ClubKey() auth: KeyAuth, @Query() q: TableListQuery) {
    return this.tables.listMoneyGames(auth, q);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({ operationId: 'getMoneyGame', summary: 'A money-game table: nets after rake, games' })
  @ApiOkResponse({ type: MoneyGameDto })
  @ApiProblem(422, MONEY_READ_422)
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Money game')) id: string) {
    return this.tables.getMoneyGame(auth, id);
  }
}
