import { ErrorCode, statusOf } from './error-codes';

export interface FieldError {
  field: string;
  message: string;
}

/** An error the HTTP layer answers with problem+json. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    public readonly code: ErrorCode,
    public readonly detail: string,
    public readonly extra: { rule?: string; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = statusOf(code);
  }
}

export const notFound = (what: string) => new ApiError(ErrorCode.NOT_FOUND, `${what} not found`);
