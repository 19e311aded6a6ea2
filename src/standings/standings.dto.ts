import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GAME_VARIANTS, VARIANT_RESULTS, type GameVariant, type VariantResult } from '../domain/variants';
import { TABLE_KINDS, type TableKind } from '../domain/table-kinds';
import { MatchEndDto } from '../tables';

// ---- standings ----------------------------------------------------------------------

export class StandingDto {
  @ApiProperty({
    description: 'Competition rank ("1224"): players with the same net and the same games won share a rank, and the next rank skips the places they share.',
    minimum: 1,
    example: 2,
  })
  rank: number;

  @ApiProperty({ format: 'uuid' })
  playerId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: "The player's net for the session, after rake, as in its settlement statement (R6.4, R6.5); minor units of the session currency.", example: 1500 })
  netMinor: number;

  @ApiProperty({ description: 'Finished games the player played in the session (voided and abandoned games do not count).', example: 12 })
  gamesPlayed: number;

  @ApiProperty({
    description:
      "Of those, games won: on the winning side (a pair wins together); in a chouette each member's game is his own cube's (R5.4, R5.5): won when his cube won, lost when he passed a box double or lost at the finish; the box and his partner win when the box's cubes net him points, lose when they net him a loss, neither when even (the `winners` of the session's games).",
    example: 7,
  })
  gamesWon: number;

  @ApiProperty({ description: "Finished matches the player's side won in the session, forfeits by the other side included (R3.9); a pair's match counts for both partners.", example: 2 })
  matchesWon: number;

  @ApiProperty({ description: "Finished matches the player's side lost, its own forfeits included (R3.9).", example: 1 })
  matchesLost: number;

  @ApiProperty({ description: 'Of `matchesWon`, those the other side forfeited (R3.9: no-show, lateness, time, disqualification, withdrawal, concession, or penalties, R3.6).', example: 1 })
  forfeitsWon: number;

  @ApiProperty({ description: "Of `matchesLost`, those the player's own side forfeited (R3.9).", example: 0 })
  forfeitsLost: number;
}

export class StandingsDto {
  @ApiProperty({ format: 'uuid' })
  sessionId: string;

  @ApiProperty()
  sessionName: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({
    type: [StandingDto],
    description:
      "Everyone in the session's settlement statement (seated at one of its tables, or named in its ledger or payments), the house left out; by net (highest first), then games won (most first), then name, then id.",
  })
  items: StandingDto[];
}

// ---- the session's games ----------------------------------------------------------------

export class SessionGameResultDto {
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The player named in the `finish`: any player of the winning side. Null for a Plakoto draw, which has no winner (R8.3).',
  })
  winner: string | null;

  @ApiProperty({
    enum: VARIANT_RESULTS,
    description:
      "The result in the game's variant: `single`, `gammon`, `backgammon` (R1.1); long nardy `oin` or `mars` (R8.1); Plakoto `mother` or `draw` (R8.3); Tavla 31 `single` with `checkersLeft` (R8.6).",
  })
  result: VariantResult;

  @ApiProperty({ description: 'R1.4: ended by a resignation at that level.' })
  resigned: boolean;

  @ApiPropertyOptional({ description: 'Tavla 31 only (R8.6): the checkers the loser still had on the board, the points the game scored.', minimum: 1, maximum: 15, example: 7 })
  checkersLeft?: number;
}

export class SessionGameDto {
  @ApiProperty({ enum: TABLE_KINDS })
  tableKind: TableKind;

  @ApiProperty({ format: 'uuid' })
  tableId: string;

  @ApiProperty({ description: "The game's number at its table.", example: 3 })
  gameNo: number;

  @ApiProperty({
    enum: GAME_VARIANTS,
    description: "The game's own variant (R8, R8.9): a Tavli table's games are each Portes, Plakoto or Fevga (R8.5); chouettes and games recorded before variants are backgammon.",
    example: 'backgammon',
  })
  variant: GameVariant;

  @ApiProperty({ enum: ['finished', 'voided', 'abandoned'], description: 'Games in progress are not listed.' })
  status: 'finished' | 'voided' | 'abandoned';

  @ApiProperty({
    type: [String],
    description: "Who played, side 0 first: a match's or money game's sides in order; a chouette's box, partner, then the team in line order, as seated at the start of the game.",
  })
  players: string[];

  @ApiProperty({
    type: Number,
    nullable: true,
    enum: [0, 1],
    description:
      'Match and money: the index of the winning side; chouette: 0 = the box side, 1 = the team. A voided game keeps what it was. Null when the game has no winner (abandoned, or a Plakoto draw, R8.3).',
  })
  winnerSide: 0 | 1 | null;

  @ApiProperty({
    type: [String],
    description:
      "Who won the game (empty without a winner, as after a Plakoto draw, R8.3): the winning side; in a chouette each member's game is his own cube's (R5.4, R5.5): won when his cube won, lost when he passed a box double or lost at the finish; the box and his partner win when the box's cubes net him points, lose when they net him a loss, neither when even. Side 0 first, then side 1.",
  })
  winners: string[];

  @ApiProperty({ type: SessionGameResultDto, nullable: true, description: 'How a `finish` ended it; null after a pass (R1.3) and for an abandoned game.' })
  result: SessionGameResultDto | null;

  @ApiProperty({ type: String, nullable: true, enum: ['finish', 'pass'], description: '`pass`: ended by a pass (in a chouette, by passes on every cube). Null for an abandoned game.' })
  endedBy: 'finish' | 'pass' | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "What the game was worth to its winner (cube × result, or the pre-double value after a pass; a Tavla 31 game's `checkersLeft`, R8.6; 0 for a Plakoto draw, R8.3); null in a chouette and for an abandoned game.",
  })
  points: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why a voided game was voided (R6.3).' })
  voidReason: string | null;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  endedAt: string | null;

  @ApiProperty({
    type: MatchEndDto,
    nullable: true,
    description:
      "On a finished match's last game, whatever that game's status (a forfeit mid-game closes it as abandoned): how the match ended, as the match shows it (R3.2, R3.9). Null on every other row. A match ended before any game was started has no row; the match and the settlement statement's `matches` show it.",
  })
  matchEndedBy: MatchEndDto | null;
}
