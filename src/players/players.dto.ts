import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional, OptionalNullable } from '../common/validation';

export class CreatePlayerDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Anna Schmidt' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ maxLength: 50, nullable: true, type: String, example: 'Annie' })
  @OptionalNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  nickname?: string | null;

  @ApiPropertyOptional({ description: 'Club rating carried over from another system (R7).', default: 1500, minimum: 1, maximum: 5000 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 4 })
  @Min(1)
  @Max(5000)
  rating?: number;

  @ApiPropertyOptional({ description: 'Match points played, for the K factor of R7.', default: 0, minimum: 0, maximum: 10000000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10000000)
  experience?: number;
}

export class UpdatePlayerDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ maxLength: 50, nullable: true, type: String, description: 'null removes the nickname.' })
  @OptionalNullable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  nickname?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 5000 })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 4 })
  @Min(1)
  @Max(5000)
  rating?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 10000000 })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(10000000)
  experience?: number;
}

export class PlayerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  nickname: string | null;

  @ApiProperty({ description: 'Club rating (R7).', example: 1500 })
  rating: number;

  @ApiProperty({ description: 'Match points played (R7).', example: 0 })
  experience: number;

  @ApiProperty({
    description:
      'Goes up with every change of what `GET /v1/players/{id}` shows: his fields, his rating, and his statistics and money (every game, match and posting he is in). Also the ETag; send it as If-Match.',
    example: 1,
  })
  version: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', description: 'When his version last went up.' })
  updatedAt: string;
}
