import { Module } from '@nestjs/common';
import { TenantAuditLogModule } from '@cairn/audit';
import { EncryptionModule } from '@cairn/encryption';
import { ProjectsModule } from '@cairn/projects';
import { defaultSecretRules, SecretScanner } from '@cairn/secret-detection';
import { DataKeyRotation } from './data-key-rotation.service';
import { SecretBackup } from './secret-backup.service';
import { SecretRedaction } from './secret-redaction.service';
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
    // The detector is a plain engine (libs/secret-detection, shared with the `cairn` command): rules compiled once per app.
    { provide: SecretScanner, useFactory: () => new SecretScanner(defaultSecretRules()) },
    SecretsRepository,
    SecretRedaction,
    SecretVault,
    SecretBackup,
    DataKeyRotation,
  ],
  exports: [SecretScanner, SecretRedaction, SecretVault, SecretBackup, DataKeyRotation],
})
export class SecretsModule {}
