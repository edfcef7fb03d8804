import { type CairnConfig } from '@cairn/config';
import { z } from 'zod';

/** The knowledge base's retention tiers, as @cairn/knowledge names them and the configuration sets their days. */
export const KB_RETENTION_TIERS = [
  'external',
  'internal',
  'summary',
] as const satisfies readonly (keyof CairnConfig['knowledge']['retentionDays'])[];
export type KbRetentionTier = (typeof KB_RETENTION_TIERS)[number];

/**
 * What a tenant may choose. The audit log keeps the installation's meaning of 0 (kept forever)
 * and its ceiling (AUDIT_RETENTION_DAYS); otherwise at least 30 days, so a tenant admin cannot
 * make the record of their own actions (this change included) vanish within days. Knowledge-base
 * tiers take what KB_RETENTION_*_DAYS takes: 1 to 3,650 days.
 */
export const RETENTION_BOUNDS = {
  auditLogDays: { min: 30, max: 36_500 },
  knowledgeBaseDays: { min: 1, max: 3_650 },
} as const;

/** Days the purges apply: the tenant's own where it chose one, the installation's otherwise. */
export interface EffectiveRetention {
  /** Audit entries older than this are pruned; 0 keeps them forever. */
  readonly auditLogDays: number;
  /** A document is kept this long after it was last indexed, by tier. */
  readonly knowledgeBaseDays: Readonly<Record<KbRetentionTier, number>>;
}

/** A tenant's own choices as stored; a missing value follows the installation. */
export interface TenantRetentionChoices {
  readonly auditLogDays?: number;
  readonly knowledgeBaseDays?: Readonly<Partial<Record<KbRetentionTier, number>>>;
}

/** A change: a number sets the tenant's own, null goes back to the installation's default, absent keeps it. */
export interface RetentionChanges {
  readonly auditLogDays?: number | null;
  readonly knowledgeBaseDays?: Readonly<Partial<Record<KbRetentionTier, number | null>>>;
}

export interface RetentionDaysView {
  readonly effective: number;
  readonly tenant: number | null;
  readonly default: number;
}

/** What the settings API shows: each value effective, the tenant's own, and the installation's default. */
export interface RetentionView {
  readonly auditLogDays: RetentionDaysView;
  readonly knowledgeBaseDays: Readonly<Record<KbRetentionTier, RetentionDaysView>>;
}

const days = z.number().int('must be a whole number of days');

const AUDIT_DAYS_RULE =
  `must be 0 (keep forever) or at least ${RETENTION_BOUNDS.auditLogDays.min} days ` +
  `(at most ${RETENTION_BOUNDS.auditLogDays.max}), a whole number`;

/**
 * A union rather than a refinement, so the OpenAPI document states the gap between 0 and 30 too.
 * Zod reports the failure of the branch that got furthest, so each branch says the whole rule.
 */
export const auditLogDaysSchema = z.union(
  [
    z.literal(0, AUDIT_DAYS_RULE),
    z
      .number(AUDIT_DAYS_RULE)
      .int(AUDIT_DAYS_RULE)
      .min(RETENTION_BOUNDS.auditLogDays.min, AUDIT_DAYS_RULE)
      .max(RETENTION_BOUNDS.auditLogDays.max, AUDIT_DAYS_RULE),
  ],
  { error: AUDIT_DAYS_RULE },
);

export const knowledgeBaseDaysSchema = days
  .min(RETENTION_BOUNDS.knowledgeBaseDays.min, `must be at least ${RETENTION_BOUNDS.knowledgeBaseDays.min} day`)
  .max(RETENTION_BOUNDS.knowledgeBaseDays.max, `must be at most ${RETENTION_BOUNDS.knowledgeBaseDays.max} days`);

const tierDays = (what: string, tier: KbRetentionTier) =>
  knowledgeBaseDaysSchema
    .nullable()
    .optional()
    .describe(
      `Days ${what} are kept after they were last indexed, ${RETENTION_BOUNDS.knowledgeBaseDays.min}-${RETENTION_BOUNDS.knowledgeBaseDays.max}; ` +
        `null: the installation's KB_RETENTION_${tier.toUpperCase()}_DAYS`,
    );

/** A change of the tenant's retention, as the settings API takes it. */
export const retentionChangesSchema = z
  .strictObject({
    auditLogDays: auditLogDaysSchema
      .nullable()
      .optional()
      .describe(
        `Days audit entries are kept: 0 keeps them forever, else ${RETENTION_BOUNDS.auditLogDays.min}-${RETENTION_BOUNDS.auditLogDays.max}; ` +
          "null: the installation's AUDIT_RETENTION_DAYS",
      ),
    knowledgeBaseDays: z
      .strictObject({
        external: tierDays('external documents (fetched pages, outside sources)', 'external'),
        internal: tierDays("internal documents (the project's own notes and files)", 'internal'),
        summary: tierDays('summaries (of sessions and files)', 'summary'),
      })
      .refine((value) => Object.keys(value).length > 0, 'name a tier to change')
      .meta({ minProperties: 1 })
      .optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'name a retention to change')
  // What the refinements check, stated in the document too.
  .meta({ minProperties: 1 });

const daysView = (what: string, installation: string) =>
  z
    .object({
      effective: z.number().int().describe("The days applied: the tenant's own if it chose, else the default"),
      tenant: z.number().int().nullable().describe("The tenant's own choice; null: it follows the default"),
      default: z.number().int().describe(`The installation's default (${installation})`),
    })
    .describe(what);

/** The tenant's retention as the settings API shows it. */
export const retentionViewSchema = z.object({
  auditLogDays: daysView('Days audit entries are kept; 0: forever', 'AUDIT_RETENTION_DAYS'),
  knowledgeBaseDays: z.object({
    external: daysView('Days external documents are kept after they were last indexed', 'KB_RETENTION_EXTERNAL_DAYS'),
    internal: daysView('Days internal documents are kept after they were last indexed', 'KB_RETENTION_INTERNAL_DAYS'),
    summary: daysView('Days summaries are kept after they were last indexed', 'KB_RETENTION_SUMMARY_DAYS'),
  }),
});
