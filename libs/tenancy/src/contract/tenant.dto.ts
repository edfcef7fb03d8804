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
});
export class TenantDto extends createZodDto(tenantSchema) {}

export const tenantPageSchema = z.object({ items: z.array(tenantSchema), nextCursor: z.string().nullable() });
export class TenantPageDto extends createZodDto(tenantPageSchema) {}

/** The fields of a tenant record the view shows (a TenantEntity has them). */
export interface TenantRecord {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly schemaName: string;
  readonly schemaVersion: number;
  readonly createdAt: Date;
}

export function toTenantDto(tenant: TenantRecord): z.infer<typeof tenantSchema> {
  return {
    id: tenant.id,
    slug: tenant.slug,
    name: tenant.name,
    schema: tenant.schemaName,
    schemaVersion: tenant.schemaVersion,
    createdAt: tenant.createdAt.toISOString(),
  };
}
