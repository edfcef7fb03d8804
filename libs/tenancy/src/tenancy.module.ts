import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ControlSchemaRepository } from './control-schema.repository';
import { TenantEntity } from './tenant.entity';
import { TenantContext } from './tenant-context.service';
import { TenantContextInterceptor } from './tenant-context.interceptor';
import { TenantDeletionSteps } from './tenant-deletion.registry';
import { TenantDb } from './tenant-db.service';
import { TenantConnections } from './tenant-connections.repository';
import { TenantEntry } from './tenant-entry.service';
import { TenantMoveRepository } from './tenant-move.repository';
import { TenantMoveSteps } from './tenant-move.registry';
import { TenantMover } from './tenant-mover.service';
import { TenantPlacement } from './tenant-placement.service';
import { TenantPlacementRepository } from './tenant-placement.repository';
import { TENANT_BASELINE, TENANT_MIGRATION_LIST, TENANT_MIGRATIONS } from './migrations';
import { TENANT_SCHEMA_BASELINE } from './tenant-schema-baseline';
import { TenantMigrationsRepository } from './tenant-migrations.repository';
import { TenantMigrator } from './tenant-migrator.service';
import { TenantSettingsStore } from './tenant-settings-store.service';
import { TenantSettingsRepository } from './tenant-settings.repository';
import { SchemaMigrationService } from './schema-migration.service';
import { TenantTransaction } from './tenant-transaction.service';
import { TenantTransactionSettingsRepository } from './tenant-transaction-settings.repository';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

/** Tenants, their schemas, migrations and placement on clusters, and the per-request tenant context. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity])],
  providers: [
    { provide: TENANT_MIGRATIONS, useValue: TENANT_MIGRATION_LIST },
    { provide: TENANT_SCHEMA_BASELINE, useValue: TENANT_BASELINE },
    { provide: APP_INTERCEPTOR, useClass: TenantContextInterceptor },
    ControlSchemaRepository,
    SchemaMigrationService,
    TenantConnections,
    TenantContext,
    TenantDb,
    TenantDeletionSteps,
    TenantEntry,
    TenantMigrationsRepository,
    TenantMigrator,
    TenantMoveRepository,
    TenantMoveSteps,
    TenantMover,
    TenantPlacement,
    TenantPlacementRepository,
    TenantSettingsStore,
    TenantSettingsRepository,
    TenantTransaction,
    TenantTransactionSettingsRepository,
    TenantsRepository,
    TenantsService,
  ],
  exports: [
    SchemaMigrationService,
    TenantConnections,
    TenantContext,
    TenantDb,
    TenantDeletionSteps,
    TenantEntry,
    TenantMigrator,
    TenantMoveSteps,
    TenantMover,
    TenantPlacement,
    TenantSettingsStore,
    TenantTransaction,
    TenantsService,
  ],
})
export class TenancyModule {}
