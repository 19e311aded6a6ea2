import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubKey, KeyAuth, MinRole } from '../common/auth';
import { PageOf } from '../common/pagination';
import { AuditEntryDto, AuditQuery } from './audit.dto';
import { AuditService } from './audit.service';

@ApiTags('Clubs and keys')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @MinRole('owner')
  @ApiOperation({ operationId: 'listAuditEntries', summary: 'Who did what: every successful command of the club, by API key or the operator, oldest first' })
  @ApiOkResponse({ type: PageOf(AuditEntryDto) })
  list(@ClubKey() auth: KeyAuth, @Query() q: AuditQuery) {
    return this.audit.list(auth, q);
  }
}
