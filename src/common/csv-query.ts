import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQuery } from './pagination';

/**
 * `?bom=1` on a route that answers CSV: start the file with a UTF-8 byte-order mark, so
 * a spreadsheet that guesses the encoding opens names in any script right. Only then.
 */
const Bom = () =>
  applyDecorators(
    ApiPropertyOptional({
      enum: ['0', '1'],
      default: '0',
      description:
        '`1`: start the CSV answer with a UTF-8 byte-order mark (EF BB BF), so a spreadsheet that guesses the encoding reads names in any script right. `0` or absent: no mark. Ignored for other answer types.',
    }),
    IsOptional(),
    IsIn(['0', '1'], { message: 'bom must be 0 or 1' }),
  );

/** The query of a route that may answer CSV. */
export class CsvQuery {
  @Bom()
  bom?: '0' | '1';
}

/** The query of a paged list that may also answer CSV. */
export class ListCsvQuery extends ListQuery {
  @Bom()
  bom?: '0' | '1';
}
