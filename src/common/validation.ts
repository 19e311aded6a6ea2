import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { ApiError, FieldError, fieldErrors } from './api-error';
import { ErrorCode } from './error-codes';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * With stopAtFirstError class-validator reports one constraint per field, whichever it met
 * first; a field that is absent altogether is reported as required instead, whatever its
 * constraints (a field that may be left out is skipped by IsOptional/Optional and never gets here).
 */
function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const constraints = Object.entries(e.constraints ?? {});
    const absent = e.property !== undefined && e.value === undefined && constraints.length > 0 && !constraints.some(([name]) => name === 'whitelistValidation');
    if (absent) {
      out.push({ field, message: `${e.property} is required` });
    } else {
      for (const [, message] of constraints) {
        out.push({ field, message: message.replace(/^property (\S+) should not exist$/, 'unknown field $1') });
      }
    }
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

/**
 * Whitelisting validation: unknown fields, wrong types and missing fields are a
 * 400 VALIDATION_FAILED listing every offending field. A missing body counts as {}.
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  /** `fastPaths: false`: class-validator on every body (the test that holds the fast checks to it). */
  constructor(private readonly options: { fastPaths?: boolean } = {}) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      // The value is kept only to tell an absent field (undefined) from a wrong one; it is never shown.
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => fieldErrors(ErrorCode.VALIDATION_FAILED, flatten(errors)),
    });
    cacheValidationMetadata();
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new ApiError(ErrorCode.VALIDATION_FAILED, 'The request body must be a JSON object.', {
          errors: [{ field: '', message: 'must be a JSON object' }],
        });
      }
      const fast = this.options.fastPaths === false ? undefined : fastPaths.get(metadata.metatype);
      if (fast) {
        const dto = fast(value as Record<string, unknown>);
        if (dto !== null) return dto;
      }
    }
    return super.transform(value, metadata);
  }
}

/**
 * A hot body's check without class-transformer and class-validator: the DTO instance they
 * would make of `body`, or null whenever the body is anything but plainly valid (the full
 * pipeline then runs and words the refusal). It must accept only what the DTO's rules
 * accept and build the same instance (a property test holds each one to that).
 */
export type FastBodyCheck<T> = (body: Record<string, unknown>) => T | null;

const fastPaths = new Map<unknown, FastBodyCheck<unknown>>();

/** Registers the fast check of a hot body's DTO (see FastBodyCheck). */
export function fastBodyCheck<T>(dto: new () => T, check: FastBodyCheck<T>): void {
  fastPaths.set(dto, check);
}

/** A field that may be left out; when present it must not be null (PATCH semantics). */
export const Optional = () => ValidateIf((_o, v) => v !== undefined);
/** A field that may be left out or set to null (null clears it). */
export const OptionalNullable = () => ValidateIf((_o, v) => v !== undefined && v !== null);

/** Integer minor units: a safe, non-negative integer (API: beyond 2^53 − 1 is refused). */
export const MoneyMinor = () => applyDecorators(IsInt(), Min(0), Max(Number.MAX_SAFE_INTEGER));
