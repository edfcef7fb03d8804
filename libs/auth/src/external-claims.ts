import { createHash } from 'node:crypto';
import { type Role, ROLES } from '@cairn/access';
import { SLUG_PATTERN } from '@cairn/common';
import { type McpAuthorizationServerConfig } from '@cairn/config';

type Claims = Readonly<Record<string, unknown>>;

/** What a verified access token's claims give under its issuer's mapping (docs/oauth.md). */
export type ClaimMapping =
  | {
      readonly ok: true;
      readonly tenant: string;
      readonly role: Role;
      readonly projects: '*' | readonly string[];
    }
  | {
      readonly ok: false;
      /** 401: the token names no tenant here; 403: a good token that may not act here. */
      readonly status: 401 | 403;
      readonly code: string;
      readonly message: string;
    };

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

/** A list claim as strings: an array, or one string of space- or comma-separated items. */
function listAt(claims: Claims, path: string): string[] {
  const value = claimAt(claims, path);
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The token's scopes: `scope` (RFC 9068, space-separated) or `scp` (Entra ID, Okta: an array or a string). */
export function scopesOf(claims: Claims): string[] {
  return [...listAt(claims, 'scope'), ...listAt(claims, 'scp')];
}

/**
 * Tenant, role and projects under the issuer's mapping. The role: of the roles the token's
 * groups map to, the first in the order admin, member, orchestrator, agent, reader; else the
 * default role; else refused.
 */
export function mapClaims(server: McpAuthorizationServerConfig, claims: Claims): ClaimMapping {
  const tenant = server.tenant ?? claimAt(claims, server.tenantClaim ?? '');
  if (typeof tenant !== 'string' || !SLUG_PATTERN.test(tenant)) {
    return { ok: false, status: 401, code: 'invalid_token', message: 'The token names no tenant of this server' };
  }
  const mapped = new Set(listAt(claims, server.groupsClaim).map((group) => server.roles[group]));
  const role = ROLES.find((candidate) => mapped.has(candidate)) ?? server.defaultRole;
  if (!role) {
    return {
      ok: false,
      status: 403,
      code: 'no_role',
      message: "None of the token's groups at its issuer gives a role here",
    };
  }
  if (server.projectsClaim === undefined) return { ok: true, tenant, role, projects: '*' };
  const listed = listAt(claims, server.projectsClaim);
  if (listed.includes('*')) return { ok: true, tenant, role, projects: '*' };
  const projects = [...new Set(listed.filter((slug) => SLUG_PATTERN.test(slug)))].slice(0, 100);
  if (projects.length === 0) {
    return { ok: false, status: 403, code: 'no_projects', message: 'The token names no project it may use' };
  }
  return { ok: true, tenant, role, projects };
}

/**
 * The stable id an external subject acts under where Cairn records a token id (rate limits,
 * authorship, private memories, the MCP session binding): a UUID (version 8, RFC 9562) derived
 * from issuer and subject, so two issuers' subjects never share one.
 */
export function subjectTokenId(issuer: string, subject: string): string {
  const bytes = createHash('sha256').update(`cairn-external-subject\0${issuer}\0${subject}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
