import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { DomainErrorCode } from '../domain/error-codes';
import type { Http422Code } from './error-codes';

export class FieldErrorDto {
  @ApiProperty({ description: 'Path of the offending field, e.g. `sides.0.1`.', example: 'target' })
  field: string;

  @ApiProperty({ example: 'target must be an integer number' })
  message: string;
}

/** RFC 9457 problem details, as every error of this API is answered. */
class ProblemResponse {
  @ApiProperty({ description: 'URI naming the kind of problem.', example: 'urn:bgclub:problem:validation-failed' })
  type: string;

  @ApiProperty({ example: 'Bad Request' })
  title: string;

  @ApiProperty({ example: 400 })
  status: number;

  @ApiProperty({ example: 'The request is not valid.' })
  detail: string;

  @ApiProperty({ description: 'Stable machine-readable code (UPPER_SNAKE).', example: 'VALIDATION_FAILED' })
  code: string;

  @ApiPropertyOptional({ description: 'Id of the rule of the rule book (docs/rules.md, served at /docs/rules) that refused the request.', example: 'R3.1' })
  rule?: string;

  @ApiPropertyOptional({
    description: 'Present with `rule`: a relative link to that rule in the rule book served by this API (`/docs/rules#` followed by the rule id).',
    example: '/docs/rules#R3.1',
  })
  ruleUrl?: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], maxItems: 20, description: 'Field-level validation failures: at most 20 are listed.' })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({ description: 'How many field-level failures there were (present with `errors`; may exceed the 20 listed).', example: 1 })
  errorCount?: number;

  @ApiPropertyOptional({
    type: [String],
    description:
      'With NOT_READY (GET /ready): what the instance still waits for: `database` (it does not answer), `primary` (it answers as a standby: no primary reachable, as during a failover), or `migration:<name>` for each migration of this build not applied to the database yet.',
    example: ['migration:TableListIndexes1796518800000'],
  })
  missing?: string[];

  @ApiPropertyOptional({ description: 'The request path.', example: '/v1/players' })
  instance?: string;

  @ApiPropertyOptional({ description: 'Correlation id of the request (also in the X-Request-Id header).' })
  requestId?: string;
}

export const PROBLEM_JSON = 'application/problem+json';

function problemContent() {
  return { [PROBLEM_JSON]: { schema: { $ref: getSchemaPath(ProblemResponse) } } };
}

/** Documents one error answer of a route (problem+json). */
export const ApiProblem = (status: number, description: string) => applyDecorators(ApiExtraModels(ProblemResponse), ApiResponse({ status, description, content: problemContent() }));

/** R6.2 on a read: a money figure is never rounded; only data recorded before the bound was kept can pass it. */
export const MONEY_READ_422 =
  'A money figure of the answer is beyond ±(2^53 − 1) minor units and cannot be given exactly (AMOUNT_OUT_OF_RANGE, R6.2); only money recorded before that bound was kept can reach it.';

/** R6.2 on a write that moves money. */
export const MONEY_WRITE_422 =
  "AMOUNT_OUT_OF_RANGE (R6.2): a payout beyond 2^53 − 1 minor units, or one that would take a party's money in the currency (the sum of the amounts of every ledger entry and payment it takes part in, across sessions) past 2^53 − 1; nothing is written.";

/** The operation extension that carries a route's refusals by the rules until the document is built. */
export const REFUSALS_EXTENSION = 'x-refusals';

/** A code a route may declare with ApiRefusals: a refusal by the rules, or an HTTP-layer code answered 422. */
export type RefusalCode = DomainErrorCode | `${Http422Code}`;

/**
 * The 422 codes a route can answer: its refusals by the rules (with `code` and `rule`) and
 * the HTTP layer's 422 codes it raises; on a controller, every route of it that does not
 * declare its own. The built document lists them on the route's 422 answer (its
 * description, with each refusal's rule ids from src/domain/error-codes.ts, and
 * `x-error-codes`); the e2e suite's response check holds every 422 to that list.
 */
export const ApiRefusals = (...codes: RefusalCode[]) => ApiExtension(REFUSALS_EXTENSION, codes) as ClassDecorator & MethodDecorator;

/** A table's settings, refused when a match, money game or chouette is created (R2.2, R2.5, R2.7, R2.8, R3.5, R4.3, R5.12). */
const SETTINGS_REFUSALS = [
  'MONEY_ONLY_SETTING',
  'INVALID_SETTING',
  'UNKNOWN_SETTING',
  'INVALID_CUBE_LIMIT',
  'RACCOONS_NEED_BEAVERS',
  'INVALID_AUTOMATIC_DOUBLES',
  'TOO_MANY_AUTOMATIC_DOUBLES',
  'AUTOMATIC_DOUBLES_NOT_ALLOWED',
] as const satisfies readonly DomainErrorCode[];

