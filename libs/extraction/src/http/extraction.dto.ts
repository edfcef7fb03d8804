import { slugSchema, stripControlCharacters, visibleTextSchema } from '@cairn/common';
import { MEMORY_CATEGORIES, memoryContentSchema, occurredAtSchema } from '@cairn/memory';
import { AGENT_DEFAULT_SCOPES } from '@cairn/memory';
import { retentionChangesSchema, retentionViewSchema } from '@cairn/retention';
import { SECRETS_MODES } from '@cairn/secrets';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { PROPOSAL_STATUSES, type Proposal } from '../contract/proposal.types';
import { EXTRACTION_MODES, FETCH_HOST_PATTERN, FETCH_HOSTS_MAX } from '../contract/tenant-settings.types';

export const projectParamSchema = z.strictObject({ project: slugSchema });
export class ProjectParamDto extends createZodDto(projectParamSchema) {}

export const proposalParamsSchema = z.strictObject({ project: slugSchema, id: z.uuid('must be a proposal id') });
export class ProposalParamsDto extends createZodDto(proposalParamsSchema) {}

export const proposalsQuerySchema = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES).default('pending'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.uuid('must be a cursor returned by a previous page').optional(),
});
export class ProposalsQueryDto extends createZodDto(proposalsQuerySchema) {}

/** Labels as the memory API takes them: trimmed, 1-64 characters. */
const label = visibleTextSchema(64)
  .transform((value) => stripControlCharacters(value.normalize('NFKC')).trim())
  .pipe(z.string().min(1).max(64, 'must be at most 64 characters'));

/** The reviewer may correct any field before the memory is stored; an empty body accepts as proposed. */
export const acceptProposalSchema = z
  .strictObject({
    content: memoryContentSchema.optional(),
    category: z.enum(MEMORY_CATEGORIES).optional(),
    importance: z.number().int().min(1).max(5).optional(),
    keywords: z.array(label).max(50, 'at most 50 keywords').optional(),
    tags: z
      .array(label)
      .max(32, 'at most 32 tags')
      .transform((tags) => [...new Set(tags.map((tag) => tag.toLowerCase()))])
      .optional(),
    occurredAt: occurredAtSchema.optional(),
  })
  .default({});
export class AcceptProposalDto extends createZodDto(acceptProposalSchema) {}

export const rejectProposalSchema = z.strictObject({}).default({});
export class RejectProposalDto extends createZodDto(rejectProposalSchema) {}

export const proposalSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid().nullable().describe('The extraction request it came from'),
  content: z.string(),
  category: z.enum(MEMORY_CATEGORIES),
  importance: z.number().int(),
  confidence: z.number(),
  tags: z.array(z.string()),
  keywords: z.array(z.string()),
  status: z.enum(PROPOSAL_STATUSES),
  memoryId: z.uuid().nullable().describe('The memory made from it, once accepted'),
  decidedBy: z.object({ userId: z.string().nullable(), agentId: z.string().nullable() }).nullable(),
  occurredAt: z.iso.datetime().nullable().describe('When the conversation took place; the memory occurs then'),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
});
export class ProposalDto extends createZodDto(proposalSchema) {}

export class ProposalPageDto extends createZodDto(
  z.object({ items: z.array(proposalSchema), nextCursor: z.string().nullable() }),
) {}

export class AcceptedProposalDto extends createZodDto(
  z.object({
    proposal: proposalSchema,
    warnings: z
      .array(
        z.object({
          memoryId: z.uuid(),
          content: z.string(),
          reason: z.string(),
          strength: z.enum(['weak', 'strong']),
          recorded: z.boolean(),
        }),
      )
      .describe('Existing memories the new one may contradict'),
  }),
) {}

export function toProposalView(proposal: Proposal): z.infer<typeof proposalSchema> {
  return {
    id: proposal.id,
    requestId: proposal.requestId,
    content: proposal.content,
    category: proposal.category,
    importance: proposal.importance,
    confidence: proposal.confidence,
    tags: proposal.tags,
    keywords: proposal.keywords,
    status: proposal.status,
    memoryId: proposal.memoryId,
    decidedBy: proposal.decidedBy,
    occurredAt: proposal.occurredAt === null ? null : new Date(proposal.occurredAt).toISOString(),
    createdAt: new Date(proposal.createdAt).toISOString(),
    decidedAt: proposal.decidedAt === null ? null : new Date(proposal.decidedAt).toISOString(),
  };
}

export const tenantSettingsSchema = z.object({
  extractionMode: z
    .enum(EXTRACTION_MODES)
    .describe('"proposals": extracted facts wait for review (default); "memories": stored as memories at once'),
  secrets: z
    .enum(SECRETS_MODES)
    .describe('Secrets in written text: "redact" to placeholders (default), "reject" the write, or "allow" them'),
  fetchAllowHosts: z.array(z.string()).describe('kb_fetch reaches only these hosts when non-empty'),
  fetchDenyHosts: z.array(z.string()).describe('Hosts kb_fetch never reaches; wins over the allow list'),
  agentDefaultScope: z
    .enum(AGENT_DEFAULT_SCOPES)
    .describe('Scope of a memory an agent stores without naming one: "project" (default) or "private"'),
  retention: retentionViewSchema.describe(
    "How long the audit log and each knowledge-base tier are kept: the days applied, the tenant's own choice and the installation's default",
  ),
});
export class TenantSettingsDto extends createZodDto(tenantSettingsSchema) {}

const fetchHosts = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .max(253)
      .regex(FETCH_HOST_PATTERN, 'must be a host name such as "example.com" or "*.example.com"'),
  )
  .max(FETCH_HOSTS_MAX);

export const updateTenantSettingsSchema = z
  .strictObject({
    extractionMode: z.enum(EXTRACTION_MODES).optional(),
    secrets: z.enum(SECRETS_MODES).optional(),
    fetchAllowHosts: fetchHosts.optional(),
    fetchDenyHosts: fetchHosts.optional(),
    agentDefaultScope: z.enum(AGENT_DEFAULT_SCOPES).optional(),
    retention: retentionChangesSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'name a setting to change')
  // What the refinement checks, stated in the document too.
  .meta({ minProperties: 1 });
export class UpdateTenantSettingsDto extends createZodDto(updateTenantSettingsSchema) {}
