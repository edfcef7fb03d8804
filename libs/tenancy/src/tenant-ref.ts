/** The minimum a unit of work needs to reach a tenant's data. */
export interface TenantRef {
  readonly id: string;
  readonly slug: string;
  readonly schema: string;
}

/** A tenant found live (not deleted) when work entered it, with the name a principal carries. */
export interface LiveTenant extends TenantRef {
  readonly name: string;
}

const SCHEMA_PATTERN = /^t_[0-9a-z]{1,40}$/;

/**
 * Schema names derive from the tenant id, never from user input: `t_` + base36 of the uuid.
 */
export function schemaNameFor(tenantId: string): string {
  const hex = tenantId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error('tenant id must be a uuid');
  return `t_${BigInt(`0x${hex}`).toString(36)}`;
}

/** The tenant id a schema name was made from (`schemaNameFor` backwards), for code that holds only the schema. */
export function tenantIdFromSchema(schema: string): string {
  if (!SCHEMA_PATTERN.test(schema)) throw new Error('refusing to use an unexpected schema name');
  let value = 0n;
  for (const digit of schema.slice(2)) value = value * 36n + BigInt(parseInt(digit, 36));
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Quotes a schema name for SQL after checking it has the only shape we ever create. */
export function quotedSchema(schema: string): string {
  if (!SCHEMA_PATTERN.test(schema)) throw new Error('refusing to use an unexpected schema name');
  return `"${schema}"`;
}

/** search_path value for a tenant: its schema, then public where pgvector's types live. */
export function tenantSearchPath(schema: string): string {
  return `${quotedSchema(schema)}, public`;
}
