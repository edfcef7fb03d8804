export {
  DEFAULT_SECRETS_MODE,
  type RedactedFields,
  type RedactedTexts,
  type RevealedSecret,
  type SealedSecret,
  SECRETS_MODES,
  type SecretsMode,
  type SecretWriteContext,
  type TextFields,
} from './contract/secret-redaction.types';
export { redactedLine, redactedSchema, secretCountSchema } from './contract/secret.dto';
export {
  type BackedUpSecret,
  backedUpSecretSchema,
  EXPORT_SECRETS,
  type ExportSecrets,
} from './contract/secret-backup.types';
export { SecretBackup } from './secret-backup.service';
export { SecretRedaction, SENSITIVE_TYPE } from './secret-redaction.service';
export { SecretVault } from './secret-vault.service';
export { SecretsModule } from './secrets.module';
export { SecretsHttpModule } from './http/secrets-http.module';
export { SecretsMcpModule } from './mcp/secrets-mcp.module';
export { SecretsWorkerModule } from './jobs/secrets-worker.module';
export { DataKeyRotation, RESEAL_BATCH } from './data-key-rotation.service';
export {
  type DataKeyRotationResult,
  type DataKeyStatus,
  dataKeyStatusSchema,
  type ResealSweepReport,
} from './contract/data-key.dto';
