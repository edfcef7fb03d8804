/**
 * Groups of MCP tools a token enables (DESIGN §7). A client sees only the tools of its
 * token's toolsets that its role grants, so agents do not pay context for tools they
 * would never call.
 */
export const TOOLSETS = [
  'core',
  'context',
  'knowledge',
  'maintenance',
  'harness',
  'secrets',
  'web',
  'sharing',
  'review',
  'coordination',
] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** What a token enables when it names no toolsets: the everyday memory work of an agent. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['core', 'context', 'knowledge'];

export function isToolset(value: unknown): value is Toolset {
  return typeof value === 'string' && (TOOLSETS as readonly string[]).includes(value);
}
