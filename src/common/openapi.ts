import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ description: 'Path of the offending field, e.g. `sides.0.1`.', example: 'target' })
  field: string;

  @ApiProperty({ example: 'target must be an integer number' })
  message: string;
}

/** RFC 9457 problem details, as every error of this API is answered. */
export class ProblemResponse {
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

  @ApiPropertyOptional({ description: 'Id of the rule in RULES.md that refused the request.', example: 'R3.1' })
  rule?: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], maxItems: 20, description: 'Field-level validation failures: at most 20 are listed.' })
  errors?: FieldErrorDto[];

  @ApiPropertyOptional({ description: 'How many field-level failures there were (present with `errors`; may exceed the 20 listed).', example: 1 })
  errorCount?: number;

  @ApiPropertyOptional({ description: 'The request path.', example: '/v1/players' })
  instance?: string;

  @ApiPropertyOptional({ description: 'Correlation id of the request (also in the X-Request-Id header).' })
  requestId?: string;
}

export const PROBLEM_JSON = 'application/problem+json';

export function problemContent() {
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
