import { type Role } from './roles';
import { type Toolset } from './toolsets';

/** How a principal authenticated: a bearer token, or a browser session cookie (@cairn/accounts). */
export type CredentialKind = 'token' | 'browser' | 'oauth';

/**
 * A platform operator: the holder of the bootstrap admin token, or a person signed in with a
 * platform-operator account (`accountId`), so the audit trail tells operators apart.
 */
export interface PlatformPrincipal {
  readonly kind: 'platform';
  readonly accountId?: string;
  /** Absent: a bearer token. */
  readonly via?: CredentialKind;
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
  /** Absent: a bearer token. A browser session acts through a token of its own (the same checks apply). */
  readonly via?: CredentialKind;
  /**
   * Set for a JWT access token of an external authorization server (docs/oauth.md): who issued it
   * and to whom. `tokenId` is then a UUID derived from both, stable across the subject's tokens
   * (its rate limit, its private memories), and names no row of cairn.session_tokens.
   */
  readonly external?: { readonly issuer: string; readonly subject: string };
}

/**
 * The browser session a cookie-authenticated request came with; set by the access guard beside
 * the principal, for the session routes (sign-out, CSRF token, the session list).
 */
export interface BrowserSessionRef {
  /** Hex SHA-256 of the cookie value: the row's id, never the cookie itself. */
  readonly id: string;
  readonly accountId: string | null;
  readonly kind: 'tenant' | 'platform';
  /** A bootstrap session: only creating a platform account (and signing out) is allowed. */
  readonly mustCreateAccount: boolean;
  readonly expiresAt: Date;
  readonly idleExpiresAt: Date;
}

export type Principal = PlatformPrincipal | SessionPrincipal;

/** Stable audit/log identity of a principal; never the secret. */
export function actorOf(principal: Principal | undefined): string {
  if (!principal) return 'anonymous';
  if (principal.kind === 'platform')
    return principal.accountId ? `platform-account:${principal.accountId}` : 'platform-admin';
  if (principal.external) return `jwt:${principal.external.issuer}/sub:${principal.external.subject}`;
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
