import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditInterceptor } from './audit.interceptor';
import { PlatformAuditRepository } from './platform-audit.repository';

@Global()
@Module({
  providers: [PlatformAuditRepository, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
  exports: [PlatformAuditRepository],
})
export class AuditModule {}
