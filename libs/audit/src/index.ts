export { AuditBuffer } from './audit-buffer';
export { AuditHttpModule } from './http/audit-http.module';
export { AuditModule } from './audit.module';
export { type AuditOutcome, type PlatformAuditEntry, PlatformAuditRepository } from './platform-audit.repository';
