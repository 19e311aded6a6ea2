import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { MoneyMinor, OptionalNullable } from '../common/validation';
import { GameSummaryDto, MoneyRulesDto } from './tables.dto';

// ---- requests ---------------------------------------------------------------------

export class RollOffEntryDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  playerId: string;

  @ApiProperty({ description: "The player's roll in the roll-off (R5.1), highest first.", minimum: 1, example: 5 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  roll: number;
}

/** Exactly one of `rolls`, `order` or `shuffle` (R5.1); the domain refuses anything else (422 INVALID_SEATING). */
export class ChouetteSeatingDto {
  @ApiPropertyOptional({ type: [RollOffEntryDto], description: 'The roll-off: highest roll is box, next captain, then the team in order. A tie is refused (ROLL_OFF_TIE) until re-rolled.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(12)
  @ValidateNested({ each: true })
  @Type(() => RollOffEntryDto)
  rolls?: RollOffEntryDto[];

  @ApiPropertyOptional({ type: [String], description: 'An explicit order: box, captain, then the team in order.', items: { type: 'string', format: 'uuid' } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(12)
  @IsUUID(undefined, { each: true })
  order?: string[];

  @ApiPropertyOptional({ type: [String], description: 'The players, seated in a server-side random order.', items: { type: 'string', format: 'uuid' } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(12)
  @IsUUID(undefined, { each: true })
  shuffle?: string[];
}

export class PlayerStakeDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  playerId: string;

  @ApiProperty({ description: "This player's stake per point in minor units (R5.11).", minimum: 0, example: 100 })
  @MoneyMinor()
  stakeMinor: number;
}

/** R5.12: the money settings (R4.3) plus the chouette's own. */
export class ChouetteRulesDto extends MoneyRulesDto {
  @ApiPropertyOptional({ description: 'R5.3 one cube per member, or the classic single team cube.', enum: ['per-member', 'single'], default: 'per-member' })
  @IsOptional()
  @IsIn(['per-member', 'single'])
  cubes?: 'per-member' | 'single';

  @ApiPropertyOptional({ description: 'R5.9 seated players from which the box takes a partner; null: never.', nullable: true, type: Number, default: null, minimum: 3, maximum: 12 })
  @OptionalNullable()
  @IsInt()
  partnerFrom?: number | null;

  @ApiPropertyOptional({ description: "R5.9 the partner's percentage of the box's money for each game.", default: 50, minimum: 0, maximum: 100 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  partnerShare?: number;
}

export class CreateChouetteDto {
  @ApiProperty({ format: 'uuid', description: 'The session the chouette belongs to (R6.1).' })
  @IsUUID()
  sessionId: string;

  @ApiProperty({ description: 'Stake per point in minor units of the session currency (R5.11).', minimum: 0, example: 100 })
  @MoneyMinor()
  stakeMinor: number;

  @ApiProperty({
    type: ChouetteSeatingDto,
    description: 'Exactly one of `{ rolls }`, `{ order }` or `{ shuffle }`, naming 3 to 12 players (R5.1).',
    example: { order: ['0190c3a2-0000-7000-8000-000000000001', '0190c3a2-0000-7000-8000-000000000002', '0190c3a2-0000-7000-8000-000000000003'] },
  })
  @ValidateNested()
  @Type(() => ChouetteSeatingDto)
  seating: ChouetteSeatingDto;

  @ApiPropertyOptional({
    type: [PlayerStakeDto],
    description: 'R5.11 per-player stakes; a member and the box play at the lower of their two stakes. Players not listed play at `stakeMinor`.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PlayerStakeDto)
  stakes?: PlayerStakeDto[];

  @ApiPropertyOptional({ type: ChouetteRulesDto, description: 'Settings (R5.12); defaults as listed.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChouetteRulesDto)
  rules?: ChouetteRulesDto;
}

export class JoinChouetteDto {
  @ApiProperty({ format: 'uuid', description: 'The player who joins at the end of the team line (R5.8).' })
  @IsUUID()
  playerId: string;
}

// ---- responses --------------------------------------------------------------------

export class ChouetteRulesStateDto {
  @ApiProperty({ enum: ['per-member', 'single'] }) cubes: 'per-member' | 'single';
  @ApiProperty() jacoby: boolean;
  @ApiProperty() beavers: boolean;
  @ApiProperty() raccoons: boolean;
  @ApiProperty() automaticDoubles: number;
  @ApiProperty({ type: Number, nullable: true }) cubeLimit: number | null;
  @ApiProperty({ enum: [2, 3] }) backgammonMultiplier: number;
  @ApiProperty({ type: Number, nullable: true, description: 'R5.9; null: no partner.' }) partnerFrom: number | null;
  @ApiProperty({ description: 'R5.9 percentage.' }) partnerShare: number;
}

export class ChouettePlayerDto {
  @ApiProperty({ format: 'uuid' }) playerId: string;
  @ApiProperty({ description: "The player's net at this chouette, after rake (R5.5, R6.4).", example: -200 }) netMinor: number;
}

export class ChouetteDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({
    format: 'uuid',
    description:
      'The box (R5.2). Box, partner, captain and team are the seats of the game in progress while one is (its partner taken at its start, R5.9), else the seats for the next game.',
  })
  box: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The box's partner (R5.9), or null." }) partner: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The captain (first of the line); null when the team is empty.' }) captain: string | null;
  @ApiProperty({ type: [String], items: { type: 'string', format: 'uuid' }, description: 'The team in line order, captain first (R5.7).' }) team: string[];
  @ApiProperty({ type: ChouetteRulesStateDto }) rules: ChouetteRulesStateDto;
  @ApiProperty({ description: "The table's stake per point (R5.11)." }) stakeMinor: number;
  @ApiProperty({ type: [PlayerStakeDto], description: 'Per-player stakes (R5.11).' }) stakes: PlayerStakeDto[];
  @ApiProperty({ description: 'The session currency.' }) currency: string;
  @ApiProperty({ type: [ChouettePlayerDto], description: 'Everybody who has sat at the chouette, seated or not, with his net.' }) players: ChouettePlayerDto[];
  @ApiProperty({ enum: ['in-progress', 'finished'] }) status: 'in-progress' | 'finished';
  @ApiProperty({ type: Number, nullable: true, description: 'The game in progress, if any.' }) currentGameNo: number | null;
  @ApiProperty({ type: [GameSummaryDto] }) games: GameSummaryDto[];
  @ApiProperty() version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
