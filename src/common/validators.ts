import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { registerDecorator, ValidationOptions } from 'class-validator';
import { notFound } from './api-error';
import { isUuid } from './uuid';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const TIMEZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);

const isCurrency = (v: unknown): v is string => typeof v === 'string' && CURRENCIES.has(v);

/** An ISO 4217 currency code such as USD, EUR or JPY. */
export function IsCurrency(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCurrency',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an ISO 4217 currency code such as USD or EUR`, ...options },
      validator: { validate: isCurrency },
    });
}

/** An IANA time zone such as Europe/London. */
export function IsTimeZoneName(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isTimeZoneName',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an IANA time zone such as Europe/London or UTC`, ...options },
      validator: { validate: (v: unknown) => typeof v === 'string' && TIMEZONES.has(v) },
    });
}

/** Path ids: anything that is not a UUID names nothing, so it is a 404. */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  constructor(private readonly what = 'Resource') {}
  transform(value: string, _meta: ArgumentMetadata): string {
    if (!isUuid(value)) throw notFound(this.what);
    return value.toLowerCase();
  }
}
