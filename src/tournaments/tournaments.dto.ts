import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import { ListQuery } from '../common/pagination';
import { MoneyMinor, OptionalNullable } from '../common/validation';
import { MAX_FLIGHT_ENTRIES } from '../domain/tournament-commands';
import { VARIANTS, type Variant } from '../domain/variants';
import { MatchEndDto, VariantMatchRulesDto, VariantMatchRulesStateDto } from '../tables';

/** The most entries a flight takes (a 256-place bracket, R9.2). */
export const MAX_ENTRIES = MAX_FLIGHT_ENTRIES;
/** The most Swiss rounds. */
export const MAX_ROUNDS = 15;
/** The most flights. */
export const MAX_FLIGHTS = 8;

const isPercentList = (v: unknown): v is number[] => Array.isArray(v) && v.length >= 1 && v.length <= 32 && v.every((p) => Number.isInteger(p) && p >= 0 && p <= 100);

/** `[70, 30]`, or `{ main: [40, 25], consolation: [25, 10] }` (R9.9, R9.11). */
function IsPayouts() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isPayouts',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a list of whole percentages (0 to 100), or { main: [...], consolation: [...] }` },
      validator: {
        validate: (v: unknown) => {
          if (v === undefined) return true;
          if (isPercentList(v)) return true;
          if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
          const o = v as Record<string, unknown>;
          return Object.keys(o).every((k) => k === 'main' || k === 'consolation') && isPercentList(o.main) && isPercentList(o.consolation);
        },
      },
    });
}

export class SplitPayoutsDto {
  @ApiProperty({ type: [Number], description: 'The main bracket: 1st, 2nd, … in percent.', example: [40, 25] }) main: number[];
  @ApiProperty({ type: [Number], description: 'The consolation bracket (R9.11): 1st, 2nd, … in percent.', example: [25, 10] }) consolation: number[];
}

// ---- requests ---------------------------------------------------------------------

export class CreateTournamentDto {
  @ApiProperty({ maxLength: 120, example: 'Friday knockout' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name: string;

  @ApiProperty({ enum: ['knockout', 'swiss'], description: '`knockout`: single elimination (R9.3); `swiss`: a fixed number of rounds (R9.4).' })
  @IsIn(['knockout', 'swiss'])
  format: 'knockout' | 'swiss';

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ROUNDS, description: 'Swiss only, and required there: the number of rounds (R9.1).', example: 3 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ROUNDS)
  rounds?: number;

  @ApiProperty({
    type: [Number],
    minItems: 1,
    maxItems: 16,
    description: 'The match target of each round, from round 1; the last one is used for every later round (R9.1). Each is a valid target for the variant (R3.1, R8.7).',
    example: [5, 5, 7],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(16)
  @IsInt({ each: true })
  targets: number[];

  @ApiPropertyOptional({ enum: VARIANTS, description: 'R8: the game every match plays; backgammon unless given.' })
  @IsOptional()
  @IsIn(VARIANTS)
  variant?: Variant;

  @ApiPropertyOptional({ type: VariantMatchRulesDto, description: "Every match's settings (R3), as `POST /v1/matches` takes them." })
  @IsOptional()
  @ValidateNested()
  @Type(() => VariantMatchRulesDto)
  rules?: VariantMatchRulesDto;

  @ApiPropertyOptional({ format: 'uuid', description: "The session whose ledger takes the entry fees and prizes (R9.9); needed for an entry fee. The tournament's matches are in it." })
  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @ApiPropertyOptional({
    minimum: 0,
    description: "R9.9: each entry's fee in minor units of the session currency, paid into its flight's prize pool at the draw. Needs sessionId.",
    example: 2000,
  })
  @IsOptional()
  @MoneyMinor()
  entryFeeMinor?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 100,
    description: "R9.9: the house's commission, a whole percentage of the pool (rounded down to the minor unit). 0 unless given.",
    example: 10,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  housePercent?: number;

  @ApiPropertyOptional({
    oneOf: [{ type: 'array', items: { type: 'integer', minimum: 0, maximum: 100 } }, { $ref: getSchemaPath(SplitPayoutsDto) }],
    description:
      'R9.9: what the places are paid, in whole percent of what the house leaves, 1st place first, adding up to 100 (`[70, 30]`). With `consolation`, `{ main: [...], consolation: [...] }` together adding up to 100 (R9.11). `[100]` unless given.',
    example: [70, 30],
  })
  @IsOptional()
  @IsPayouts()
  payouts?: number[] | { main: number[]; consolation: number[] };

  @ApiPropertyOptional({ description: 'R9.11 (knockout only): run a consolation bracket of the players who lose their first match.', default: false })
  @IsOptional()
  @IsBoolean()
  consolation?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_FLIGHTS,
    description: "R9.1: the flights' names, each its own draw, standings and prize pool; one flight called `main` unless given.",
    example: ['open', 'intermediate'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FLIGHTS)
  @ArrayUnique()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(60, { each: true })
  flights?: string[];

  @ApiPropertyOptional({
    format: 'date-time',
    description: "When round 1 starts (RFC 3339; answered in UTC): its matches' `scheduledAt`, from which lateness counts (R9.6). The draw's time unless given.",
    example: '2026-12-11T19:30:00+01:00',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  startsAt?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 1440,
    description:
      'Minutes from the start of one round to the start of the next: round n is scheduled at `startsAt` + (n − 1) × this. Without it a later round is scheduled when its match is created.',
    example: 60,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1440)
  roundMinutes?: number;
}

export class EntryDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  playerId: string;

  @ApiPropertyOptional({ maxLength: 60, description: 'The flight to enter (R9.2); the first flight unless given.', example: 'main' })
  @IsOptional()
  @IsString()
  @MaxLength(60)
  flight?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ENTRIES, description: 'The player\'s seed, for a draw with `seeding: "given"` (R9.3).', example: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ENTRIES)
  seed?: number;
}

export class MoveEntryDto {
  @ApiPropertyOptional({ maxLength: 60, description: 'The flight to move the player to, before the draw (R9.2).', example: 'intermediate' })
  @IsOptional()
  @IsString()
  @MaxLength(60)
  flight?: string;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: MAX_ENTRIES, description: 'A new seed for a `given` draw (R9.3), or null to clear it.' })
  @OptionalNullable()
  @IsInt()
  @Min(1)
  @Max(MAX_ENTRIES)
  seed?: number | null;
}

