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
export const ApiProblem = (status: number, description: string) =>
  applyDecorators(ApiExtraModels(ProblemResponse), ApiResponse({ status, description, content: problemContent() }));
