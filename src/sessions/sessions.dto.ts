import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ListQuery } from '../common/pagination';
import { IsCurrency } from '../common/validators';
import { Optional, OptionalNullable } from '../common/validation';

const RakePercent = () => (target: object, key: string) => {
  IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })(target, key);
  Min(0)(target, key);
  Max(100)(target, key);
};

export class CreateSessionDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Tuesday club night' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ description: 'ISO 4217; defaults to the club\'s currency (R6.1).', example: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the meeting starts (RFC 3339).' })
  @IsOptional()
  @IsDateString({ strict: true })
  startsAt?: string;

  @ApiPropertyOptional({ description: 'Club commission on each winner\'s net, in percent, at most two decimals (R6.4).', default: 0, minimum: 0, maximum: 100, example: 2.5 })
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