export class WithdrawDto {
  @ApiProperty({ enum: ['withdrawal', 'disqualification'], description: 'R9.8: the player withdraws, or the director disqualifies him.' })
  @IsIn(['withdrawal', 'disqualification'])
  reason: 'withdrawal' | 'disqualification';

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, description: "The director's note, kept with the forfeit of his match." })
  @OptionalNullable()
  @IsString()
  @MaxLength(500)
  note?: string | null;
}

export class DrawDto {
  @ApiProperty({
    enum: ['rating', 'given', 'random'],
    description: 'R9.3: seeds by club rating (higher first, ties by entry order), as given on the entries, or at random from `randomSeed`.',
  })
  @IsIn(['rating', 'given', 'random'])
  seeding: 'rating' | 'given' | 'random';

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 4294967295,
    description: 'With `random`: the number the draw is made from (the same number gives the same draw). 0 unless given.',
    example: 20261211,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(4294967295)
  randomSeed?: number;
}

export class TournamentListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: ['open', 'running', 'finished'], description: 'Only tournaments in this status.' })
  @IsOptional()
  @IsIn(['open', 'running', 'finished'])
  status?: 'open' | 'running' | 'finished';

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the tournaments of this session.' })
  @IsOptional()
  @IsUUID()
  sessionId?: string;
}

// ---- responses --------------------------------------------------------------------

export class TournamentEntryDto {
  @ApiProperty({ format: 'uuid', description: 'The player entered.' }) playerId: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The seed (R9.3): as given before the draw, as drawn after it.' }) seed: number | null;
  @ApiProperty({ enum: ['in', 'out', 'withdrawn', 'disqualified'], description: '`out`: knocked out (R9.3); `withdrawn` or `disqualified`: left the event (R9.8).' })
  status: 'in' | 'out' | 'withdrawn' | 'disqualified';
}

export class TournamentPairingDto {
  @ApiProperty({ description: 'The pairing within its round, from 1 (top of the bracket first).' }) no: number;
  @ApiProperty({
    type: 'array',
    nullable: true,
    items: { type: 'array', items: { type: 'string', format: 'uuid' } },
    description: 'The two sides once both are known, side 0 first (the better seed or ranking); null while a feeder is undecided, and for a bye.',
  })
  sides: string[][] | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid', nullable: true },
    description: 'Knockout: the players known so far, upper feeder first (null where still undecided).',
  })
  slots: Array<string | null>;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The player who wins the pairing without a match (R9.3, R9.4).' }) bye: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The match it is played as, once created (R9.5).' }) matchId: string | null;
  @ApiProperty({ type: Number, nullable: true, enum: [0, 1], description: 'The winning side once decided (a walkover too, R9.8).' }) winnerSide: 0 | 1 | null;
  @ApiProperty({ type: MatchEndDto, nullable: true, description: 'How it was decided (R3.2, R3.9); a walkover is a `forfeit` for `withdrawal`.' }) endedBy: MatchEndDto | null;
  @ApiProperty({ type: [Number], nullable: true, description: "The match's final score, side 0 first." }) score: number[] | null;
}

export class TournamentRoundDto {
  @ApiProperty({ description: 'The round, from 1.' }) no: number;
  @ApiProperty({ description: "The round's match target (R9.1)." }) target: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: "When the round's matches are due (R9.5, R9.6)." }) scheduledAt: string | null;
  @ApiProperty({ type: [TournamentPairingDto], description: 'From the top of the bracket (knockout) or the best-ranked first, the bye last (Swiss).' }) pairings: TournamentPairingDto[];
}

