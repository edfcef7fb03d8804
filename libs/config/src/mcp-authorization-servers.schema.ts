import { z } from 'zod';
import { claimName, issuerUrl, json, role, scopeToken, SLUG_PATTERN } from './oidc-providers.schema';

/**
 * MCP_AUTHORIZATION_SERVERS (docs/oauth.md): existing authorization servers (Keycloak, Entra ID,
 * Okta…) whose JWT access tokens the gateway accepts beside session tokens, and how their claims
 * map to a tenant, a role and projects. Plain configuration (a ConfigMap): it holds no secret.
 */

/**
 * Asymmetric signature algorithms only: with HS* the "key" is a secret shared with every other
 * resource of the issuer (any of them could mint our tokens), and `none` is no signature at all.
 */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

const algorithm = z.enum(
  JWT_ALGORITHMS,
  `must be one of ${JWT_ALGORITHMS.join(', ')} (asymmetric only: none and HS* are never accepted)`,
);

export const mcpAuthorizationServerSchema = z
  .strictObject({
    /** The `iss` of its tokens, and where its metadata (and so its jwks_uri) is discovered. */
    issuer: issuerUrl,
    /** The `aud` its tokens must carry; absent: the gateway's MCP resource, `<MCP_PUBLIC_URL>/mcp` (RFC 8707). */
    audience: z.string().min(1).max(2_048).optional(),
    algorithms: z.array(algorithm).min(1).max(JWT_ALGORITHMS.length).default(['RS256', 'ES256']),
    /** Every token of this issuer acts in this tenant (a slug)… */
    tenant: z.string().regex(SLUG_PATTERN, 'must be a tenant slug').optional(),
    /** …or the tenant's slug is this claim's value. */
    tenantClaim: claimName.optional(),
    /** The claim holding the subject's groups or roles (`groups`, `roles`, `realm_access.roles`). */
    groupsClaim: claimName.default('groups'),
    /** Group (or role) at the issuer → Cairn role; the first of admin, member, orchestrator, agent, reader that matches wins. */
    roles: z.record(z.string().min(1).max(256), role).default({}),
    /** The role of a token none of whose groups is in `roles`; absent: such a token is refused (403). */
    defaultRole: role.optional(),
    /** The claim listing the project slugs the token may use; absent: every project of the tenant. */
    projectsClaim: claimName.optional(),
    /** A scope the token must carry (`scope` or `scp`); listed in the protected resource metadata. */
    requiredScope: scopeToken.optional(),
    /** The shortest wait between two fetches of the issuer's keys when a token names an unknown key id. */
    jwksCooldownSeconds: z.number().int().min(0).max(3_600).default(30),
  })
  .superRefine((server, context) => {
    if ((server.tenant === undefined) === (server.tenantClaim === undefined)) {
      context.addIssue({ code: 'custom', message: 'give exactly one of tenant (a slug) and tenantClaim' });
    }
    if (Object.keys(server.roles).length === 0 && server.defaultRole === undefined) {
      context.addIssue({
        code: 'custom',
        message: 'give roles (group → role) or defaultRole, or no token could be used',
      });
    }
  });

export type McpAuthorizationServerSettings = z.output<typeof mcpAuthorizationServerSchema>;

export const mcpAuthorizationServersVariable = json('an array of authorization servers', 'docs/oauth.md').pipe(
  z
    .array(mcpAuthorizationServerSchema)
    .max(20)
    .superRefine((servers, context) => {
      const seen = new Set<string>();
      for (const [index, server] of servers.entries()) {
        if (seen.has(server.issuer)) {
          context.addIssue({ code: 'custom', path: [index, 'issuer'], message: `"${server.issuer}" is listed twice` });
        }
        seen.add(server.issuer);
      }
    }),
);
