import { Module } from '@nestjs/common';
import { TenantAuditLogModule } from '@cairn/audit';
import { EncryptionModule } from '@cairn/encryption';
import { ProjectsModule } from '@cairn/projects';
import { DataKeyRotation } from './data-key-rotation.service';
import { defaultSecretRules } from './default-rules';
import { SecretBackup } from './secret-backup.service';
import { SecretRedaction } from './secret-redaction.service';
import { SECRET_RULES, SecretScanner } from './secret-scanner.service';
import { SecretVault } from './secret-vault.service';
import { SecretsRepository } from './secrets.repository';

/**
 * Secret detection for every write path (issue 12): the scanner (rules compiled once per app),
 * `SecretRedaction`, which each service that stores text calls before its repository write
 * (redact by the tenant's `secrets` setting, keep originals sealed in the `secrets` table), and
 * `SecretVault`, which reads an original back for its writer or an admin (`secret_get`), and
 * `DataKeyRotation`, which rotates the tenant's data key and re-seals the originals under it.
 */
@Module({
  imports: [EncryptionModule, ProjectsModule, TenantAuditLogModule],
  providers: [
    { provide: SECRET_RULES, useFactory: defaultSecretRules },
    SecretScanner,
    SecretsRepository,
    SecretRedaction,
    SecretVault,
    SecretBackup,
    DataKeyRotation,
  ],
  exports: [SecretScanner, SecretRedaction, SecretVault, SecretBackup, DataKeyRotation],
})
export class SecretsModule {}
