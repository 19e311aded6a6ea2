import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
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
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { GAME_VARIANTS, VARIANT_RESULTS, VARIANTS, type GameVariant, type Variant, type VariantResult } from '../domain/variants';
import { FORFEIT_REASONS, type ForfeitReason } from '../domain/match';
import { ListQuery } from '../common/pagination';
import { fastBodyCheck, MoneyMinor, OptionalNullable } from '../common/validation';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `[[a], [b]]` or `[[a, b], [c, d]]`: two sides of one or two player ids (R3.7). */
function IsSides() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isSides',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be two arrays of one or two player ids (UUIDs)` },
      validator: {
        validate: (v: unknown) =>
          Array.isArray(v) && v.length === 2 && v.every((side) => Array.isArray(side) && side.length >= 1 && side.length <= 2 && side.every((p) => typeof p === 'string' && UUID_RE.test(p))),
      },
    });
}

// ---- rules ------------------------------------------------------------------------

export class MoneyRulesDto {
  @ApiPropertyOptional({ description: 'R1.5 Jacoby rule.', default: true })
  @IsOptional()
  @IsBoolean()
  jacoby?: boolean;

  @ApiPropertyOptional({ description: 'R2.4 beavers.', default: false })
  @IsOptional()
  @IsBoolean()
  beavers?: boolean;

  @ApiPropertyOptional({ description: 'R2.5 raccoons (need beavers).', default: false })
  @IsOptional()
  @IsBoolean()
  raccoons?: boolean;

