import { ROLES } from '@cairn/access';
import { slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** oidc-provider's interaction and grant ids: url-safe random strings. */
const providerId = (what: string) =>
  z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, `must be ${what} id as the authorization server gave it`);

export const interactionParamsSchema = z.strictObject({ uid: providerId('an authorization request') });
export class InteractionParamsDto extends createZodDto(interactionParamsSchema) {}

export const consentSchema = z.strictObject({
  role: z.enum(ROLES).describe("The role the application acts with: the person's own or a lesser one"),
  projects: z
    .union([z.literal('*'), z.array(slugSchema).min(1).max(100)])
    .describe('"*" for every project of the tenant, or the project slugs the application may use'),
});
export class ConsentDto extends createZodDto(consentSchema) {}

export const consentDetailsSchema = z.object({
  uid: z.string(),
  client: z.object({
    id: z.string().describe('The client id: an https URL for a client described by its metadata document'),
    name: z.string().nullable().describe("The application's name, as it describes itself (unverified)"),
    uri: z.string().nullable(),
    logoUri: z.string().nullable(),
    metadataDocument: z.boolean().describe('Described by the document at its client id (else registered here)'),
    redirectUri: z.string().describe('Where the browser goes back to once the person decides'),
  }),
  resource: z.string().describe('The resource its tokens will be for: the MCP gateway'),
  scopes: z.array(z.string()),
  tenant: z.object({ slug: z.string(), name: z.string() }),
  user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
  maxRole: z.enum(ROLES),
  roles: z.array(z.enum(ROLES)),
  projects: z.array(z.object({ slug: z.string(), name: z.string() })),
});
export class ConsentDetailsDto extends createZodDto(consentDetailsSchema) {}

export const consentOutcomeSchema = z.object({
  redirectTo: z.string().describe("Where the browser goes next: back to the application's redirect URI"),
});
export class ConsentOutcomeDto extends createZodDto(consentOutcomeSchema) {}

export const grantSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string().nullable(),
  clientUri: z.string().nullable(),
  userId: z.uuid(),
  role: z.enum(ROLES),
  projects: z.union([z.literal('*'), z.array(z.string())]),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
});
export type GrantView = z.infer<typeof grantSchema>;
export const grantListSchema = z.object({ items: z.array(grantSchema) });
export class GrantListDto extends createZodDto(grantListSchema) {}

export const ownGrantParamsSchema = z.strictObject({ id: providerId('a grant') });
export class OwnGrantParamsDto extends createZodDto(ownGrantParamsSchema) {}

export const tenantGrantParamsSchema = z.strictObject({ slug: slugSchema, id: providerId('a grant') });
export class TenantGrantParamsDto extends createZodDto(tenantGrantParamsSchema) {}
