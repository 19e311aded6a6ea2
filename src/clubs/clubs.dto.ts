import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCurrency, IsTimeZoneName } from '../common/validators';
import { Optional } from '../common/validation';
import { ROLES, Role } from '../common/auth';

export class CreateClubDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Riverside Backgammon Club' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ description: 'ISO 4217; the default currency of new sessions.', default: 'USD', example: 'EUR' })
  @IsOptional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ description: 'IANA time zone of the club.', default: 'UTC', example: 'Europe/Berlin' })
  @IsOptional()
  @IsTimeZoneName()
  timezone?: string;
}

export class UpdateClubDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: 'ISO 4217; applies to sessions created afterwards.' })
  @Optional()
  @IsCurrency()
  currency?: string;

  @ApiPropertyOptional({ description: 'IANA time zone.' })
  @Optional()
  @IsTimeZoneName()
  timezone?: string;
}

export class ClubDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ example: 'UTC' })
  timezone: string;

  @ApiProperty({ description: 'Increases with every change; send it back in If-Match.', example: 1 })
  version: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Scorer tablet, table 3' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiProperty({ enum: ROLES, description: 'owner: everything in the club, keys included; scorer: players, sessions, tables, games, payments; viewer: read only.' })
  @IsIn(ROLES)
  role: Role;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ROLES })
  role: Role;

  @ApiProperty({ description: "The token's last four characters, to tell keys apart.", example: 'x9Qa' })
  hint: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the key was revoked; null while it works.' })
  revokedAt: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The bearer token. Shown only in this answer: store it now.', example: 'bgk_…' })
  token: string;
}

export class CreatedClubDto {
  @ApiProperty({ type: ClubDto })
  club: ClubDto;

  @ApiProperty({ type: CreatedApiKeyDto, description: "The club's first key, with the owner role." })
  apiKey: CreatedApiKeyDto;
}
