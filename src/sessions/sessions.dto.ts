import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, registerDecorator } from 'class-validator';
import { ListQuery } from '../common/pagination';
import { IsCurrency } from '../common/validators';
import { Optional, OptionalNullable } from '../common/validation';

/** R6.4: 0 to 100 with at most two decimals, judged on the number's own decimal spelling (1e-7 is refused, never crashes). */
const RakePercent = () => (target: object, key: string) =>
  registerDecorator({
    name: 'isRakePercent',
    target: target.constructor,
    propertyName: key,
    options: { message: `${key} must be a number from 0 to 100 with at most two decimals` },
    validator: {
      validate: (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100 && /^\d{1,3}(\.\d{1,2})?$/.test(String(v)),
    },
  });

export class CreateSessionDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Tuesday club night' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ description: "ISO 4217; defaults to the club's currency (R6.1).", example: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the meeting starts (RFC 3339).' })
  @IsOptional()
  @IsDateString({ strict: true })
  startsAt?: string;

  @ApiPropertyOptional({ description: "Club commission on each winner's net, in percent, at most two decimals (R6.4).", default: 0, minimum: 0, maximum: 100, example: 2.5 })
  @IsOptional()
  @RakePercent()
  rakePercent?: number;
}

export class UpdateSessionDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String })
  @OptionalNullable()
  @IsDateString({ strict: true })
  startsAt?: string | null;

  @ApiPropertyOptional({ description: 'Applies to games finished afterwards (R6.4). Refused once the session is closed.', minimum: 0, maximum: 100 })
  @Optional()
  @RakePercent()
  rakePercent?: number;
}

export class SessionListQuery extends ListQuery {
  @ApiPropertyOptional({ enum: ['open', 'closed'] })
  @IsOptional()
  @IsIn(['open', 'closed'])
  status?: 'open' | 'closed';
}

export class SessionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ['open', 'closed'] })
  status: 'open' | 'closed';

  @ApiProperty({ example: 0 })
  rakePercent: number;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  startsAt: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  closedAt: string | null;

  @ApiProperty({ example: 1 })
  version: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}