export class TournamentStandingDto {
  @ApiProperty({ format: 'uuid', description: 'The player.' }) playerId: string;
  @ApiProperty({ type: Number, nullable: true, description: 'R9.5: Swiss: the ranking; knockout: once decided (3rd equal, 5th equal, …).' }) place: number | null;
  @ApiProperty({ description: 'Pairings won, byes and walkovers included.' }) wins: number;
  @ApiProperty({ description: 'R9.4: the wins of the opponents met, added up; a bye adds nothing.' }) buchholz: number;
  @ApiProperty({ description: 'Match points won.' }) pointsFor: number;
  @ApiProperty({ description: 'Match points lost.' }) pointsAgainst: number;
}

export class TournamentPrizeDto {
  @ApiProperty({ format: 'uuid', description: 'The winner of the prize.' }) playerId: string;
  @ApiProperty({ description: 'The place it pays (equal places share, R9.9).' }) place: number;
  @ApiProperty({ enum: ['main', 'consolation'], description: 'The bracket whose place it is (R9.11).' }) bracket: 'main' | 'consolation';
  @ApiProperty({ description: 'Minor units of the session currency (R9.9).' }) amountMinor: number;
}

export class ConsolationDto {
  @ApiProperty({ type: [TournamentRoundDto], description: "The consolation bracket's rounds (R9.11)." }) rounds: TournamentRoundDto[];
  @ApiProperty({ type: [TournamentStandingDto], description: 'Its places once decided (R9.5).' }) standings: TournamentStandingDto[];
}

export class FlightDto {
  @ApiProperty({ example: 'main', description: "The flight's name (R9.1)." }) name: string;
  @ApiProperty({ enum: ['open', 'running', 'finished'], description: '`open` before the draw, `finished` once its brackets are decided (R9.5).' }) status: 'open' | 'running' | 'finished';
  @ApiProperty({ type: [TournamentEntryDto], description: 'In entry order before the draw, in seed order after it.' }) entries: TournamentEntryDto[];
  @ApiProperty({ type: [TournamentRoundDto], description: 'Knockout: every round of the bracket from the draw on; Swiss: each round once paired.' }) rounds: TournamentRoundDto[];
  @ApiProperty({ type: ConsolationDto, nullable: true, description: 'R9.11: the consolation bracket once drawn.' }) consolation: ConsolationDto | null;
  @ApiProperty({ type: [TournamentStandingDto], description: 'R9.4, R9.5: Swiss: the ranking; knockout: placed players by place, then those still in, each by seed.' })
  standings: TournamentStandingDto[];
  @ApiProperty({ description: 'R9.9: entries × fee, from the draw on (0 before it, or without a fee).' }) prizePoolMinor: number;
  @ApiProperty({ description: "R9.9: the house's commission out of the pool." }) houseMinor: number;
  @ApiProperty({ type: [TournamentPrizeDto], description: 'R9.9: the prizes, as posted once the flight finished (empty before).' }) prizes: TournamentPrizeDto[];
}

export class TournamentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'As the director named it.' }) name: string;
  @ApiProperty({ enum: ['knockout', 'swiss'], description: 'R9.1: single elimination (R9.3) or Swiss rounds (R9.4).' }) format: 'knockout' | 'swiss';
  @ApiProperty({ enum: ['open', 'running', 'finished'], description: '`open` until the draw; `finished` when every flight is.' }) status: 'open' | 'running' | 'finished';
  @ApiProperty({ type: Number, nullable: true, description: 'Swiss: the number of rounds.' }) rounds: number | null;
  @ApiProperty({ type: [Number], description: 'The match target of each round; the last repeats (R9.1).' }) targets: number[];
  @ApiProperty({ enum: VARIANTS, description: 'R8: the game every match plays.' }) variant: Variant;
  @ApiProperty({ type: VariantMatchRulesStateDto, description: "Every match's settings, as a match answers them (R3)." }) rules: VariantMatchRulesStateDto;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The session whose ledger takes its money and whose matches these are (R9.1).' }) sessionId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The session currency.' }) currency: string | null;
  @ApiProperty({ type: Number, nullable: true, description: "R9.9: each entry's fee, or null." }) entryFeeMinor: number | null;
  @ApiProperty({ description: "R9.9: the house's commission in percent of the pool." }) housePercent: number;
  @ApiProperty({ oneOf: [{ type: 'array', items: { type: 'integer' } }, { $ref: getSchemaPath(SplitPayoutsDto) }], description: 'As given (R9.9, R9.11).' }) payouts:
    number[] | { main: number[]; consolation: number[] };
  @ApiProperty({ description: 'R9.11: a consolation bracket runs beside the main one.' }) consolation: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When round 1 starts (UTC), as given.' }) startsAt: string | null;
  @ApiProperty({ type: Number, nullable: true, description: "Minutes between the rounds' starts, as given." }) roundMinutes: number | null;
  @ApiProperty({ type: [FlightDto], description: 'Every flight, in the order named (R9.1).' }) flights: FlightDto[];
  @ApiProperty({ description: 'Bumped by every change; send it as If-Match.' }) version: number;
  @ApiProperty({ format: 'date-time', description: 'When it was created.' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'When it last changed.' }) updatedAt: string;
}