/** Creating a match (R3.1, R3.7, R3.8) and, per board, a team event. */
export const MATCH_CREATION_REFUSALS = [
  'INVALID_TARGET',
  'TARGET_EVEN',
  'TARGET_OUT_OF_RANGE',
  'INVALID_SIDES',
  'DUPLICATE_PLAYER',
  'STAKE_NEEDS_SESSION',
  'INVALID_STAKE',
  ...SETTINGS_REFUSALS,
  'UNKNOWN_PLAYER',
  'SESSION_CLOSED',
  'REFERENCE_NOT_FOUND',
] as const satisfies readonly RefusalCode[];

/** Creating a two-player money game (R4.1, R4.3). */
export const MONEY_GAME_CREATION_REFUSALS = [
  'INVALID_SIDES',
  'DUPLICATE_PLAYER',
  'INVALID_STAKE',
  ...SETTINGS_REFUSALS,
  'UNKNOWN_PLAYER',
  'SESSION_CLOSED',
  'REFERENCE_NOT_FOUND',
] as const satisfies readonly RefusalCode[];

/** Seating a chouette (R5.1, R5.3, R5.9, R5.11). */
export const CHOUETTE_CREATION_REFUSALS = [
  'CHOUETTE_PLAYER_COUNT',
  'INVALID_SEATING',
  'INVALID_ROLL',
  'ROLL_OFF_TIE',
  'INVALID_SEATS',
  'INVALID_PLAYER',
  'DUPLICATE_PLAYER',
  'INVALID_CUBE_MODE',
  'INVALID_PARTNER_FROM',
  'INVALID_PARTNER_SHARE',
  'DUPLICATE_STAKE',
  'INVALID_STAKE',
  ...SETTINGS_REFUSALS,
  'UNKNOWN_PLAYER',
  'SESSION_CLOSED',
  'REFERENCE_NOT_FOUND',
] as const satisfies readonly RefusalCode[];

/**
 * Starting a game or taking an action in it, on any kind of table: the game (R1), the
 * cube (R2), the match (R3), the chouette's cubes and outcomes (R5), the automatic
 * doubles a game starts with (R2.7), and, when the game ends, its payouts and rating (R6.2, R7.1).
 */
export const GAME_PLAY_REFUSALS = [
  'INVALID_ACTION',
  'INVALID_RESULT',
  'INVALID_RESIGNATION',
  'INVALID_BACKGAMMON_MULTIPLIER',
  'CUBE_NOT_IN_PLAY',
  'NOT_IN_GAME',
  'GAME_FINISHED',
  'GAME_NOT_IN_PROGRESS',
  'GAME_IN_PROGRESS',
  'NOT_CUBE_OWNER',
  'CUBE_LIMIT_EXCEEDED',
  'NO_OFFER_PENDING',
  'OFFER_PENDING',
  'NOT_DOUBLED_PARTY',
  'WRONG_INSTANT_REDOUBLE',
  'BEAVERS_NOT_ALLOWED',
  'RACCOONS_NOT_ALLOWED',
  'MATCH_FINISHED',
  'INVALID_MATCH_EVENT',
  'INVALID_GAME_POINTS',
  'NO_CUBE_IN_ONE_POINT_MATCH',
  'CRAWFORD_NO_DOUBLE',
  'DEAD_CUBE',
  'SINGLE_TEAM_CUBE',
  'NO_MEMBER_CUBES',
  'NOT_ACTING_CAPTAIN',
  'NOT_OWN_CUBE',
  'UNKNOWN_CUBE',
  'DUPLICATE_CUBE',
  'CUBE_NOT_NAMED',
  'NO_CUBES_NAMED',
  'NO_BEAVER_ALONE',
  'NO_CUBE_TO_DOUBLE',
  'MEMBER_OUT',
  'INVALID_OUTCOME',
  'NO_CAPTAIN',
  'TOO_FEW_PLAYERS',
  'INVALID_SEATS',
  'GAME_NOT_FINISHED',
  'AMOUNT_OUT_OF_RANGE',
  'INVALID_RATING_INPUT',
  'SESSION_CLOSED',
  'RESULT_NOT_IN_VARIANT',
  'NO_CUBE_IN_VARIANT',
  'TABLE_FINISHED',
  'TOO_MANY_AUTOMATIC_DOUBLES',
] as const satisfies readonly DomainErrorCode[];

/** The ids the request body examples use (kept apart, without Nest, so the tests can read them). */
export { EXAMPLE_ID } from './example-ids';
