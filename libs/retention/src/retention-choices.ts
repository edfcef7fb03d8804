import { z } from 'zod';
import {
  auditLogDaysSchema,
  type EffectiveRetention,
  KB_RETENTION_TIERS,
  type KbRetentionTier,
  knowledgeBaseDaysSchema,
  type RetentionChanges,
  type RetentionView,
  type TenantRetentionChoices,
} from './contract/retention.types';

/** A stored value read leniently: a choice that does not parse (any more) counts as never made. */
const storedChoices = z
  .object({
    auditLogDays: auditLogDaysSchema.optional().catch(undefined),
    knowledgeBaseDays: z
      .object({
        external: knowledgeBaseDaysSchema.optional().catch(undefined),
        internal: knowledgeBaseDaysSchema.optional().catch(undefined),
        summary: knowledgeBaseDaysSchema.optional().catch(undefined),
      })
      .optional()
      .catch(undefined),
  })
  .catch({});

/** The tenant's choices from what `tenant_settings` holds (undefined when never set). */
export function choicesOf(stored: unknown): TenantRetentionChoices {
  const parsed = storedChoices.parse(stored ?? {});
  const tiers = Object.fromEntries(
    KB_RETENTION_TIERS.flatMap((tier) => {
      const value = parsed.knowledgeBaseDays?.[tier];
      return value === undefined ? [] : [[tier, value]];
    }),
  ) as Partial<Record<KbRetentionTier, number>>;
  return {
    ...(parsed.auditLogDays === undefined ? {} : { auditLogDays: parsed.auditLogDays }),
    ...(Object.keys(tiers).length === 0 ? {} : { knowledgeBaseDays: tiers }),
  };
}

/** The choices after a change: a number sets one, null removes it (back to the default), absent keeps it. */
export function withChanges(choices: TenantRetentionChoices, changes: RetentionChanges): TenantRetentionChoices {
  const audit = changes.auditLogDays === undefined ? choices.auditLogDays : (changes.auditLogDays ?? undefined);
  const tiers: Partial<Record<KbRetentionTier, number>> = {};
  for (const tier of KB_RETENTION_TIERS) {
    const change = changes.knowledgeBaseDays?.[tier];
    const value = change === undefined ? choices.knowledgeBaseDays?.[tier] : (change ?? undefined);
    if (value !== undefined) tiers[tier] = value;
  }
  return choicesOf({ auditLogDays: audit, knowledgeBaseDays: tiers });
}

export function viewOf(choices: TenantRetentionChoices, defaults: EffectiveRetention): RetentionView {
  const day = (tenant: number | undefined, fallback: number) => ({
    effective: tenant ?? fallback,
    tenant: tenant ?? null,
    default: fallback,
  });
  return {
    auditLogDays: day(choices.auditLogDays, defaults.auditLogDays),
    knowledgeBaseDays: {
      external: day(choices.knowledgeBaseDays?.external, defaults.knowledgeBaseDays.external),
      internal: day(choices.knowledgeBaseDays?.internal, defaults.knowledgeBaseDays.internal),
      summary: day(choices.knowledgeBaseDays?.summary, defaults.knowledgeBaseDays.summary),
    },
  };
}

export function effectiveOf(view: RetentionView): EffectiveRetention {
  return {
    auditLogDays: view.auditLogDays.effective,
    knowledgeBaseDays: {
      external: view.knowledgeBaseDays.external.effective,
      internal: view.knowledgeBaseDays.internal.effective,
      summary: view.knowledgeBaseDays.summary.effective,
    },
  };
}
