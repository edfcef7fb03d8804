/** Tenant roles, from most to least privileged in practice (DESIGN §3). */
export const ROLES = ['admin', 'member', 'orchestrator', 'agent', 'reader'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
