import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantEntity } from './tenant.entity';
import { TenantContext } from './tenant-context';
import { TenantContextInterceptor } from './tenant-context.interceptor';
import { TenantDb } from './tenant-db';
import { TENANT_MIGRATION_LIST, TENANT_MIGRATIONS } from './tenant-migrations';
import { TenantMigrator } from './tenant-migrator';
import { SchemaMigrationService } from './schema-migration.service';
import { TenantTransaction } from './tenant-transaction';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

/** Tenants, their schemas and migrations, and the per-request tenant context. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity])],
  providers: [
    { provide: TENANT_MIGRATIONS, useValue: TENANT_MIGRATION_LIST },
    { provide: APP_INTERCEPTOR, useClass: TenantContextInterceptor },
    SchemaMigrationService,
    TenantContext,
    TenantDb,
    TenantMigrator,
    TenantTransaction,
    TenantsRepository,
    TenantsService,
  ],
  exports: [SchemaMigrationService, TenantContext, TenantDb, TenantMigrator, TenantTransaction, TenantsService],
})
export class TenancyModule {}
