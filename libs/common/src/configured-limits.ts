import { type z } from 'zod';

/**
 * Length limits the configuration sets (MEMORY_CONTENT_MAX_CHARS, KB_DOCUMENT_MAX_CHARS). The zod
 * schemas, built once at load, validate only the absolute maximum such a setting allows; the
 * services check the configured value. So that every schema a client reads states the limit
 * the server enforces, such a field carries this marker in its JSON Schema, and each renderer
 * (the MCP tool list, the OpenAPI document) replaces it by `maxLength` with the configured value.
 */
export const CONFIGURED_MAX_LENGTH = 'x-cairn-configured-max-length';

export const CONFIGURED_LIMITS = ['memoryContentMaxChars', 'kbDocumentMaxChars'] as const;
export type ConfiguredLimit = (typeof CONFIGURED_LIMITS)[number];
export type ConfiguredLimits = Readonly<Record<ConfiguredLimit, number>>;

/** The schema, marked as limited by `limit`; `.describe()` copies keep the mark. */
export function withConfiguredMaxLength<T extends z.ZodType>(schema: T, limit: ConfiguredLimit): T {
  return schema.meta({ [CONFIGURED_MAX_LENGTH]: limit });
}

/** The configured values, from the configuration's own fields (no dependency on its type). */
export function configuredLimitsOf(config: {
  readonly memory: { readonly contentMaxChars: number };
  readonly knowledge: { readonly documentMaxChars: number };
}): ConfiguredLimits {
  return {
    memoryContentMaxChars: config.memory.contentMaxChars,
    kbDocumentMaxChars: config.knowledge.documentMaxChars,
  };
}

/**
 * Replaces, in place and at any depth of a rendered JSON Schema or OpenAPI document, every
 * marker by `maxLength: <configured value>`; `onReplaced` sees each node it changed.
 */
export function applyConfiguredLimits(
  node: unknown,
  limits: ConfiguredLimits,
  onReplaced: (node: Record<string, unknown>) => void = () => undefined,
): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) applyConfiguredLimits(item, limits, onReplaced);
    return;
  }
  const record = node as Record<string, unknown>;
  const limit = record[CONFIGURED_MAX_LENGTH];
  if (typeof limit === 'string' && limit in limits) {
    record.maxLength = limits[limit as ConfiguredLimit];
    delete record[CONFIGURED_MAX_LENGTH];
    onReplaced(record);
  }
  for (const value of Object.values(record)) applyConfiguredLimits(value, limits, onReplaced);
}
