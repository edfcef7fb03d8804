import { type DynamicModule, Module } from '@nestjs/common';
import { AuditTrail, TenantAuditLogModule } from '@cairn/audit';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { EncryptionModule } from '@cairn/encryption';
import { ObservabilityModule } from '@cairn/observability';
import { SecretsModule } from '@cairn/secrets';
import { TenancyModule } from '@cairn/tenancy';

/**
 * Just enough of the application to re-wrap the tenants' data keys, or to rotate one tenant's
 * data key (its tenant schema, the secrets it counts, the audit logs it writes to). No Redis.
 */
@Module({})
export class KeysModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: KeysModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        DatabaseModule,
        EncryptionModule,
        TenancyModule,
        SecretsModule,
        TenantAuditLogModule,
      ],
      providers: [AuditTrail],
    };
  }
}
