import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditBuffer } from './audit-buffer.service';
import { AuditOutbox } from './audit-outbox.service';
import { AuditQueue } from './audit-queue.service';
import { AuditTrail } from './audit-trail.service';
import { AuditInterceptor } from './audit.interceptor';
import { TenantAuditLogModule } from './tenant-audit-log.module';

@Global()
@Module({
  imports: [TenantAuditLogModule],
  providers: [
    AuditTrail,
    AuditBuffer,
    AuditQueue,
    AuditOutbox,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [TenantAuditLogModule, AuditTrail, AuditBuffer, AuditOutbox],
})
export class AuditModule {}
