import { type Role } from './roles';

/**
 * Every route and tool declares one of these. `scope` says where the permission applies:
 * - `platform`: only the platform admin (bootstrap token) holds it;
 * - `tenant`: the route names a tenant in its path (`:slug`); the platform admin or a token
 *   of that very tenant whose role grants it;
 * - `session`: acts on the caller's own tenant, taken from the token;
 * - `project`: the route names a project of the caller's tenant in its path (`:project`); a
 *   tenant session token whose project scope includes it and whose role grants it.
 */
export type PermissionScope = 'platform' | 'tenant' | 'session' | 'project';

export const PERMISSIONS = {
  'platform.tenants.manage': { scope: 'platform', description: 'Create, list and delete tenants' },
  'platform.audit.read': { scope: 'platform', description: 'Read the platform audit log' },
  'platform.accounts.manage': {
    scope: 'platform',
    description: 'Create, list, disable and enable platform-operator accounts; issue their password links',
  },
  'platform.queues.manage': {
    scope: 'platform',
    description: 'See every job queue; list, retry and remove failed jobs',
  },
  'tenant.jobs.manage': { scope: 'tenant', description: "List, retry and remove the tenant's failed background jobs" },
  'tenant.users.manage': { scope: 'tenant', description: "Create, list and update a tenant's users" },
  'tenant.tokens.manage': {
    scope: 'tenant',
    description: "Issue, list and revoke session tokens (within the caller's own projects)",
  },
  'tenant.projects.manage': { scope: 'tenant', description: 'Create projects' },
  'tenant.projects.read': { scope: 'tenant', description: 'List the projects the token may read' },
  'tenant.audit.read': { scope: 'tenant', description: "Read the tenant's audit log" },
  'tenant.settings.manage': { scope: 'tenant', description: "Read and change the tenant's settings" },
  /** Granted to no tenant role: only the platform admin rotates a tenant's data key. */
  'tenant.keys.rotate': {
    scope: 'tenant',
    description: "Rotate the tenant's data key and see how many sealed values are left on older versions",
  },
  'auth.introspect': { scope: 'session', description: 'Introspect a session token (RFC 7662)' },
  'auth.whoami': { scope: 'session', description: 'Describe the calling principal' },
  'account.session': {
    scope: 'session',
    description: "Read one's own sign-in session; sign out; manage one's own browser sessions and second factor",
  },
  'memory.read': { scope: 'project', description: 'Read, list, search and export memories' },
  'memory.write': { scope: 'project', description: 'Store memories; update, delete and relate own ones' },
  'memory.maintain': {
    scope: 'project',
    description: "Prune, decay, merge and import memories; update anyone's (deleting another's needs admin)",
  },
  'memory.share': {
    scope: 'project',
    description: "Share one's own memories (or, as an admin, anyone's) with a user or an agent; remove such shares",
  },
  'working_memory.use': { scope: 'project', description: 'Keep a private working memory per agent' },
  'context.read': { scope: 'project', description: 'Get the session briefing' },
  'events.write': { scope: 'project', description: 'Record session events and summaries' },
  'kb.read': { scope: 'project', description: 'Search the knowledge base' },
  'kb.write': { scope: 'project', description: 'Index text into the knowledge base' },
  'kb.purge': { scope: 'project', description: 'Purge expired knowledge-base documents' },
  'search.global': { scope: 'session', description: 'Search across every project the token may read' },
  'files.read': { scope: 'project', description: 'Read file summaries (L0/L1)' },
  'files.summarize': { scope: 'project', description: "Send a file's content to be summarized" },
  'memory.extract': { scope: 'project', description: 'Send a transcript to have candidate memories extracted' },
  'proposals.decide': { scope: 'project', description: 'Accept or reject extracted memory proposals' },
  'memory.promote': { scope: 'project', description: 'Propose moving a visible memory to a wider scope' },
  'memory.review': {
    scope: 'project',
    description: 'See the review queue; approve or reject promotions and resolve contradictions between authors',
  },
  'broadcast.read': {
    scope: 'project',
    description: "Read the project's coordination channel and verify its hash chain",
  },
  'broadcast.post': {
    scope: 'project',
    description: 'Post STATUS, PROPOSED and DEPENDENCY messages on the channel; acknowledge messages',
  },
  'broadcast.direct': {
    scope: 'project',
    description: 'Also post ASSIGN, MERGE, REJECT and REVISE messages (orchestrators and admins)',
  },
  'broadcast.key.manage': { scope: 'project', description: "Set or clear the project channel's posting key" },
} as const satisfies Record<string, { scope: PermissionScope; description: string }>;

export type Permission = keyof typeof PERMISSIONS;

/** The one permission table. Anything not listed is denied. */
const READ: readonly Permission[] = [
  'tenant.projects.read',
  'auth.whoami',
  'account.session',
  'memory.read',
  'context.read',
  'kb.read',
  'search.global',
  'files.read',
  'broadcast.read',
];
const AGENT_WORK: readonly Permission[] = [
  'memory.write',
  'memory.share',
  'working_memory.use',
  'events.write',
  'kb.write',
  'files.summarize',
  'memory.extract',
  'memory.promote',
  'broadcast.post',
];
/** Directing the coordination channel (DESIGN §3): the orchestrator role's own, and the admin's. */
const ORCHESTRATION: readonly Permission[] = ['broadcast.direct', 'broadcast.key.manage'];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: [
    ...READ,
    ...AGENT_WORK,
    ...ORCHESTRATION,
    'memory.maintain',
    'proposals.decide',
    'memory.review',
    'kb.purge',
    'tenant.users.manage',
    'tenant.tokens.manage',
    'tenant.projects.manage',
    'tenant.audit.read',
    'tenant.jobs.manage',
    'tenant.settings.manage',
    'auth.introspect',
  ],
  member: [...READ, ...AGENT_WORK, 'memory.maintain', 'proposals.decide'],
  orchestrator: [...READ, ...AGENT_WORK, 'memory.review', ...ORCHESTRATION],
  agent: [...READ, ...AGENT_WORK],
  reader: [...READ],
};

/** Session-scoped permissions the platform admin also holds (it has no tenant of its own). */
export const PLATFORM_SESSION_PERMISSIONS: readonly Permission[] = [
  'auth.introspect',
  'auth.whoami',
  'account.session',
];

export function roleGrants(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** A token may not carry more than its user's role: its permissions must be a subset. */
export function roleWithin(tokenRole: Role, userRole: Role): boolean {
  return ROLE_PERMISSIONS[tokenRole].every((permission) => ROLE_PERMISSIONS[userRole].includes(permission));
}
