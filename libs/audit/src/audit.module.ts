import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditBuffer } from './audit-buffer';
import { AuditInterceptor } from './audit.interceptor';
import { PlatformAuditRepository } from './platform-audit.repository';

@Global()
@Module({
  providers: [PlatformAuditRepository, AuditBuffer, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
  exports: [PlatformAuditRepository, AuditBuffer],
})
export class AuditModule {}
