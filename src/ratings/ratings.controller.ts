import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { ListQuery, PAGE_LIMIT, PageOf } from '../common/pagination';
import { RatingDto, RatingsService } from './ratings.service';

@ApiTags('Players')
@Controller('v1/ratings')
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  @Get()
  @MinRole('viewer')
  @ApiOperation({
    operationId: 'listRatings',
    summary: 'Club ratings, best first (R7.1)',
    description: "Every finished match rates its players by the FIBS formula; a pair plays the other side's average (R3.7).",
  })
  @ApiOkResponse({ type: PageOf(RatingDto) })
  list(@ClubKey() auth: KeyAuth, @Query() q: ListQuery) {
    return this.ratings.list(auth, q.limit ?? PAGE_LIMIT.default, q.cursor);
  }
}
