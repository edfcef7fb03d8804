export { AuditBuffer } from './audit-buffer.service';
export { AuditOutbox, type AuditReservation } from './audit-outbox.service';
export { AuditQueue } from './audit-queue.service';
export { AuditHttpModule } from './http/audit-http.module';
export { AuditModule } from './audit.module';
export { AuditLogService } from './audit-log.service';
export { type AuditOutcome, type PlatformAuditEntry, PlatformAuditRepository } from './platform-audit.repository';
export { canonicalChainHash, chainLinkProblem, GENESIS_HASH } from './audit-chain';
export { AuditTrail } from './audit-trail.service';
export { TenantAuditLogModule } from './tenant-audit-log.module';
export {
  type ChainVerification,
  type TenantAuditEntry,
  TenantAuditLog,
  type TenantAuditRow,
} from './tenant-audit-log.repository';
