import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * OIDC_PROVIDERS and OIDC_CLIENT_SECRETS (docs/sign-in.md, "OIDC federation"): the identity
 * providers people may sign in with. The list is plain configuration (a ConfigMap); the client
 * secrets are credentials (a Secret), so they live in a variable of their own, keyed by provider id.
 */

/**
 * The tenant roles and the tenant slug pattern, as @cairn/access (ROLES) and @cairn/common
 * (SLUG_PATTERN) define them: configuration imports no other library, so every library may read
 * it. A spec in @cairn/accounts loads every role of ROLES through here.
 */
export const ROLES = ['admin', 'member', 'orchestrator', 'agent', 'reader'] as const;
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{2,39}$/;

/** Loopback hosts may use plain http (a Keycloak on the developer's machine, the tests' IdP). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Whether an issuer URL may be fetched over plain http (loopback only). */
export function issuerAllowsHttp(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

export const issuerUrl = z
  .string()
  .max(2_048)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    if (url.search || url.hash || url.username || url.password) return false;
    return url.protocol === 'https:' || issuerAllowsHttp(value);
  }, 'must be an https:// URL without query or fragment (http:// only for a loopback host)');

/** A claim's name, or a dotted path into nested claims (`realm_access.roles`). */
export const claimName = z.string().regex(/^[\x21-\x7e]{1,256}$/, 'must be a claim name (printable ASCII, no spaces)');

export const scopeToken = z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/, 'must be an OAuth scope');

const domain = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name')
  .transform((value) => value.toLowerCase());

export const role = z.enum(ROLES, `must be one of ${ROLES.join(', ')}`);

export const oidcProviderSchema = z
  .strictObject({
    /** In the URLs (`/v1/session/oidc/<id>/start`) and in OIDC_CLIENT_SECRETS. */
    id: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be 1-32 lower-case letters, digits or -'),
    /** What the sign-in page shows ("Sign in with <name>"). */
    name: z.string().trim().min(1).max(64),
    issuer: issuerUrl,
    clientId: z.string().min(1).max(256),
    scopes: z.array(scopeToken).min(1).max(20).default(['openid', 'email', 'profile']),
    /** Every person of this provider signs in to this tenant (a slug)… */
    tenant: z.string().regex(SLUG_PATTERN, 'must be a tenant slug').optional(),
    /** …or the tenant's slug is this claim's value. */
    tenantClaim: claimName.optional(),
    emailClaim: claimName.default('email'),
    /** Refuse a person whose `email_verified` claim is not true (off for IdPs that do not send it). */
    requireVerifiedEmail: z.boolean().default(true),
    /** Only emails of these domains may sign in (absent: any). */
    allowedDomains: z.array(domain).min(1).max(100).optional(),
    groupsClaim: claimName.default('groups'),
    /** Group (or role) name at the IdP → Cairn role; the first of admin, member, orchestrator, agent, reader that matches wins. */
    roles: z.record(z.string().min(1).max(256), role).default({}),
    /** The role of a person none of whose groups is in `roles`; absent: such a person is refused. */
    defaultRole: role.optional(),
    /** Create the user at first sign-in (just in time); false: only users an admin created may sign in. */
    jitUsers: z.boolean().default(false),
  })
  .superRefine((provider, context) => {
    if ((provider.tenant === undefined) === (provider.tenantClaim === undefined)) {
      context.addIssue({ code: 'custom', message: 'give exactly one of tenant (a slug) and tenantClaim' });
    }
    if (!provider.scopes.includes('openid')) {
      context.addIssue({ code: 'custom', path: ['scopes'], message: 'must include openid' });
    }
    if (Object.keys(provider.roles).length === 0 && provider.defaultRole === undefined) {
      context.addIssue({
        code: 'custom',
        message: 'give roles (group → role) or defaultRole, or nobody could sign in',
      });
    }
  });

export type OidcProviderSettings = z.output<typeof oidcProviderSchema>;

/** JSON text → value, with a message that never repeats the text (it may hold a secret). */
export function json(what: string, doc = 'docs/sign-in.md') {
  return z.string().transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: `must be ${what} in JSON (${doc})` });
      return z.NEVER;
    }
  });
}

export const oidcProvidersVariable = json('an array of providers').pipe(
  z
    .array(
      z.unknown().superRefine((value, context) => {
        // A secret in the list would sit in a ConfigMap, readable by anyone who can read config.
        if (value && typeof value === 'object' && 'clientSecret' in value) {
          context.addIssue({
            code: 'custom',
            path: ['clientSecret'],
            message: 'does not belong here: put client secrets in OIDC_CLIENT_SECRETS ({"<id>": "<secret>"})',
          });
        }
      }),
    )
    .max(20)
    .pipe(z.array(oidcProviderSchema))
    .superRefine((providers, context) => {
      const seen = new Set<string>();
      for (const [index, provider] of providers.entries()) {
        if (seen.has(provider.id)) {
          context.addIssue({ code: 'custom', path: [index, 'id'], message: `"${provider.id}" is used twice` });
        }
        seen.add(provider.id);
      }
    }),
);

/** `{"<provider id>": "<client secret>"}`; values never appear in a message. */
export const oidcClientSecretsVariable = json('an object of provider id → client secret').pipe(
  z.record(z.string(), z.string().min(1, 'must not be empty').max(1_024, 'must be at most 1024 characters'), {
    error: 'must be an object of provider id → client secret',
  }),
);
