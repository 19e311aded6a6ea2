import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';
import { Optional, OptionalNullable } from '../common/validation';
import { EVENT_TYPES, EventType } from '../outbox/event-types';
import { ATTEMPT_STATUSES, AttemptStatus } from './webhooks.repository';

/** The longest webhook URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** Why a URL cannot be a webhook's, or null when its form is fine (its address is checked apart). */
export function webhookUrlProblem(v: unknown): string | null {
  if (typeof v !== 'string') return 'must be a string';
  // eslint-disable-next-line no-control-regex -- whitespace and control characters are what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(v)) return 'must not hold spaces or control characters';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http or https URL';
  if (u.username !== '' || u.password !== '') return 'must not carry credentials (user:password@)';
  if (u.hostname === '') return 'must name a host';
  return null;
}

/** An http(s) URL without credentials (its address is checked by the service: WEBHOOK_URL_PRIVATE). */
function IsWebhookUrl(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (v: unknown) => webhookUrlProblem(v) === null,
        defaultMessage: (args) => `${args?.property ?? 'url'} ${webhookUrlProblem(args?.value) ?? 'is not valid'}`,
      },
    });
}

const URL_DOC: ApiPropertyOptions = {
  description:
    'Where events are POSTed: an http or https URL without credentials, at most 2048 characters. Its host must be (and resolve to) a public address unless the service runs with WEBHOOK_ALLOW_PRIVATE=true; redirects are not followed.',
  maxLength: MAX_URL_LENGTH,
  example: 'https://scores.example/hooks/backgammon',
};

const TYPES_DOC: ApiPropertyOptions = {
  type: String,
  isArray: true,
  enum: [...EVENT_TYPES],
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  nullable: true,
  description: 'The types of event to receive; absent or null: every type, those added later included.',
  example: ['player.created', 'game.finished'],
};

export class CreateWebhookDto {
  @ApiProperty(URL_DOC)
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  @IsWebhookUrl()
  url: string;

  @ApiPropertyOptional(TYPES_DOC)
  @OptionalNullable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPES, { each: true, message: `each of types must be one of: ${EVENT_TYPES.join(', ')}` })
  types?: EventType[] | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: "Only this session's events (absent: every event of the club)." })
  @OptionalNullable()
  @IsUUID()
  sessionId?: string | null;

  @ApiPropertyOptional({ maxLength: 500, nullable: true, type: String, example: 'Club website scoreboard' })
  @OptionalNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  description?: string | null;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional(URL_DOC)
  @Optional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  @IsWebhookUrl()
  url?: string;

  @ApiPropertyOptional({ ...TYPES_DOC, description: 'The types of event to receive; null: every type, those added later included.' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPES, { each: true, message: `each of types must be one of: ${EVENT_TYPES.join(', ')}` })
  types?: EventType[] | null;

  @ApiPropertyOptional({
    description:
      'false: nothing is queued for it any more and its pending deliveries wait; true: events are queued again from now on, the waiting deliveries are sent, and `disabledReason` is cleared.',
  })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ maxLength: 500, nullable: true, type: String, description: 'null removes it.' })
  @OptionalNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  description?: string | null;
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://scores.example/hooks/backgammon' })
  url: string;

  @ApiProperty({ type: String, isArray: true, enum: [...EVENT_TYPES], nullable: true, description: 'The types of event it receives; null: every type.' })
  types: string[] | null;

  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: "Only this session's events; null: every event of the club." })
  sessionId: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ description: 'Whether events are queued and sent to it.' })
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it is disabled: the receiver answered 410 Gone, or an owner disabled it; null while enabled.',
    example: null,
  })
  disabledReason: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ description: 'Increases with every change; send it back in If-Match.', example: 1 })
  version: number;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    description:
      'The signing secret (Standard Webhooks: `whsec_` and the base64 of the key). Shown only in this answer: store it now. Every delivery carries `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the key.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0Ad3lJqs0Ok=',
  })
  secret: string;
}

export class DeliveryAttemptDto {
  @ApiProperty({ description: "The id of the event sent (its `webhook-id`); a test event's starts with `test_`.", example: '00000000000002f1000000000000001a' })
  eventId: string;

  @ApiProperty({ description: "The attempt's number for this event (1 for the first), as sent in `webhook-attempt`.", example: 1 })
  attempt: number;

  @ApiProperty({
    enum: ATTEMPT_STATUSES,
    description:
      '`delivered`: the receiver answered 2xx. `failed`: anything else (another status, a refused connection, no answer within 10 s, an address refused); `nextAttemptAt` says when it is tried again, null when it is not (attempts used up, or 410 Gone). `unknown`: the instance sending it stopped before the answer was recorded; the event is sent again as the next attempt.',
  })
  status: AttemptStatus;

  @ApiProperty({ type: Number, nullable: true, description: "The receiver's HTTP status; null when none came.", example: 200 })
  responseStatus: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'What went wrong, with the start of the answer (at most 500 characters); null when delivered.', example: null })
  error: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the attempt was made.' })
  at: string;

  @ApiProperty({ format: 'date-time', type: String, nullable: true, description: 'When the event is tried again after this attempt; null when it is not.' })
  nextAttemptAt: string | null;
}
