import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination';
import { MoneyMinor } from '../common/validation';
import { VARIANT_NAMES, type VariantName } from '../domain/game-variants';
import { MAX_BOARDS } from '../domain/team-event';
import { MatchEndDto, MatchRulesDto, MatchRulesStateDto } from '../tables';

// ---- requests ---------------------------------------------------------------------

export class TeamInputDto {
  @ApiProperty({ description: "The team's name.", maxLength: 100, example: 'North' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_BOARDS,
    description: `The team's players in board order: the first plays board 1, and so on. Both teams name the same odd number of players (1, 3, 5, … up to ${MAX_BOARDS}), and nobody plays twice (R3.7).`,
    example: ['0190c3a2-0000-7000-8000-000000000001', '0190c3a2-0000-7000-8000-000000000002', '0190c3a2-0000-7000-8000-000000000003'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BOARDS)
  @IsUUID(undefined, { each: true })
  players: string[];
}

export class CreateTeamEventDto {
  @ApiPropertyOptional({ description: 'A name for the event.', maxLength: 200, example: 'Inter-club, round 1' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The session the event (and every board match) belongs to; needed for a stake (R3.8).' })
  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @ApiProperty({ description: "Every board's match target: in backgammon an odd number from 1 to 63 (R3.1); in another variant its range (R8.7).", example: 3 })
  @IsInt()
  target: number;

  @ApiPropertyOptional({
    enum: VARIANT_NAMES,
    default: 'backgammon',
    description: 'R8: the game every board plays; each board match carries it, as a match created with this `variant` would.',
  })
  @IsOptional()
  @IsIn(VARIANT_NAMES)
  variant?: VariantName;

  @ApiPropertyOptional({ type: MatchRulesDto, description: "Every board's match settings, as for a match; money-only settings must be off (R2.8)." })
  @IsOptional()
  @ValidateNested()
  @Type(() => MatchRulesDto)
  rules?: MatchRulesDto;

  @ApiPropertyOptional({
    description:
      'R3.8 stake per board, in minor units: each board match carries it, and when a board match ends its loser pays it to its winner through the session ledger (R6). There is no separate stake on the event as a whole. Needs sessionId.',
    minimum: 0,
    example: 500,
  })
  @IsOptional()
  @MoneyMinor()
  stakeMinor?: number;

  @ApiProperty({
    type: [TeamInputDto],
    minItems: 2,
    maxItems: 2,
    description: 'The two teams, team 0 first. Board i is a match between the i-th player of team 0 (side 0) and the i-th player of team 1 (side 1).',
  })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => TeamInputDto)
  teams: TeamInputDto[];
}

export class TeamEventListQuery extends ListQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the events of this session.' })
  @IsOptional()
  @IsUUID()
  sessionId?: string;
}

// ---- responses --------------------------------------------------------------------

export class TeamDto {
  @ApiProperty({ description: "The team's name.", example: 'North' })
  name: string;

  @ApiProperty({ type: [String], description: 'Its players in board order.' })
  players: string[];
}

export class TeamEventBoardDto {
  @ApiProperty({ description: 'The board number, from 1.', example: 1 })
  boardNo: number;

  @ApiProperty({ format: 'uuid', description: "The board's match: an ordinary match, played through /v1/matches/{id}/games." })
  matchId: string;

  @ApiProperty({
    type: [String],
    minItems: 2,
    maxItems: 2,
    description: "Team 0's player (the match's side 0) and team 1's player (side 1).",
  })
  players: string[];

  @ApiProperty({ type: [Number], description: 'The match score, side 0 (team 0) first (R3.2).', example: [2, 1] })
  score: number[];

  @ApiProperty({ enum: ['in-progress', 'finished'], description: "The match's status." })
  status: 'in-progress' | 'finished';

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 1, description: 'The team whose player won the board match; null while it is not over.' })
  winnerTeam: 0 | 1 | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the board match ended; null while it is not over.' })
  endedAt: string | null;

  @ApiProperty({ type: MatchEndDto, nullable: true, description: 'How the board match ended, by points or by a forfeit (R3.2, R3.9), as the match shows it; null while it is not over.' })
  endedBy: MatchEndDto | null;
}

export class TeamEventDto {
  @ApiProperty({ format: 'uuid', description: "The event's id." })
  id: string;

  @ApiProperty({ type: String, nullable: true, description: "The event's name, if it was given one." })
  name: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The session of the event and its board matches (null without a stake).' })
  sessionId: string | null;

  @ApiProperty({ description: "Every board's match target (R3.1).", example: 3 })
  target: number;

  @ApiProperty({ enum: VARIANT_NAMES, description: 'R8: the game every board plays (backgammon unless the event was created with another).', example: 'backgammon' })
  variant: VariantName;

  @ApiProperty({ type: MatchRulesStateDto, description: "Every board's match settings." })
  rules: MatchRulesStateDto;

  @ApiProperty({ type: Number, nullable: true, description: "The stake per board match (R3.8), paid by each board's loser to its winner; null: none." })
  stakeMinor: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'The session currency (null without a session).' })
  currency: string | null;

  @ApiProperty({ type: [TeamDto], description: 'The two teams, team 0 first.' })
  teams: TeamDto[];

  @ApiProperty({ type: [TeamEventBoardDto], description: "The boards in order, each with its match's state." })
  boards: TeamEventBoardDto[];

  @ApiProperty({ type: [Number], description: 'Boards won by team 0 and by team 1 (R3.7).', example: [2, 0] })
  score: number[];

  @ApiProperty({ description: 'Boards a team must win to win the event: more than half of them (R3.7).', example: 2 })
  majority: number;

  @ApiProperty({
    enum: ['in-progress', 'decided', 'finished'],
    description:
      '`decided` once a team has won a majority of the boards, even while other boards are still being played; `finished` once every board match is over. Derived from the board matches: voiding a game that reopens a board can make a decided event in-progress again (R3.7, R6.3).',
  })
  status: 'in-progress' | 'decided' | 'finished';

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 1, description: 'The team holding a majority of the boards; null while undecided.' })
  winnerTeam: 0 | 1 | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the board that gave the winner its majority ended; null while undecided.' })
  decidedAt: string | null;

  @ApiProperty({ description: 'Changes whenever the event or one of its board matches changes (also the ETag).', example: 4 })
  version: number;

  @ApiProperty({ format: 'date-time', description: 'When the event was created.' })
  createdAt: string;
}
