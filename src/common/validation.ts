import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { ApiError, FieldError } from './api-error';
import { ErrorCode } from './error-codes';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const message of Object.values(e.constraints ?? {})) {
      out.push({ field, message: message.replace(/^property (\S+) should not exist$/, 'unknown field $1') });
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
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => {
        const list = flatten(errors);
        return new ApiError(ErrorCode.VALIDATION_FAILED, list.map((e) => `${e.field}: ${e.message}`).join('; ') || 'The request is not valid.', {
          errors: list,
        });
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new ApiError(ErrorCode.VALIDATION_FAILED, 'The request body must be a JSON object.', {
          errors: [{ field: '', message: 'must be a JSON object' }],
        });
      }
    }
    return super.transform(value, metadata);
  }
}

/** A field that may be left out; when present it must not be null (PATCH semantics). */
export const Optional = () => ValidateIf((_o, v) => v !== undefined);
/** A field that may be left out or set to null (null clears it). */
export const OptionalNullable = () => ValidateIf((_o, v) => v !== undefined && v !== null);

/** Integer minor units: a safe, non-negative integer (API: beyond 2^53 − 1 is refused). */
export const MoneyMinor = () => applyDecorators(IsInt(), Min(0), Max(Number.MAX_SAFE_INTEGER));
