import { type DynamicModule, Module } from '@nestjs/common';
import { TenantAuditLogModule } from '@cairn/audit';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { ObservabilityModule } from '@cairn/observability';
import { TenancyModule } from '@cairn/tenancy';

/**
 * Just enough of the application to move a tenant between clusters: the pools, tenancy (the
 * mover, placement), and audit's outbox rows, which follow the tenant. No Redis.
 */
@Module({})
export class TenantsToolModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: TenantsToolModule,
      imports: [ConfigModule.forRoot(config), ObservabilityModule, DatabaseModule, TenancyModule, TenantAuditLogModule],
    };
  }
}
