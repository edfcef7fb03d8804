import { isToolset, ROLES, TOOLSETS } from '@cairn/access';
import { agentIdSchema, displayText, slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type SessionTokenEntity } from '../session-token.entity';
import { effectiveDefaultProject } from '../token-evaluation';

export const projectScopeSchema = z
  .union([z.literal('*'), z.array(slugSchema).min(1).max(100)])
  .describe('"*" for every project of the tenant, or a list of project slugs');

export const issueTokenSchema = z.strictObject({
  userId: z.uuid('must be a user id').optional().describe('Omit for a service token'),
  agentId: agentIdSchema.optional().describe('Agent identity, e.g. "claude-code:alice"'),
  role: z.enum(ROLES),
  projects: projectScopeSchema,
  defaultProject: slugSchema
    .optional()
    .describe('Project MCP tool calls use when they name none; must be in `projects`. Defaults to the only project'),
  toolsets: z
    .array(z.enum(TOOLSETS))
    .min(1)
    .max(TOOLSETS.length)
    .optional()
    .describe('MCP toolsets the token enables; default core, context, knowledge'),
  ttlSeconds: z.number().int().min(60).optional().describe('Lifetime; defaults and maximum come from configuration'),
  label: displayText(100).optional(),
});
export class IssueTokenDto extends createZodDto(issueTokenSchema) {}

export const tokenParamsSchema = z.strictObject({ slug: slugSchema, id: z.uuid('must be a token id') });
export class TokenParamsDto extends createZodDto(tokenParamsSchema) {}

const tokenFields = {
  id: z.uuid(),
  hint: z.string(),
  label: z.string().nullable(),
  userId: z.string().nullable(),
  agentId: z.string().nullable(),
  role: z.enum(ROLES),
  projects: z.union([z.literal('*'), z.array(z.string())]),
  defaultProject: z
    .string()
    .nullable()
    .describe('Project MCP tool calls use when they name none (the one set, else the only project); null: none'),
  toolsets: z.array(z.enum(TOOLSETS)).nullable().describe('null: the default toolsets'),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
};

export const tokenSchema = z.object({
  ...tokenFields,
  status: z.enum(['active', 'expired', 'revoked']),
  revokedAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export class TokenDto extends createZodDto(tokenSchema) {}

export const issuedTokenSchema = z.object({
  ...tokenFields,
  tenant: z.string(),
  token: z.string().describe('The secret. Shown only in this response; store it now.'),
});
export class IssuedTokenDto extends createZodDto(issuedTokenSchema) {}

export const tokenPageSchema = z.object({ items: z.array(tokenSchema), nextCursor: z.string().nullable() });
export class TokenPageDto extends createZodDto(tokenPageSchema) {}

function scopeOf(projects: string[]): '*' | string[] {
  return projects.includes('*') ? '*' : projects;
}

function common(token: SessionTokenEntity) {
  return {
    id: token.id,
    hint: token.hint,
    label: token.label,
    userId: token.userId,
    agentId: token.agentId,
    role: token.role,
    projects: scopeOf(token.projects),
    defaultProject: effectiveDefaultProject(scopeOf(token.projects), token.defaultProject),
    toolsets: token.toolsets ? token.toolsets.filter(isToolset) : null,
    createdBy: token.createdBy,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
  };
}

export function toTokenDto(token: SessionTokenEntity, now = new Date()): z.infer<typeof tokenSchema> {
  const status = token.revokedAt ? 'revoked' : token.expiresAt <= now ? 'expired' : 'active';
  return {
    ...common(token),
    status,
    revokedAt: token.revokedAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  };
}

export function toIssuedTokenDto(token: SessionTokenEntity, secret: string, tenantSlug: string) {
  return { ...common(token), tenant: tenantSlug, token: secret };
}
