import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

/** `GET /v1/audit`: reads the audit record the unit of work writes (src/db). */
@Module({
  controllers: [AuditController],
  providers: [AuditService],
})
export class AuditModule {}
