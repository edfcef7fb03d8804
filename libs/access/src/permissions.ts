import { type Role } from './roles';

/**
 * Every route and tool declares one of these. `scope` says where the permission applies:
 * - `platform`: only the platform admin (bootstrap token) holds it;
 * - `tenant`: the route names a tenant in its path (`:slug`); the platform admin or a token
 *   of that very tenant whose role grants it;
 * - `session`: acts on the caller's own tenant, taken from the token.
 */
export type PermissionScope = 'platform' | 'tenant' | 'session';

export const PERMISSIONS = {
  'platform.tenants.manage': { scope: 'platform', description: 'Create, list and delete tenants' },
  'platform.audit.read': { scope: 'platform', description: 'Read the platform audit log' },
  'tenant.users.manage': { scope: 'tenant', description: "Create, list and update a tenant's users" },
  'tenant.tokens.manage': { scope: 'tenant', description: 'Issue, list and revoke session tokens' },
  'tenant.projects.manage': { scope: 'tenant', description: 'Create projects' },
  'tenant.projects.read': { scope: 'tenant', description: 'List the projects the token may read' },
  'tenant.audit.read': { scope: 'tenant', description: "Read the tenant's audit log" },
  'auth.introspect': { scope: 'session', description: 'Introspect a session token (RFC 7662)' },
  'auth.whoami': { scope: 'session', description: 'Describe the calling principal' },
} as const satisfies Record<string, { scope: PermissionScope; description: string }>;

export type Permission = keyof typeof PERMISSIONS;

/** The one permission table. Anything not listed is denied. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: [
    'tenant.users.manage',
    'tenant.tokens.manage',
    'tenant.projects.manage',
    'tenant.projects.read',
    'tenant.audit.read',
    'auth.introspect',
    'auth.whoami',
  ],
  member: ['tenant.projects.read', 'auth.whoami'],
  orchestrator: ['tenant.projects.read', 'auth.whoami'],
  agent: ['tenant.projects.read', 'auth.whoami'],
  reader: ['tenant.projects.read', 'auth.whoami'],
};

/** Session-scoped permissions the platform admin also holds (it has no tenant of its own). */
export const PLATFORM_SESSION_PERMISSIONS: readonly Permission[] = ['auth.introspect', 'auth.whoami'];

export function roleGrants(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** A token may not carry more than its user's role: its permissions must be a subset. */
export function roleWithin(tokenRole: Role, userRole: Role): boolean {
  return ROLE_PERMISSIONS[tokenRole].every((permission) => ROLE_PERMISSIONS[userRole].includes(permission));
}
