import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditBuffer } from './audit-buffer';
import { AuditTrail } from './audit-trail';
import { AuditInterceptor } from './audit.interceptor';
import { PlatformAuditRepository } from './platform-audit.repository';
import { TenantAuditLogModule } from './tenant-audit-log.module';

@Global()
@Module({
  imports: [TenantAuditLogModule],
  providers: [
    PlatformAuditRepository,
    AuditTrail,
    AuditBuffer,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [PlatformAuditRepository, TenantAuditLogModule, AuditTrail, AuditBuffer],
})
export class AuditModule {}
