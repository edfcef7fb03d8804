// The capability module.
export { RetentionModule } from './retention.module';

// Services other libraries use.
export { RetentionSettings } from './retention-settings.service';

// The contract.
export {
  auditLogDaysSchema,
  type EffectiveRetention,
  KB_RETENTION_TIERS,
  type KbRetentionTier,
  knowledgeBaseDaysSchema,
  RETENTION_BOUNDS,
  type RetentionChanges,
  retentionChangesSchema,
  type RetentionDaysView,
  type RetentionView,
  retentionViewSchema,
  type TenantRetentionChoices,
} from './contract/retention.types';
