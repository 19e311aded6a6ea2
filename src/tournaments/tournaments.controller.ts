import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import type { CommandContext } from '../common/command';
import { EXAMPLE_ID } from '../common/example-ids';
import { ApiProblem, ApiRefusals, MATCH_CREATION_REFUSALS } from '../common/openapi';
import { PageOf } from '../common/pagination';
import { Command, IfMatch } from '../common/request';
import { UuidParam } from '../common/validators';
import { CreateTournamentDto, DrawDto, EntryDto, MoveEntryDto, SplitPayoutsDto, TournamentDto, TournamentListQuery, WithdrawDto } from './tournaments.dto';
import { TournamentsService } from './tournaments.service';
import { RUNNING_BRACKET } from './tournament-example';

const TournamentPage = PageOf(TournamentDto);
const { anna, session } = EXAMPLE_ID;
const IF_MATCH_412 = "If-Match does not name the tournament's current version (VERSION_MISMATCH).";

@ApiTags('Tournaments')
@ApiExtraModels(SplitPayoutsDto)
@Controller('v1/tournaments')
export class TournamentsController {
  constructor(private readonly tournaments: TournamentsService) {}

  @Post()
  @ApiRefusals('INVALID_TOURNAMENT', 'INVALID_PAYOUTS', ...MATCH_CREATION_REFUSALS)
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'createTournament',
    summary: 'Create a tournament, open for entries (R9.1)',
    description:
      'A knockout (R9.3) or a Swiss event of `rounds` rounds (R9.4), with a match target per round (the last repeats), the variant and match rules of every match, and optionally a session whose ledger takes the entry fees and prizes (R9.9). Every target and setting is checked as `POST /v1/matches` checks them. Emits `tournament.created`.',
  })
  @ApiBody({
    type: CreateTournamentDto,
    examples: {
      knockout: {
        summary: 'A Friday knockout: matches to 5, the final to 7, 20.00 to enter, 10 % to the house, 70/30 (R9.3, R9.9)',
        value: {
          name: 'Friday knockout',
          format: 'knockout',
          targets: [5, 5, 7],
          sessionId: session,
          entryFeeMinor: 2000,
          housePercent: 10,
          payouts: [70, 30],
          startsAt: '2026-12-11T19:30:00+01:00',
        },
      },
      swiss: { summary: 'A three-round Swiss, every match to 5 (R9.4)', value: { name: 'Winter Swiss', format: 'swiss', rounds: 3, targets: [5] } },
      consolation: {
        summary: 'Main and consolation brackets, four places paid (R9.11)',
        value: {
          name: 'Club championship',
          format: 'knockout',
          targets: [7],
          sessionId: session,
          entryFeeMinor: 5000,
          housePercent: 10,
          consolation: true,
          payouts: { main: [40, 25], consolation: [25, 10] },
        },
      },
    },
  })
  @ApiCreatedResponse({ type: TournamentDto })
  @ApiProblem(422, 'A setting is refused (INVALID_TOURNAMENT R9.1, INVALID_PAYOUTS R9.9), or a target or match setting as `POST /v1/matches` refuses it.')
  create(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Body() dto: CreateTournamentDto) {
    return this.tournaments.create(cmd, auth, dto);
  }

  @Get()
  @MinRole('viewer')
  @ApiOperation({ operationId: 'listTournaments', summary: "The club's tournaments (filter by status, session), oldest first" })
  @ApiOkResponse({ type: TournamentPage })
  list(@ClubKey() auth: KeyAuth, @Query() q: TournamentListQuery) {
    return this.tournaments.list(auth, q);
  }

  @Get(':id')
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'getTournament',
    summary: 'A tournament: its flights, entries, rounds and pairings, standings, pool and prizes (R9)',
    description: 'Every pairing names its match once created; a match of a tournament shows `tournament: { id, flight, bracket, round, pairing }`.',
  })
  @ApiOkResponse({ type: TournamentDto, description: 'A running bracket: round 1 half played, the final waiting for its second player.', example: RUNNING_BRACKET })
  @ApiProblem(404, 'No such tournament in this club (NOT_FOUND).')
  get(@ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Tournament')) id: string) {
    return this.tournaments.get(auth, id);
  }

  @Post(':id/entries')
  @ApiRefusals('TOURNAMENT_NOT_OPEN', 'ALREADY_ENTERED', 'FLIGHT_FULL', 'UNKNOWN_FLIGHT', 'UNKNOWN_PLAYER')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'createTournamentEntry',
    summary: 'Enter a player in a flight, before the draw (R9.2)',
    description: 'Once per tournament; the first flight unless one is named; a `seed` for a draw with `seeding: "given"`. Honours `If-Match`. Emits `tournament.updated`.',
  })
  @ApiBody({ type: EntryDto, examples: { entry: { summary: 'Anna enters the main flight', value: { playerId: anna } } } })
  @ApiCreatedResponse({ type: TournamentDto })
  @ApiProblem(404, 'No such tournament in this club (NOT_FOUND).')
  @ApiProblem(412, IF_MATCH_412)
  @ApiProblem(
    422,
    'Entries are closed (TOURNAMENT_NOT_OPEN, R9.2), the player has entered already (ALREADY_ENTERED, R9.2), the flight has its 256 entries (FLIGHT_FULL, R9.2), there is no such flight (UNKNOWN_FLIGHT, R9.1), or the player is not in the club (UNKNOWN_PLAYER).',
  )
  enter(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Tournament')) id: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: EntryDto) {
    return this.tournaments.enter(cmd, auth, id, ifMatch, dto);
  }

  @Patch(':id/entries/:playerId')
  @ApiRefusals('TOURNAMENT_NOT_OPEN', 'NOT_ENTERED', 'FLIGHT_FULL', 'UNKNOWN_FLIGHT')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'updateTournamentEntry',
    summary: 'Move an entry to another flight, or give it another seed, before the draw (R9.2)',
    description: 'Honours `If-Match`. Emits `tournament.updated`.',
  })
  @ApiBody({ type: MoveEntryDto, examples: { move: { summary: 'Anna moves to the intermediate flight', value: { flight: 'intermediate' } } } })
  @ApiOkResponse({ type: TournamentDto })
  @ApiProblem(404, 'No such tournament in this club (NOT_FOUND).')
  @ApiProblem(412, IF_MATCH_412)
  @ApiProblem(
    422,
    'Entries are closed (TOURNAMENT_NOT_OPEN, R9.2), the player has not entered (NOT_ENTERED, R9.2), the flight moved to is full (FLIGHT_FULL, R9.2), or there is no such flight (UNKNOWN_FLIGHT, R9.1).',
  )
  move(
    @Command() cmd: CommandContext,
    @ClubKey() auth: KeyAuth,
    @Param('id', new UuidParam('Tournament')) id: string,
    @Param('playerId', new UuidParam('Player')) playerId: string,
    @IfMatch() ifMatch: number | '*' | undefined,
    @Body() dto: MoveEntryDto,
  ) {
    return this.tournaments.moveEntry(cmd, auth, id, playerId, ifMatch, dto);
  }

  @Post(':id/entries/:playerId/withdraw')
  @HttpCode(200)
  @ApiRefusals('TOURNAMENT_NOT_RUNNING', 'NOT_ENTERED', 'ALREADY_OUT', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'recordTournamentWithdrawal',
    summary: 'A player withdraws or is disqualified (R9.8)',
    description:
      "He forfeits the match he is playing or due to play (R3.9, with the reason; a game in progress is abandoned), is paired no more, and in a knockout his next opponent goes through without a match. Before the draw he simply leaves his flight. His entry fee is not refunded (R9.9). Honours `If-Match`. Emits `tournament.updated` (and the forfeited match's events).",
  })
  @ApiBody({ type: WithdrawDto, examples: { ill: { summary: 'Withdraws, feeling unwell', value: { reason: 'withdrawal', note: 'Feeling unwell' } } } })
  @ApiOkResponse({ type: TournamentDto })
  @ApiProblem(404, 'No such tournament in this club (NOT_FOUND).')
  @ApiProblem(412, IF_MATCH_412)
  @ApiProblem(
    422,
    'The tournament is over (TOURNAMENT_NOT_RUNNING, R9.8), the player has not entered or has left already (NOT_ENTERED, ALREADY_OUT, R9.8), or its session is closed (SESSION_CLOSED, R6.7).',
  )
  withdraw(
    @Command() cmd: CommandContext,
    @ClubKey() auth: KeyAuth,
    @Param('id', new UuidParam('Tournament')) id: string,
    @Param('playerId', new UuidParam('Player')) playerId: string,
    @IfMatch() ifMatch: number | '*' | undefined,
    @Body() dto: WithdrawDto,
  ) {
    return this.tournaments.withdraw(cmd, auth, id, playerId, ifMatch, dto);
  }

  @Post(':id/draw')
  @HttpCode(200)
  @ApiRefusals('TOURNAMENT_NOT_OPEN', 'TOO_FEW_ENTRIES', 'INVALID_SEEDS', 'SESSION_CLOSED', 'AMOUNT_OUT_OF_RANGE')
  @MinRole('scorer')
  @ApiOperation({
    operationId: 'recordTournamentDraw',
    summary: 'Make the draw: entries close, round 1 is paired and its matches created (R9.3, R9.4)',
    description:
      "Every flight is seeded (by rating, as given, or at random from `randomSeed`) and drawn: a knockout's whole bracket with the byes decided (R9.3), or Swiss round 1 (R9.4). Each pairing with two players becomes a match at its round's target, due at `startsAt`. With an entry fee, every entry pays it to the house, which holds the prize pool (R9.9). Honours `If-Match`. Emits `tournament.updated` and a `table.created` per match.",
  })
  @ApiBody({
    type: DrawDto,
    examples: {
      rating: { summary: 'Seeded by club rating', value: { seeding: 'rating' } },
      random: { summary: 'At random, reproducibly', value: { seeding: 'random', randomSeed: 20261211 } },
    },
  })
  @ApiOkResponse({ type: TournamentDto })
  @ApiProblem(404, 'No such tournament in this club (NOT_FOUND).')
  @ApiProblem(412, IF_MATCH_412)
  @ApiProblem(
    422,
    'Drawn already (TOURNAMENT_NOT_OPEN, R9.2), a flight has fewer than two entries (TOO_FEW_ENTRIES, R9.2), the seeds given are not 1 to n (INVALID_SEEDS, R9.3), or the session is closed (SESSION_CLOSED, R6.7).',
  )
  draw(@Command() cmd: CommandContext, @ClubKey() auth: KeyAuth, @Param('id', new UuidParam('Tournament')) id: string, @IfMatch() ifMatch: number | '*' | undefined, @Body() dto: DrawDto) {
    return this.tournaments.draw(cmd, auth, id, ifMatch, dto);
  }
}
