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
    public readonly extra: { rule?: string; errors?: FieldError[]; errorCount?: number; missing?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = statusOf(code);
  }
}

export const notFound = (what: string) => new ApiError(ErrorCode.NOT_FOUND, `${what} not found`);

/** At most this many field errors are listed in an answer; `errorCount` says how many there were. */
const MAX_LISTED_ERRORS = 20;

/**
 * A 400 listing field errors: the first MAX_LISTED_ERRORS of them, their total in
 * `errorCount`, and a detail that names the listed ones and says how many more there were.
 */
export function fieldErrors(code: ErrorCode, list: FieldError[]): ApiError {
  const listed = list.slice(0, MAX_LISTED_ERRORS);
  const more = list.length - listed.length;
  const detail = listed.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ') + (more > 0 ? `; and ${more} more (${list.length} in all)` : '');
  return new ApiError(code, detail || 'The request is not valid.', { errors: listed, errorCount: list.length });
}
