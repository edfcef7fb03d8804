import { type Role } from './roles';
import { type Toolset } from './toolsets';

/** The platform operator holding the bootstrap admin token. */
export interface PlatformPrincipal {
  readonly kind: 'platform';
}

/** The holder of a tenant session token. */
export interface SessionPrincipal {
  readonly kind: 'session';
  readonly tokenId: string;
  readonly tenant: { readonly id: string; readonly slug: string; readonly schema: string; readonly name: string };
  /** The token's role, already capped by its user's current role. */
  readonly role: Role;
  readonly userId: string | null;
  readonly agentId: string | null;
  /** `'*'` or the project slugs the token may use. */
  readonly projects: '*' | readonly string[];
  /** The project a tool call uses when it names none: the token's default, or its only project. */
  readonly defaultProject: string | null;
  /** MCP toolsets the token enables. */
  readonly toolsets: readonly Toolset[];
  readonly expiresAt: Date;
}

export type Principal = PlatformPrincipal | SessionPrincipal;

/** Stable audit/log identity of a principal; never the secret. */
export function actorOf(principal: Principal | undefined): string {
  if (!principal) return 'anonymous';
  if (principal.kind === 'platform') return 'platform-admin';
  return principal.userId ? `user:${principal.userId}/token:${principal.tokenId}` : `token:${principal.tokenId}`;
}

export function canAccessProject(principal: SessionPrincipal, projectSlug: string): boolean {
  return principal.projects === '*' || principal.projects.includes(projectSlug);
}

/**
 * Whose private working memory and session this is: the agent when the token names one,
 * otherwise the user, otherwise the (service) token itself.
 */
export function agentKeyOf(principal: SessionPrincipal): string {
  if (principal.agentId) return `agent:${principal.agentId}`;
  if (principal.userId) return `user:${principal.userId}`;
  return `token:${principal.tokenId}`;
}

/** The author recorded on what a principal writes. */
export interface Author {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string;
}

export function authorOf(principal: SessionPrincipal): Author {
  return { userId: principal.userId, agentId: principal.agentId, tokenId: principal.tokenId };
}
