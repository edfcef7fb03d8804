import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditBuffer } from './audit-buffer';
import { AuditTrail } from './audit-trail';
import { AuditInterceptor } from './audit.interceptor';
import { PlatformAuditRepository } from './platform-audit.repository';
import { TenantAuditLog } from './tenant-audit-log.repository';

@Global()
@Module({
  providers: [
    PlatformAuditRepository,
    TenantAuditLog,
    AuditTrail,
    AuditBuffer,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [PlatformAuditRepository, TenantAuditLog, AuditTrail, AuditBuffer],
})
export class AuditModule {}
