import { type Role, ROLES } from '@cairn/access';
import { ForbiddenError, SLUG_PATTERN, stripControlCharacters } from '@cairn/common';
import { type OidcProviderConfig } from '@cairn/config';

/** Who the provider says signed in, read from the validated claims through the provider's mapping. */
export interface OidcIdentity {
  /** The provider's stable id for the person (`sub`). */
  readonly subject: string;
  /** Lower-case. */
  readonly email: string;
  readonly name: string;
  /** The tenant's slug. */
  readonly tenant: string;
  /** The role the mapping gives; it replaces the user's role at every sign-in. */
  readonly role: Role;
}

type Claims = Readonly<Record<string, unknown>>;

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/**
 * A claim by name, or by a dotted path into nested claims (`realm_access.roles`). The name is
 * tried as-is first: namespaced claims (`https://example.com/groups`) contain dots themselves.
 */
export function claimAt(claims: Claims, path: string): unknown {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

/** The groups (or roles) claim as strings: an array, or one string; anything else counts as none. */
function groupsOf(claims: Claims, path: string): string[] {
  const value = claimAt(claims, path);
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((group): group is string => typeof group === 'string') : [];
}

/**
 * The role the mapping gives: of the roles the person's groups map to, the first in the order
 * admin, member, orchestrator, agent, reader; else the default role; else none (refused).
 */
export function roleFor(provider: OidcProviderConfig, claims: Claims): Role | undefined {
  const mapped = new Set(groupsOf(claims, provider.groupsClaim).map((group) => provider.roles[group]));
  return ROLES.find((role) => mapped.has(role)) ?? provider.defaultRole;
}

const refuse = (code: string, message: string) => new ForbiddenError(message, code);

/** The identity the claims give under the provider's mapping, or a 403 that says what is missing. */
export function identityFrom(provider: OidcProviderConfig, claims: Claims): OidcIdentity {
  const email = claimAt(claims, provider.emailClaim);
  if (typeof email !== 'string' || !EMAIL.test(email) || email.length > 254) {
    throw refuse('email_missing', 'The identity provider did not give an email address');
  }
  const verified = claims.email_verified;
  if (provider.requireVerifiedEmail && verified !== true && verified !== 'true') {
    throw refuse('email_not_verified', 'The identity provider has not verified this email address');
  }
  const lower = email.toLowerCase();
  const domain = lower.slice(lower.lastIndexOf('@') + 1);
  if (provider.allowedDomains && !provider.allowedDomains.includes(domain)) {
    throw refuse('email_domain_not_allowed', 'Email addresses of this domain may not sign in here');
  }
  const tenant = provider.tenant ?? claimAt(claims, provider.tenantClaim as string);
  if (typeof tenant !== 'string' || !SLUG_PATTERN.test(tenant)) {
    throw refuse('tenant_missing', 'The identity provider did not say which workspace to sign in to');
  }
  const role = roleFor(provider, claims);
  if (!role) throw refuse('no_role', 'None of your groups at the identity provider gives a role here');
  const given = typeof claims.name === 'string' ? stripControlCharacters(claims.name).replace(/\s+/g, ' ').trim() : '';
  const name = (given || lower.split('@')[0]).slice(0, 200);
  return { subject: String(claims.sub), email: lower, name, tenant, role };
}
