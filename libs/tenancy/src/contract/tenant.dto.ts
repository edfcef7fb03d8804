import { displayText, slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export const createTenantSchema = z.strictObject({
  slug: slugSchema.describe('URL-safe tenant identifier, e.g. "acme"'),
  name: displayText(200).describe('Display name'),
});
export class CreateTenantDto extends createZodDto(createTenantSchema) {}

export const slugParamSchema = z.strictObject({ slug: slugSchema });
export class SlugParamDto extends createZodDto(slugParamSchema) {}

export const pageQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.uuid('must be a cursor returned by a previous page').optional(),
});
export class PageQueryDto extends createZodDto(pageQuerySchema) {}

export const tenantSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  schema: z.string(),
  schemaVersion: z.number().int(),
  createdAt: z.iso.datetime(),
  suspendedAt: z.iso
    .datetime()
    .nullable()
    .describe('Since when its tokens and sessions are refused (403 tenant_suspended); null: active'),
});
export class TenantDto extends createZodDto(tenantSchema) {}

export const tenantPageSchema = z.object({ items: z.array(tenantSchema), nextCursor: z.string().nullable() });
export class TenantPageDto extends createZodDto(tenantPageSchema) {}

export const tenantPurgeSchema = z.object({
  tenant: z.object({ id: z.uuid(), slug: z.string(), name: z.string() }),
  schema: z.object({
    name: z.string(),
    dropped: z.literal(true),
    tables: z
      .array(z.object({ table: z.string(), rows: z.number().int() }))
      .describe("Every table of the tenant's schema with the rows it held when it was dropped"),
    rows: z.number().int().describe('All the rows dropped with the schema'),
  }),
  access: z
    .record(z.string(), z.number().int())
    .describe('What was revoked with the tenant in the same transaction: tokensRevoked, usersDisabled'),
});
export class TenantPurgeDto extends createZodDto(tenantPurgeSchema) {}

/** The fields of a tenant record the view shows (a TenantEntity has them). */
export interface TenantRecord {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly schemaName: string;
  readonly schemaVersion: number;
  readonly createdAt: Date;
  readonly suspendedAt: Date | null;
}

export function toTenantDto(tenant: TenantRecord): z.infer<typeof tenantSchema> {
  return {
    id: tenant.id,
    slug: tenant.slug,
    name: tenant.name,
    schema: tenant.schemaName,
    schemaVersion: tenant.schemaVersion,
    createdAt: tenant.createdAt.toISOString(),
    suspendedAt: tenant.suspendedAt?.toISOString() ?? null,
  };
}

/** The purge report of a deleted tenant (what DELETE /v1/tenants/{slug} answers). */
export function toTenantPurgeDto(
  tenant: TenantRecord,
  purge: {
    readonly schema: string;
    readonly tables: readonly { table: string; rows: number }[];
    readonly access: Readonly<Record<string, number>>;
  },
): z.infer<typeof tenantPurgeSchema> {
  return {
    tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name },
    schema: {
      name: purge.schema,
      dropped: true,
      tables: [...purge.tables],
      rows: purge.tables.reduce((sum, table) => sum + table.rows, 0),
    },
    access: { ...purge.access },
  };
}
