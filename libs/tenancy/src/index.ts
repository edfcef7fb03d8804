export { CurrentTenant } from './current-tenant.decorator';
export { TenancyHttpModule } from './http/tenancy-http.module';
export { PageQueryDto, pageQuerySchema, SlugParamDto, slugParamSchema } from './contract/tenant.dto';
export { type MigrationListener, type MigrationRunReport, SchemaMigrationService } from './schema-migration.service';
export { TenantEntity } from './tenant.entity';
export { TenantConnections } from './tenant-connections.repository';
export { TenantContext } from './tenant-context.service';
export { TenantDb } from './tenant-db.service';
export { type DeletionCounts, type TenantDeletionStep, TenantDeletionSteps } from './tenant-deletion.registry';
export { TenantEntry } from './tenant-entry.service';
export { TENANT_BASELINE, TENANT_MIGRATION_LIST, TENANT_MIGRATIONS } from './migrations';
export { type TenantMigrationReport, TenantMigrator } from './tenant-migrator.service';
export { type LiveTenant, quotedSchema, schemaNameFor, tenantIdFromSchema, type TenantRef } from './tenant-ref';
export {
  type TenantMoveContext,
  type TenantMoveCounts,
  type TenantMoveStep,
  TenantMoveSteps,
} from './tenant-move.registry';
export { type TenantMoveReport, TenantMover } from './tenant-mover.service';
export { TenantMovingError, TenantPlacement } from './tenant-placement.service';
export { TenantSettingsStore } from './tenant-settings-store.service';
export { TenantTransaction } from './tenant-transaction.service';
export { TenancyModule } from './tenancy.module';
export { TenantsService, toLiveTenant, toTenantRef } from './tenants.service';
