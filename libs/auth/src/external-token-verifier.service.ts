import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEFAULT_TOOLSETS, type SessionPrincipal } from '@cairn/access';
import { CairnError, ForbiddenError, ServiceUnavailableError, UnauthenticatedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig, issuerAllowsHttp, type McpAuthorizationServerConfig } from '@cairn/config';
import { TenantsService } from '@cairn/tenancy';
import { createRemoteJWKSet, decodeJwt, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { mapClaims, scopesOf, subjectTokenId } from './external-claims';
import { effectiveDefaultProject } from './token-evaluation';

/** Clock skew allowed on exp, nbf and iat between the issuer and this replica. */
const CLOCK_TOLERANCE_SECONDS = 30;
const FETCH_TIMEOUT_MS = 5_000;
/** The issuer's keys are refetched at least this often, besides when a token names an unknown key id. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** RFC 9068 access tokens say `at+jwt`; Keycloak, Entra ID and Okta say `JWT` or nothing. */
const ACCEPTED_TYPES = new Set(['jwt', 'at+jwt', 'application/at+jwt']);
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * JWT access tokens of the external authorization servers of MCP_AUTHORIZATION_SERVERS
 * (docs/oauth.md), verified with `jose`: issuer, audience, signature against the issuer's
 * published keys (discovered from its metadata; cached, refetched for an unknown key id after a
 * cooldown, so a rotation is picked up), algorithm, exp/nbf/iat, `typ` and the required scope.
 * The claims map to the same principal a session token gives; the tenant is looked up per request,
 * so a suspended or deleted tenant stops its tokens at once.
 */
@Injectable()
export class ExternalTokenVerifier {
  private readonly logger = new Logger('ExternalTokenVerifier');
  private readonly servers: ReadonlyMap<string, McpAuthorizationServerConfig>;
  /** Each issuer's key set, once its metadata named it; a failed discovery is forgotten and retried. */
  private readonly keySets = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(
    @Inject(CAIRN_CONFIG) config: CairnConfig,
    private readonly tenants: TenantsService,
  ) {
    this.servers = new Map(config.mcp.authorizationServers.map((server) => [server.issuer, server]));
  }

  /** Whether this token is one to verify here: external servers are configured and it has a JWT's shape. */
  accepts(token: string): boolean {
    return this.servers.size > 0 && JWT_SHAPE.test(token);
  }

  async verify(token: string, challenge: Record<string, string>): Promise<SessionPrincipal> {
    const invalid = (message: string, code: 'invalid_token' | 'token_expired' = 'invalid_token') =>
      new UnauthenticatedError(code, message, challenge);
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw invalid('Malformed access token');
    }
    const server = typeof issuer === 'string' ? this.servers.get(issuer) : undefined;
    if (!server) throw invalid("The token's issuer is not trusted here");
    const keys = await this.keySetOf(server);
    let payload: Record<string, unknown>;
    let type: string | undefined;
    try {
      const verified = await jwtVerify(token, keys, {
        issuer: server.issuer,
        audience: server.audience,
        algorithms: [...server.algorithms],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      payload = verified.payload;
      type = verified.protectedHeader.typ;
    } catch (error) {
      throw this.refusal(error, server, invalid);
    }
    if (type !== undefined && !ACCEPTED_TYPES.has(type.toLowerCase())) {
      throw invalid(`A token of type "${type.slice(0, 40)}" is not an access token`);
    }
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject.length === 0 || subject.length > 255) {
      throw invalid('The token names no subject');
    }
    if (server.requiredScope && !scopesOf(payload).includes(server.requiredScope)) {
      throw new CairnError(
        403,
        'insufficient_scope',
        `The token lacks the scope "${server.requiredScope}"`,
        undefined,
        {
          'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${server.requiredScope}"${
            challenge.resource_metadata ? `, resource_metadata="${challenge.resource_metadata}"` : ''
          }`,
        },
      );
    }
    const mapping = mapClaims(server, payload);
    if (!mapping.ok) {
      if (mapping.status === 403) throw new ForbiddenError(mapping.message, mapping.code);
      throw invalid(mapping.message);
    }
    const tenant = await this.tenants.findBySlug(mapping.tenant);
    if (!tenant) throw invalid('The token names no tenant of this server');
    if (tenant.suspendedAt) throw new ForbiddenError('This tenant is suspended; ask the operator', 'tenant_suspended');
    return {
      kind: 'session',
      tokenId: subjectTokenId(server.issuer, subject),
      tenant: { id: tenant.id, slug: tenant.slug, schema: tenant.schemaName, name: tenant.name },
      role: mapping.role,
      userId: null,
      agentId: null,
      projects: mapping.projects,
      defaultProject: effectiveDefaultProject(mapping.projects, null),
      toolsets: DEFAULT_TOOLSETS,
      expiresAt: new Date(Number(payload.exp) * 1000),
      external: { issuer: server.issuer, subject },
    };
  }

  /** What jose refused, as a 401 (a bad token) or a 503 (the issuer's keys could not be fetched). */
  private refusal(
    error: unknown,
    server: McpAuthorizationServerConfig,
    invalid: (message: string, code?: 'invalid_token' | 'token_expired') => CairnError,
  ): CairnError {
    if (error instanceof errors.JWTExpired) return invalid('Token has expired', 'token_expired');
    if (error instanceof errors.JWTClaimValidationFailed) {
      return invalid(`The token's ${error.claim} claim is not accepted here`);
    }
    if (error instanceof errors.JOSEAlgNotAllowed) return invalid("The token's signature algorithm is not accepted");
    if (
      error instanceof errors.JWSSignatureVerificationFailed ||
      error instanceof errors.JWKSNoMatchingKey ||
      error instanceof errors.JWKSMultipleMatchingKeys ||
      error instanceof errors.JWSInvalid ||
      error instanceof errors.JWTInvalid ||
      error instanceof errors.JOSENotSupported
    ) {
      return invalid("The token's signature does not verify");
    }
    this.logger.warn({ msg: 'could not fetch the keys of an authorization server', issuer: server.issuer, err: error });
    return new ServiceUnavailableError("The authorization server's keys are unreachable for the moment; retry");
  }

  private keySetOf(server: McpAuthorizationServerConfig): Promise<JWTVerifyGetKey> {
    let keys = this.keySets.get(server.issuer);
    if (!keys) {
      keys = this.discover(server);
      this.keySets.set(server.issuer, keys);
      void keys.catch(() => this.keySets.delete(server.issuer));
    }
    return keys;
  }

  /**
   * The issuer's jwks_uri from its metadata: OpenID Connect discovery, else RFC 8414. The
   * document must name the configured issuer (a look-alike's keys are never trusted).
   */
  private async discover(server: McpAuthorizationServerConfig): Promise<JWTVerifyGetKey> {
    const issuer = new URL(server.issuer);
    const path = issuer.pathname.replace(/\/+$/, '');
    const candidates = [
      `${issuer.origin}${path}/.well-known/openid-configuration`,
      `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
    ];
    for (const url of candidates) {
      const metadata = await fetchMetadata(url).catch((error: unknown) => {
        this.logger.warn({ msg: 'authorization server metadata unreachable', url, err: error });
        return undefined;
      });
      if (!metadata) continue;
      const jwksUri = metadata.jwks_uri;
      if (metadata.issuer !== server.issuer || typeof jwksUri !== 'string' || !fetchable(jwksUri)) {
        this.logger.error({ msg: 'authorization server metadata names another issuer or no usable jwks_uri', url });
        continue;
      }
      return createRemoteJWKSet(new URL(jwksUri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
        cooldownDuration: server.jwksCooldownSeconds * 1000,
        cacheMaxAge: JWKS_MAX_AGE_MS,
      });
    }
    throw new ServiceUnavailableError("The authorization server's metadata is unreachable for the moment; retry");
  }
}

async function fetchMetadata(url: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) return undefined;
  const body: unknown = await response.json();
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** https, or http to a loopback host (a Keycloak on the developer's machine, the tests' IdP). */
function fetchable(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && issuerAllowsHttp(url));
}