  @ApiPropertyOptional({ description: 'R2.7 automatic doubles allowed per game.', default: 0, minimum: 0, maximum: 6 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(64)
  automaticDoubles?: number;

  @ApiPropertyOptional({ description: 'R2.2 highest cube value, a power of two; null: no limit.', default: 64, nullable: true, type: Number })
  @OptionalNullable()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  cubeLimit?: number | null;

  @ApiPropertyOptional({ description: 'R1.2 what a backgammon counts.', enum: [2, 3], default: 3 })
  @IsOptional()
  @IsInt()
  backgammonMultiplier?: number;
}

export class MatchRulesDto extends MoneyRulesDto {
  @ApiPropertyOptional({ description: 'R3.4 Crawford rule.', default: true })
  @IsOptional()
  @IsBoolean()
  crawford?: boolean;

  @ApiPropertyOptional({ description: 'R3.5 dead cube: refuse a double that cannot matter, or allow it.', enum: ['refuse', 'allow'], default: 'refuse' })
  @IsOptional()
  @IsIn(['refuse', 'allow'])
  deadCube?: 'refuse' | 'allow';
}

/** A match's settings with the long nardy cube (R8.1). */
export class VariantMatchRulesDto extends MatchRulesDto {
  @ApiPropertyOptional({
    description: 'R8.1 long nardy only: play with the doubling cube (Crawford and dead cube then apply). Refused switched on in any other variant (R8.10).',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  cube?: boolean;

  @ApiPropertyOptional({
    description:
      'R3.1 backgammon only: admit any target from 1 to 63, even ones included (a 2- or 4-point match); Crawford and the dead cube apply as usual. Other variants take any target already: refused switched on there (R8.10).',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  evenTarget?: boolean;

  @ApiPropertyOptional({
    description: 'R8.3 Plakoto and Tavli only: what a mother win is worth, 1, 2 or 3 (outside that, 422 INVALID_SETTING). Refused switched on in any other variant (R8.10).',
    default: 2,
    example: 3,
  })
  @IsOptional()
  @IsInt()
  motherPoints?: number;
}

/** A money game's settings with the long nardy cube (R8.1) and the stop at a lead (R4.4). */
export class MoneyGameRulesDto extends MoneyRulesDto {
  @ApiPropertyOptional({ description: 'R8.1 long nardy only: play with the doubling cube. Refused switched on in any other variant (R8.10).', default: false })
  @IsOptional()
  @IsBoolean()
  cube?: boolean;

  @ApiPropertyOptional({
    description: 'R8.3 Plakoto and Tavli only: what a mother win is worth, 1, 2 or 3 (outside that, 422 INVALID_SETTING). Refused switched on in any other variant (R8.10).',
    default: 2,
    example: 3,
  })
  @IsOptional()
  @IsInt()
  motherPoints?: number;

  @ApiPropertyOptional({
    description: "R4.4: the table finishes when, after a finished game, one player's points total exceeds the other's by at least this many points; null: never.",
    type: 'integer',
    nullable: true,
    minimum: 1,
    default: null,
  })
  @OptionalNullable()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  stopAtLead?: number | null;
}

const VARIANT_DESCRIPTION =
  'R8: the game played. `long-nardy` (oin/mars, a cube only with `rules.cube`), `portes`, `plakoto`, `fevga`, `tavli` (its games cycle Portes → Plakoto → Fevga, R8.5) and `tavla-31` (scored by checkers left, R8.6) have no cube otherwise; the cube settings they lack are refused switched on (R8.10).';

// ---- requests ---------------------------------------------------------------------

export class CreateMatchDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The session the match belongs to; needed for a stake (R3.8).' })
  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @ApiProperty({
    description: 'Two sides of one player each, or two pairs (consultation play, R3.7).',
    type: 'array',
    minItems: 2,
    maxItems: 2,
    items: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', format: 'uuid' } },
    example: [['0190c3a2-0000-7000-8000-000000000001'], ['0190c3a2-0000-7000-8000-000000000002']],
  })
  @IsSides()
  sides: string[][];

  @ApiPropertyOptional({ enum: VARIANTS, default: 'backgammon', description: VARIANT_DESCRIPTION })
  @IsOptional()
  @IsIn(VARIANTS)
  variant?: Variant;

  @ApiProperty({
    description: 'Backgammon: an odd number from 1 to 63 (R3.1). Other variants: any whole number from 1 to 63; `tavla-31` 1 to 255, and it may be left out for 31 (R8.7).',
    example: 5,
  })
  @ValidateIf((o: { variant?: unknown; target?: unknown }) => o.variant !== 'tavla-31' || o.target !== undefined)
  @IsInt()
  target: number;

  @ApiPropertyOptional({ type: VariantMatchRulesDto, description: 'Match settings; money-only settings must be off (R2.8); `cube` for long nardy (R8.1).' })
  @IsOptional()
  @ValidateNested()
  @Type(() => VariantMatchRulesDto)
  rules?: VariantMatchRulesDto;

  @ApiPropertyOptional({ description: 'R3.8 entry or side bet in minor units, paid by the losing side when the match ends. Needs sessionId.', minimum: 0 })
  @IsOptional()
  @MoneyMinor()
  stakeMinor?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the match is due to start (RFC 3339, any offset; answered in UTC): what a director measures lateness from before a forfeit for `lateness` or `no-show` (R3.9).',
    example: '2026-12-05T19:30:00+01:00',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  scheduledAt?: string;
}

export class PenaltyDto {
  @ApiProperty({ enum: [0, 1], description: 'The side the points are awarded to (R3.6).' })
  @IsIn([0, 1])
  side: 0 | 1;

  @ApiProperty({ minimum: 1, maximum: 63, example: 1 })
  @IsInt()
  @Min(1)
  @Max(63)
  points: number;

  @ApiProperty({ maxLength: 200, example: 'Late for round 2' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  reason: string;
}

export class ArrivalDto {
  @ApiProperty({ enum: [0, 1], description: 'The side that has arrived (R9.6).' })
  @IsIn([0, 1])
  side: 0 | 1;

  @ApiPropertyOptional({ format: 'date-time', description: 'When it arrived (RFC 3339); now unless given.', example: '2026-12-11T19:45:00+01:00' })
  @IsOptional()
  @IsDateString({ strict: true })
  arrivedAt?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'The older name of `arrivedAt`, still taken; give one of the two, not both.', deprecated: true })
  @IsOptional()
  @IsDateString({ strict: true })
  at?: string;
}

export class ForfeitDto {
  @ApiProperty({ enum: [0, 1], description: 'The side that forfeits (R3.9); the other side wins the match.' })
  @IsIn([0, 1])
  side: 0 | 1;

  @ApiProperty({
    enum: FORFEIT_REASONS,
    description:
      "R3.9: `no-show`, `lateness` (too late for the scheduled start), `time` (the side's clock ran out), `disqualification`, `withdrawal`, `concession` or `penalties` (more than half the target in penalty points against it, R3.6; given by the service itself when penalties do it).",
  })
  @IsIn(FORFEIT_REASONS)
  reason: ForfeitReason;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, description: "The director's note, kept with the forfeit.", example: 'Arrived 40 minutes after the round started' })
  @OptionalNullable()
  @IsString()
  @MaxLength(500)
  note?: string | null;
}

export class CreateMoneyGameDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  sessionId: string;

  @ApiProperty({ type: [String], minItems: 2, maxItems: 2, description: 'The two players (R4.1).' })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(2)
  @IsUUID(undefined, { each: true })
  players: string[];

  @ApiProperty({ description: 'Stake per point in minor units of the session currency (R4.1).', minimum: 0, example: 100 })
  @MoneyMinor()
  stakeMinor: number;

  @ApiPropertyOptional({ enum: VARIANTS, default: 'backgammon', description: VARIANT_DESCRIPTION })
  @IsOptional()
  @IsIn(VARIANTS)
  variant?: Variant;

  @ApiPropertyOptional({ type: MoneyGameRulesDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => MoneyGameRulesDto)
  rules?: MoneyGameRulesDto;
}

const ACTION_TYPES = ['double', 'take', 'pass', 'beaver', 'raccoon', 'finish', 'resign-refused'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The field belongs to these action types only (a finish has no `by`, a take no `winner`): anything else is refused, not stored. */
function OnlyFor(...types: ActionType[]) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'onlyFor',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} belongs only to ${types.join(', ')} actions` },
      validator: { validate: (_v: unknown, args) => types.includes((args?.object as { type?: ActionType }).type as ActionType) },
    });
}

export class ActionDto {
  @ApiProperty({ enum: ACTION_TYPES })
  @IsIn(ACTION_TYPES)
  type: ActionType;

  @ApiPropertyOptional({ format: 'uuid', description: 'Who acts (double and answers); `resign-refused`: who offered the resignation that was refused (R3.10).' })
  @IsOptional()
  @IsUUID()
  @OnlyFor('double', 'take', 'pass', 'beaver', 'raccoon', 'resign-refused')
  by?: string;

  @ApiPropertyOptional({ type: [String], description: 'Chouette: the member cubes a double addresses.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(12)
  @IsUUID(undefined, { each: true })
  @OnlyFor('double')
  cubes?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'Chouette: the member cube answered.' })
  @IsOptional()
  @IsUUID()
  @OnlyFor('take', 'pass', 'beaver', 'raccoon')
  cube?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'finish: any player of the winning side; left out for a Plakoto `draw` (R8.3).' })
  @IsOptional()
  @IsUUID()
  @OnlyFor('finish')
  winner?: string;

  @ApiPropertyOptional({
    enum: VARIANT_RESULTS,
    description:
      "finish: how the game ended, one of its variant's results: backgammon `single` | `gammon` | `backgammon` (R1.1); long nardy `oin` (1) | `mars` (2) (R8.1); Portes and Fevga `single` | `gammon` (R8.2, R8.4); Plakoto `single` | `gammon` | `mother` (2) | `draw` (0, no winner) (R8.3); Tavla 31 leaves it out and sends `checkersLeft` (R8.6). Another variant's result is refused with RESULT_NOT_IN_VARIANT (R8.10).",
  })
  @IsOptional()
  @IsIn(VARIANT_RESULTS)
  @OnlyFor('finish', 'resign-refused')
  result?: VariantResult;

  @ApiPropertyOptional({
    description: "finish, Tavla 31 only: the loser's checkers left on the board, the game's points (R8.6); `resign-refused` in Tavla 31: the checkers the offer was at.",
    minimum: 1,
    maximum: 15,
    example: 7,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(15)
  @OnlyFor('finish', 'resign-refused')
  checkersLeft?: number;

  @ApiPropertyOptional({ description: 'finish: the loser resigned at that level (R1.4).', default: false })
  @IsOptional()
  @IsBoolean()
  @OnlyFor('finish')
  resigned?: boolean;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'finish with `resigned: true`: the player of the losing side who offered the resignation (R3.10); counted in his statistics as an offer made and accepted.',
  })
  @IsOptional()
  @IsUUID()
  @OnlyFor('finish')
  offeredBy?: string;
}

export class StartGameDto {
  @ApiPropertyOptional({ description: 'R2.7: automatic doubles that happened on the opening roll.', minimum: 0, default: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(64)
  automaticDoubles?: number;

  @ApiPropertyOptional({ type: [ActionDto], description: 'The whole game at once, all or nothing (recording after the fact).' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ActionDto)
  actions?: ActionDto[];
}

// The bodies of a game's commands are the hottest of the service (every recorded game,
// every action): they are checked here by hand first, and class-validator runs only on
// a body this check does not plainly accept, to word the refusal. Each check accepts a
// subset of what the decorators above accept (nulls, extra keys, anything unusual: no)
// and builds the instance class-transformer would (test/support/fast-bodies-check.mjs holds
// them to that on generated bodies). A rule added to the DTOs must be added here too,
// or the check must refuse the field, which the test finds.

/** Lowercase or uppercase hex, versions 1–8, the RFC variant: within what IsUUID() accepts. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
const isIntIn = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The fields each action type may carry besides `type` (OnlyFor above). */
const ACTION_FIELDS: Record<ActionType, ReadonlySet<string>> = {
  double: new Set(['by', 'cubes']),
  take: new Set(['by', 'cube']),
  pass: new Set(['by', 'cube']),
  beaver: new Set(['by', 'cube']),
  raccoon: new Set(['by', 'cube']),
  finish: new Set(['winner', 'result', 'checkersLeft', 'resigned', 'offeredBy']),
  'resign-refused': new Set(['by', 'result', 'checkersLeft']),
};

/** An action's body as ActionDto, or null unless plainly valid. */
export function plainAction(body: unknown): ActionDto | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) return null;
  const plain = body as Record<string, unknown>;
  const type = plain.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(ACTION_FIELDS, type)) return null;
  const allowed = ACTION_FIELDS[type as ActionType];
  const dto = new ActionDto();
  // Each field copied in the body's order, as class-transformer copies them (arrays anew).
  for (const key of Object.keys(plain)) {
    const v = plain[key];
    if (key === 'type') {
      dto.type = type as ActionType;
      continue;
    }
    if (!allowed.has(key)) return null;
    switch (key) {
      case 'by':
      case 'cube':
      case 'winner':
      case 'offeredBy':
        if (!isUuid(v)) return null;
        dto[key] = v;
        break;
      case 'cubes':
        if (!Array.isArray(v) || v.length > 12 || !v.every(isUuid)) return null;
        dto.cubes = [...v];
        break;
      case 'result': {
        const result = VARIANT_RESULTS.find((r) => r === v);
        if (result === undefined) return null;
        dto.result = result;
        break;
      }
      case 'checkersLeft':
        if (!isIntIn(v, 1, 15)) return null;
        dto.checkersLeft = v;
        break;
      case 'resigned':
        if (typeof v !== 'boolean') return null;
        dto.resigned = v;
        break;
      default:
        return null;
    }
  }
  return dto;
}

/** A game's start (or whole game) body as StartGameDto, or null unless plainly valid. */
export function plainStartGame(body: Record<string, unknown>): StartGameDto | null {
  if (Object.getPrototypeOf(body) !== Object.prototype) return null;
  const dto = new StartGameDto();
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (key === 'automaticDoubles') {
      if (!isIntIn(v, 0, 64)) return null;
      dto.automaticDoubles = v;
    } else if (key === 'actions') {
      if (!Array.isArray(v) || v.length > 500) return null;
      const actions: ActionDto[] = [];
      for (const a of v as unknown[]) {
        const action = plainAction(a);
        if (action === null) return null;
        actions.push(action);
      }
      dto.actions = actions;
    } else {
      return null;
    }
  }
  return dto;
}

export class VoidDto {
  @ApiProperty({ maxLength: 500, example: 'Wrong winner recorded' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason: string;
}

export class TableListQuery extends ListQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Tables this player sits at.' })
  @IsOptional()
  @IsUUID()
  playerId?: string;

  @ApiPropertyOptional({ enum: ['in-progress', 'finished'] })
  @IsOptional()
  @IsIn(['in-progress', 'finished'])
  status?: 'in-progress' | 'finished';
}

// ---- responses --------------------------------------------------------------------

export class PendingDto {
  @ApiProperty({ format: 'uuid', description: 'Who made the offer.' })
  by: string;

  @ApiProperty({ description: 'What a take makes the cube.', example: 4 })
  value: number;

  @ApiProperty({ enum: ['double', 'beaver', 'raccoon'] })
  kind: 'double' | 'beaver' | 'raccoon';
}

export class CubeDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The chouette member whose cube this is; null elsewhere.' })
  member: string | null;

  @ApiProperty({ example: 2 })
  value: number;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Who owns the cube; null while centred.' })
  owner: string | null;

  @ApiProperty({ enum: ['in-play', 'passed', 'finished'] })
  status: 'in-play' | 'passed' | 'finished';

  @ApiProperty({ type: PendingDto, nullable: true })
  pending: PendingDto | null;
}

export class ActionRecordDto {
  @ApiProperty({ example: 1 })
  seq: number;

  @ApiProperty({ enum: ACTION_TYPES })
  type: ActionType;

  @ApiPropertyOptional({ format: 'uuid' })
  by?: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  cube: string | null;

  @ApiPropertyOptional({ type: [String] })
  cubes?: string[];

  @ApiPropertyOptional({ format: 'uuid' })
  winner?: string;

  @ApiPropertyOptional({ enum: VARIANT_RESULTS })
  result?: VariantResult;

  @ApiPropertyOptional()
  resigned?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'finish: who offered the resignation (R3.10).' })
  offeredBy?: string;

  @ApiPropertyOptional({ description: 'Tavla 31 (R8.6).' })
  checkersLeft?: number;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

export class ResultDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Left out for a Plakoto draw (R8.3).' })
  winner?: string;

  @ApiProperty({ enum: VARIANT_RESULTS, description: "One of the game variant's results (R1.1, R8.1–R8.6); Tavla 31 records `single` with `checkersLeft`." })
  result: VariantResult;

  @ApiProperty()
  resigned: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'A resignation: the player of the losing side who offered it, when the scorer said (R3.10).' })
  offeredBy?: string;

  @ApiPropertyOptional({ description: "Tavla 31: the loser's checkers left, the game's points (R8.6)." })
  checkersLeft?: number;
}

export class PayoutDto {
  @ApiProperty({ description: 'A player id, or "house".' })
  from: string;

  @ApiProperty({ description: 'A player id, or "house".' })
  to: string;

  @ApiProperty({ example: 400 })
  amountMinor: number;

  @ApiProperty({
    enum: ['game', 'void', 'match-stake', 'rake', 'entry-fee', 'prize'],
    description: "A game's entries are `game`, `rake`, `match-stake` and `void` (R6.3, R6.4, R3.8); `entry-fee` and `prize` are a tournament's (R9.9).",
  })
  kind: 'game' | 'void' | 'match-stake' | 'rake' | 'entry-fee' | 'prize';
}

export class VoidInfoDto {
  @ApiProperty({ format: 'date-time' })
  at: string;

  @ApiProperty()
  reason: string;

  @ApiProperty({ format: 'uuid', description: 'The API key that voided the game.' })
  by: string;
}

export class GameDto {
  @ApiProperty({ example: 3 })
  gameNo: number;

  @ApiProperty({ enum: GAME_VARIANTS, description: "R8: the game's own variant (at a Tavli table Portes, Plakoto or Fevga, R8.5; a chouette's games are backgammon)." })
  variant: GameVariant;

  @ApiProperty({ enum: ['in-progress', 'finished', 'voided', 'abandoned'] })
  status: 'in-progress' | 'finished' | 'voided' | 'abandoned';

  @ApiProperty({ description: 'R3.4: this is the Crawford game.' })
  crawford: boolean;

  @ApiProperty({ description: 'R2.7', example: 0 })
  automaticDoubles: number;

  @ApiProperty({ type: [CubeDto] })
  cubes: CubeDto[];

  @ApiProperty({ type: [ActionRecordDto] })
  actions: ActionRecordDto[];

  @ApiProperty({ type: ResultDto, nullable: true, description: 'How a `finish` ended the game; null in progress and after a pass.' })
  result: ResultDto | null;

  @ApiProperty({ type: Number, nullable: true, description: 'What the game was worth to its winner (null in progress and in a chouette).' })
  points: number | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 1, description: 'Match/money: the winning side (0 or 1); chouette: 0 = box, 1 = team.' })
  winnerSide: 0 | 1 | null;

  @ApiProperty({ type: [PayoutDto], description: 'The ledger entries the game posted (stakes, rake, a match stake); reversing entries when voided.' })
  payouts: PayoutDto[];

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: string | null;

  @ApiProperty({ type: VoidInfoDto, nullable: true })
  voided: VoidInfoDto | null;

  @ApiProperty({ example: 7 })
  version: number;
}

export class GameSummaryDto {
  @ApiProperty()
  gameNo: number;

  @ApiProperty({ enum: GAME_VARIANTS, description: "R8: the game's own variant." })
  variant: GameVariant;

  @ApiProperty({ enum: ['in-progress', 'finished', 'voided', 'abandoned'] })
  status: GameDto['status'];

  @ApiProperty()
  crawford: boolean;

  @ApiProperty({ type: ResultDto, nullable: true })
  result: ResultDto | null;

  @ApiProperty({ type: Number, nullable: true })
  points: number | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 1 })
  winnerSide: 0 | 1 | null;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endedAt: string | null;
}

export class MoneyRulesStateDto {
  @ApiProperty() jacoby: boolean;
  @ApiProperty() beavers: boolean;
  @ApiProperty() raccoons: boolean;
  @ApiProperty() automaticDoubles: number;
  @ApiProperty({ type: Number, nullable: true }) cubeLimit: number | null;
  @ApiProperty({ enum: [2, 3] }) backgammonMultiplier: number;
}

export class MatchRulesStateDto extends MoneyRulesStateDto {
  @ApiProperty() crawford: boolean;
  @ApiProperty({ enum: ['refuse', 'allow'] }) deadCube: 'refuse' | 'allow';
}

export class VariantMatchRulesStateDto extends MatchRulesStateDto {
  @ApiPropertyOptional({ description: 'Long nardy only: played with the cube (R8.1).' }) cube?: boolean;
  @ApiPropertyOptional({ description: 'R3.1: present (true) when the match was created with `evenTarget: true`.' }) evenTarget?: boolean;
  @ApiPropertyOptional({ description: 'R8.3 Plakoto and Tavli tables: what a mother win is worth (1 to 3).' }) motherPoints?: number;
}

export class MoneyGameRulesStateDto extends MoneyRulesStateDto {
  @ApiPropertyOptional({ description: 'Long nardy only: played with the cube (R8.1).' }) cube?: boolean;
  @ApiPropertyOptional({ description: 'R8.3 Plakoto and Tavli tables: what a mother win is worth (1 to 3).' }) motherPoints?: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'R4.4: the lead that finishes the table; null: none.' }) stopAtLead: number | null;
}

export class VoidRecordDto {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'Why it was voided.' }) reason: string;
  @ApiProperty({ description: 'The API key that voided it.' }) by: string;
}

export class PenaltyRecordDto {
  @ApiProperty() seq: number;
  @ApiProperty({ enum: [0, 1], description: 'The side the points were awarded to.' }) side: 0 | 1;
  @ApiProperty() points: number;
  @ApiProperty() reason: string;
  @ApiProperty({ description: 'The number of the last game started before it.' }) afterGameNo: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'Voided (R3.6): it counts for nothing in the score.' }) voided: boolean;
  @ApiProperty({ type: VoidRecordDto, nullable: true, description: 'When, why and by whom it was voided; null while it stands.' }) voidedBy: VoidRecordDto | null;
}

export class MatchEndDto {
  @ApiProperty({ enum: ['points', 'forfeit'], description: '`points`: a score reached the target (R3.2); `forfeit`: a side forfeited (R3.9).' }) kind: 'points' | 'forfeit';
  @ApiPropertyOptional({ enum: [0, 1], description: 'Forfeit only: the side that forfeited (the other side won).' }) side?: 0 | 1;
  @ApiPropertyOptional({ enum: FORFEIT_REASONS, description: 'Forfeit only: why (R3.9); `penalties` when penalty points against the side passed half the target (R3.6).' })
  reason?: ForfeitReason;
  @ApiPropertyOptional({ type: String, nullable: true, description: "Forfeit only: the director's note (null for a forfeit by penalties)." }) note?: string | null;
  @ApiPropertyOptional({ format: 'date-time', description: 'Forfeit only: when it was recorded (for a forfeit by penalties, when the last penalty was).' }) at?: string;
}

export class MatchTournamentDto {
  @ApiProperty({ format: 'uuid', description: 'The tournament that created the match (R9.5).' }) id: string;
  @ApiProperty({ description: 'Its flight (R9.1).', example: 'main' }) flight: string;
  @ApiProperty({ enum: ['main', 'consolation'], description: 'The main bracket, or the consolation one (R9.11).' }) bracket: 'main' | 'consolation';
  @ApiProperty({ description: 'The round, from 1.', example: 2 }) round: number;
  @ApiProperty({ description: 'The pairing of the round, from 1 (top of the bracket first).', example: 1 }) pairing: number;
}

export class MatchClockDto {
  @ApiProperty({ description: "R9.7: each player's time for the whole match: 2 minutes per point of the target.", example: 10 }) perPlayerMinutes: number;
  @ApiProperty({ description: 'R9.7: the delay per move (Bronstein), in seconds.', example: 12 }) delaySeconds: number;
  @ApiProperty({ description: "R9.7: for a clock brought in now, each player's time: (RA + RB) × 2 minutes, RA and RB the points each side still needs.", example: 14 })
  fromNowMinutes: number;
}

export class MatchDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) sessionId: string | null;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string', format: 'uuid' } } }) sides: string[][];
  @ApiProperty({ enum: VARIANTS, description: 'R8: the game played.' }) variant: Variant;
  @ApiProperty() target: number;
  @ApiProperty({ type: VariantMatchRulesStateDto }) rules: VariantMatchRulesStateDto;
  @ApiProperty({ type: [Number], description: 'Real totals (R3.2).', example: [3, 4] }) score: number[];
  @ApiProperty({ enum: ['in-progress', 'finished'] }) status: 'in-progress' | 'finished';
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 1 }) winnerSide: 0 | 1 | null;
  @ApiProperty({ type: Number, nullable: true, description: "The Crawford game's number once known (R3.4)." }) crawfordGameNo: number | null;
  @ApiProperty({ type: Number, nullable: true }) stakeMinor: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The session currency (null without a session).' }) currency: string | null;
  @ApiProperty({ type: MatchEndDto, nullable: true, description: 'How the match ended (R3.2, R3.9); null while it is in progress.' }) endedBy: MatchEndDto | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the match was due to start (UTC), as given at its creation; null when none was.' }) scheduledAt:
    string | null;
  @ApiProperty({ type: MatchTournamentDto, nullable: true, description: 'The tournament pairing it plays (R9.5); null for a match of no tournament.' }) tournament: MatchTournamentDto | null;
  @ApiProperty({ type: MatchClockDto, nullable: true, description: "A tournament match's time allowance on a clock (R9.7); null for a match of no tournament." }) clock: MatchClockDto | null;
  @ApiProperty({ type: [PenaltyRecordDto], description: 'Every penalty given (R3.6), voided ones too, in order.' }) penalties: PenaltyRecordDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'The game in progress, if any.' }) currentGameNo: number | null;
  @ApiProperty({ type: [GameSummaryDto] }) games: GameSummaryDto[];
  @ApiProperty() version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** R9.6: the answer to an arrival: the match after it, and the lateness penalty it gave. */
export class ArrivalResultDto extends MatchDto {
  @ApiProperty({
    type: PenaltyRecordDto,
    nullable: true,
    description:
      'The lateness penalty the arrival gave (R9.6, R3.6): null when the side was under 5 minutes late, or when it was so late that it forfeited instead (then `endedBy` says so).',
  })
  penalty: PenaltyRecordDto | null;
}

export class MoneyGameDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ type: [String] }) players: string[];
  @ApiProperty() stakeMinor: number;
  @ApiProperty() currency: string;
  @ApiProperty({ enum: VARIANTS, description: 'R8: the game played.' }) variant: Variant;
  @ApiProperty({ type: MoneyGameRulesStateDto }) rules: MoneyGameRulesStateDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: "Each player's net at this table, after rake (R4.2, R6.4).",
    example: { '0190c3a2-0000-7000-8000-000000000001': 300 },
  })
  netMinor: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: "Each player's points won at this table, from its finished games (R4.4; a draw adds nothing).",
    example: { '0190c3a2-0000-7000-8000-000000000001': 3 },
  })
  pointsTotal: Record<string, number>;
  @ApiProperty({ enum: ['in-progress', 'finished'], description: 'finished: a lead reached `rules.stopAtLead` (R4.4); no more games.' }) status: 'in-progress' | 'finished';
  @ApiProperty({ type: Number, nullable: true }) currentGameNo: number | null;
  @ApiProperty({ type: [GameSummaryDto] }) games: GameSummaryDto[];
  @ApiProperty() version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

fastBodyCheck(ActionDto, plainAction);
fastBodyCheck(StartGameDto, plainStartGame);
