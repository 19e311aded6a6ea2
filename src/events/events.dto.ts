import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformType } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUUID, Max, Min } from 'class-validator';
import { EVENTS_PAGE_LIMIT } from '../common/pagination';
import { EVENT_TYPES, SUBJECT_KINDS } from '../outbox/event-types';

const TYPES_DESCRIPTION = `Only events of these types: a comma-separated list of ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')} (anything else: 400 INVALID_EVENT_TYPE). All types when left out.`;
const SESSION_DESCRIPTION = 'Only events of this session (its tables, games, payments and the session itself).';

/** The filters both readers take. */
class EventFilterQuery {
  @ApiPropertyOptional({ description: TYPES_DESCRIPTION, example: 'game.finished,table.updated' })
  @IsOptional()
  @IsString()
  types?: string;

  @ApiPropertyOptional({ format: 'uuid', description: SESSION_DESCRIPTION })
  @IsOptional()
  @IsUUID()
  sessionId?: string;
}

export class EventsQuery extends EventFilterQuery {
  @ApiPropertyOptional({
    description: 'An event id (`id` of an event, or the `nextCursor` of a page): only events after it. From the oldest event kept when left out. Not an event id: 400 INVALID_EVENT_ID.',
    example: '00000000000002f1000000000000003c',
  })
  @IsOptional()
  @IsString()
  after?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: EVENTS_PAGE_LIMIT.max, default: EVENTS_PAGE_LIMIT.default, description: 'Page size.' })
  @IsOptional()
  @TransformType(() => Number)
  @IsInt()
  @Min(1)
  @Max(EVENTS_PAGE_LIMIT.max)
  limit?: number;
}

export class EventStreamQuery extends EventFilterQuery {
  @ApiPropertyOptional({
    description: 'Where to resume, for clients that cannot send the `Last-Event-ID` header (the header wins when both are sent): an event id; only events after it are sent.',
    example: '00000000000002f1000000000000003c',
  })
  @IsOptional()
  @IsString()
  lastEventId?: string;
}

export class EventSubjectDto {
  @ApiProperty({
    enum: SUBJECT_KINDS,
    description: 'What the event is about: a table by the kind of its route (`match`, `money-game`, `chouette`), or a player, session, game, payment or tournament.',
  })
  kind: string;

  @ApiProperty({ description: "The subject's id; a game's is `<tableId>/games/<gameNo>`.", example: '0190c3a2-0000-7000-8000-000000000001' })
  id: string;
}

export class EventDto {
  @ApiProperty({ description: 'Opaque, and increasing in the order of the log: pass it as `after` (or `Last-Event-ID`) to read on from it.', example: '00000000000002f1000000000000003c' })
  id: string;

  @ApiProperty({ enum: EVENT_TYPES })
  type: string;

  @ApiProperty({ format: 'date-time', description: 'When the change was written.' })
  occurredAt: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The session of the change (a table's, a game's, a payment's), or null." })
  sessionId: string | null;

  @ApiProperty({ type: EventSubjectDto })
  subject: EventSubjectDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The resource after the change, as the API answers it (the player, the table, the game, the payment, the session). One exception keeps every event small: a `table.updated` event's `games` lists only the game the change concerns (none for a change between games: seats, a penalty, a forfeit); GET the table for all its games.",
  })
  data: unknown;
}

export class EventPageDto {
  @ApiProperty({ type: [EventDto], description: 'Oldest first.' })
  items: EventDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Pass as `after` for the next page: the last item's id; on an empty page the `after` given (null without one). Never null once an event has been read, so a client polls with it.",
  })
  nextCursor: string | null;
}
