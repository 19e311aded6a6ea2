import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROUTE_KIND_NAMES, type RouteKind } from '../domain/table-kinds';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export class CreateBoardDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Club room TV' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ format: 'uuid', description: "The session the board shows: its tables, standings and results. Without one, the club's tables in play." })
  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A tournament whose bracket or Swiss standings the board shows beside the tables.' })
  @IsOptional()
  @IsUUID()
  tournamentId?: string;
}

export class BoardLinkDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Club room TV' })
  name: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  sessionId: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  tournamentId: string | null;

  @ApiProperty({ description: "The token's last four characters, to tell links apart.", example: 'x9Qa' })
  hint: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the link was revoked; null while it works.' })
  revokedAt: string | null;
}

export class CreatedBoardLinkDto extends BoardLinkDto {
  @ApiProperty({ description: "The link's read-only token. Shown only in this answer: it is the secret part of `url`.", example: 'bgk_…' })
  token: string;

  @ApiProperty({ description: "The board page to open on the screen (the path with this request's host).", example: 'http://club.example:3000/board/bgk_…' })
  url: string;

  @ApiProperty({ description: 'The same page as a path, for a client that knows the host better.', example: '/board/bgk_…' })
  path: string;
}

// ---- the board's own answer ---------------------------------------------------------------

export class BoardCubeDto {
  @ApiProperty({ example: 2 })
  value: number;

  @ApiProperty({ nullable: true, type: String, description: 'The name of who owns the cube; null while centred.' })
  owner: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'In a chouette, the team member whose cube this is (R5.3); null elsewhere.' })
  member: string | null;
}

export class BoardTableDto {
  @ApiProperty({ enum: ROUTE_KIND_NAMES })
  kind: RouteKind;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'backgammon' })
  variant: string;

  @ApiProperty({ enum: ['in-progress', 'finished'] })
  status: 'in-progress' | 'finished';

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: "The players' names by side, side 0 first (a chouette: the box and his partner, then the team in line order).",
  })
  sides: string[][];

  @ApiProperty({ type: [Number], nullable: true, description: "A match's score, side 0 first (R3.1); null at other tables." })
  score: number[] | null;

  @ApiProperty({ nullable: true, type: Number, description: "A match's target; null at other tables." })
  target: number | null;

  @ApiProperty({ description: 'The game in progress is the Crawford game (R3.4).' })
  crawford: boolean;

  @ApiProperty({ nullable: true, type: Number, description: 'The game in progress, or null between games.' })
  gameNo: number | null;

  @ApiProperty({ type: [BoardCubeDto], description: "The game in progress's cubes (one; a chouette's team members each have theirs, R5.3); empty between games." })
  cubes: BoardCubeDto[];

  @ApiProperty({ nullable: true, type: String, description: 'A chouette: the player in the box (R5.2).' })
  box: string | null;

  @ApiProperty({ nullable: true, type: String, description: "A chouette: the box's partner, when the rules give him one (R5.9)." })
  partner: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'A chouette: the captain (R5.7).' })
  captain: string | null;

  @ApiProperty({ type: [String], description: 'A chouette: the team in line order, captain first (R5.7); empty elsewhere.' })
  team: string[];

  @ApiProperty({ nullable: true, type: String, description: 'A tournament match: "<tournament> · round <n>"; null otherwise.' })
  tournament: string | null;
}

export class BoardPairingDto {
  @ApiProperty({ example: 1 })
  no: number;

  @ApiProperty({ type: [String], description: 'The two names, side 0 first; an empty string for a place still to be decided.' })
  sides: string[];

  @ApiProperty({ type: [Number], nullable: true, description: 'The match score, side 0 first, once it has one.' })
  score: number[] | null;

  @ApiProperty({ nullable: true, type: Number, enum: [0, 1], description: 'The winning side once decided.' })
  winnerSide: number | null;

  @ApiProperty({ description: 'A bye (R9.3): side 0 goes through without a match.' })
  bye: boolean;
}

export class BoardRoundDto {
  @ApiProperty({ example: 1 })
  no: number;

  @ApiProperty({ type: [BoardPairingDto] })
  pairings: BoardPairingDto[];
}

export class BoardFlightStandingDto {
  @ApiProperty({ nullable: true, type: Number })
  place: number | null;

  @ApiProperty()
  name: string;

  @ApiProperty()
  wins: number;

  @ApiProperty({ description: 'Swiss tiebreak (R9.4).' })
  buchholz: number;
}

export class BoardFlightDto {
  @ApiProperty({ example: 'main' })
  name: string;

  @ApiProperty({ enum: ['open', 'running', 'finished'] })
  status: string;

  @ApiProperty({ type: [BoardRoundDto], description: 'The main bracket, or the Swiss rounds.' })
  rounds: BoardRoundDto[];

  @ApiProperty({ type: [BoardFlightStandingDto] })
  standings: BoardFlightStandingDto[];
}

export class BoardTournamentDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ['knockout', 'swiss'] })
  format: string;

  @ApiProperty({ enum: ['open', 'running', 'finished'] })
  status: string;

  @ApiProperty({ type: [BoardFlightDto] })
  flights: BoardFlightDto[];
}

export class BoardStandingDto {
  @ApiProperty({ example: 1 })
  rank: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'The net in minor units (R6.5).' })
  netMinor: number;

  @ApiProperty()
  gamesPlayed: number;

  @ApiProperty()
  gamesWon: number;
}

export class BoardResultDto {
  @ApiProperty({ format: 'date-time' })
  endedAt: string;

  @ApiProperty({ enum: ROUTE_KIND_NAMES })
  kind: string;

  @ApiProperty({ type: [String], description: 'Who played, side 0 first.' })
  players: string[];

  @ApiProperty({ nullable: true, type: String, description: "The winner's name (a chouette: the box, or the team)." })
  winner: string | null;

  @ApiProperty({ nullable: true, type: Number, description: 'Points won; null in a chouette.' })
  points: number | null;
}

export class BoardDto {
  @ApiProperty({ type: BoardLinkDto })
  board: BoardLinkDto;

  @ApiProperty({ example: 'Riverside Backgammon Club' })
  clubName: string;

  @ApiProperty({ nullable: true, type: String })
  sessionName: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'The session currency (ISO 4217), for the standings.' })
  currency: string | null;

  @ApiProperty({ description: 'The place in the event log this answer reflects: every event up to it is in it (resume the stream from here).' })
  asOf: string;

  @ApiProperty({ type: [BoardTableDto], description: 'The tables in play (at most 48).' })
  tables: BoardTableDto[];

  @ApiProperty({ type: BoardTournamentDto, nullable: true })
  tournament: BoardTournamentDto | null;

  @ApiProperty({ type: [BoardStandingDto], description: "The session's standings (R6.5); empty without a session." })
  standings: BoardStandingDto[];

  @ApiProperty({ type: [BoardResultDto], description: 'The latest finished games, newest first (at most 10).' })
  results: BoardResultDto[];
}

export class BoardStreamQuery {
  @ApiPropertyOptional({ description: "The board link's token, for a client that cannot send an Authorization header (EventSource). Never logged." })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @ApiPropertyOptional({ description: 'The id of the last event received, for a client that cannot send Last-Event-ID.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  lastEventId?: string;
}
