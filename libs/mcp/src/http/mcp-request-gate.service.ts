import { Inject, Injectable } from '@nestjs/common';
import { PERMISSIONS, type Principal, roleGrants, type SessionPrincipal } from '@cairn/access';
import { RateLimits, TokenVerifier } from '@cairn/auth';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type FastifyRequest } from 'fastify';
import { GATEWAY_ERROR, jsonRpcError, type JsonRpcErrorBody } from '../json-rpc-errors';
import { ToolRegistry } from '../tool.registry';
import { hostnameOf, isLoopbackHost, namesThisMachine, originOf } from './gateway-host';

/** An HTTP-level refusal: status, headers and a JSON-RPC error body. */
export interface GateRefusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: JsonRpcErrorBody;
}

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const QUERY_TOKEN_PARAMETERS = ['access_token', 'token', 'api_key'];

/** Every check a request passes before the MCP server sees it (DESIGN §7). */
@Injectable()
export class McpRequestGate {
  /** Scopes in the `insufficient_scope` challenge are the permission names tools declare. */
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly verifier: TokenVerifier,
    private readonly limits: RateLimits,
    private readonly registry: ToolRegistry,
  ) {}

  /**
   * Host and Origin checks: cheap, and first, so a hostile page learns nothing else. A Host
   * is checked while bound to loopback (DNS rebinding: a page on evil.example resolving to
   * 127.0.0.1 still sends its own Host); an Origin must be listed in MCP_ALLOWED_ORIGINS or
   * be the gateway's own (see publicBase), so a same-origin page works without configuration.
   */
  checkOrigin(request: FastifyRequest): GateRefusal | undefined {
    if (LOOPBACK_BINDS.has(this.config.http.host)) {
      const host = hostnameOf(request.headers.host);
      if (!host || !isLoopbackHost(host)) return refusal(403, GATEWAY_ERROR.forbidden, 'Host header not allowed');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !this.allowsOrigin(origin, request)) {
      return refusal(403, GATEWAY_ERROR.forbidden, `Origin ${origin.slice(0, 100)} is not allowed`);
    }
    return undefined;
  }

  /** Whether a browser page of this origin may call the gateway (and get CORS headers for it). */
  allowsOrigin(origin: string, request: FastifyRequest): boolean {
    const allowed = this.config.mcp.allowedOrigins;
    if (allowed === '*' || allowed.includes(origin.toLowerCase())) return true;
    const own = this.publicBase(request);
    return own !== undefined && originOf(origin) === originOf(own);
  }

  /**
   * The gateway's own base URL: MCP_PUBLIC_URL when set. Without it, the origin the request
   * reached it on, but only when its Host names this machine (loopback, the host name, an
   * interface address): a Host taken on trust would let any request choose what the gateway
   * says it is, in the protected resource metadata and the challenges pointing at it.
   * Undefined when neither holds (a gateway behind a proxy must be told its MCP_PUBLIC_URL).
   */
  publicBase(request: FastifyRequest): string | undefined {
    const configured = this.config.mcp.publicUrl;
    if (configured !== undefined) return configured;
    const host = hostnameOf(request.headers.host);
    if (!host || !namesThisMachine(host)) return undefined;
    return originOf(`${request.protocol}://${request.headers.host}`);
  }

  async authenticate(
    request: FastifyRequest,
    metadataUrl: string | undefined,
  ): Promise<{ principal: SessionPrincipal } | { refusal: GateRefusal }> {
    const query = request.query as Record<string, unknown> | undefined;
    if (query && QUERY_TOKEN_PARAMETERS.some((name) => name in query)) {
      return {
        refusal: refusal(
          400,
          GATEWAY_ERROR.unauthorized,
          'Tokens in the query string are refused; send Authorization: Bearer <token>',
        ),
      };
    }
    let principal: Principal;
    try {
      principal = await this.verifier.authenticate(request.headers.authorization, this.challenge(metadataUrl));
    } catch (error) {
      // 401: no usable token; 403: a good token whose tenant is suspended (tenant_suspended).
      if (!(error instanceof CairnError) || (error.status !== 401 && error.status !== 403)) throw error;
      return {
        refusal: {
          status: error.status,
          headers: { ...error.headers },
          body: jsonRpcError(
            null,
            error.status === 401 ? GATEWAY_ERROR.unauthorized : GATEWAY_ERROR.forbidden,
            error.message,
          ),
        },
      };
    }
    if (principal.kind !== 'session') {
      return {
        refusal: refusal(
          403,
          GATEWAY_ERROR.forbidden,
          'MCP needs a tenant session token, not the platform admin token',
        ),
      };
    }
    return { principal };
  }

  /**
   * The scopes a token must carry, from the authorization servers (docs/oauth.md):
   * advertised in the metadata and in the 401 challenge, so a client asks its server for them.
   */
  requiredScopes(): string[] {
    const scopes = this.config.mcp.authorizationServers.map((server) => server.requiredScope);
    // Cairn's own authorization server (OAUTH_ENABLED) issues its tokens for one scope.
    if (this.config.oauth.enabled) scopes.unshift(this.config.oauth.scope);
    return [...new Set(scopes.filter((scope): scope is string => scope !== undefined))];
  }

  /** RFC 9728 §5.1: a 401's challenge points at the metadata (and names the scopes to ask for, when any). */
  private challenge(metadataUrl: string | undefined): Record<string, string> {
    const scopes = this.requiredScopes();
    return {
      ...(metadataUrl ? { resource_metadata: metadataUrl } : {}),
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  async rateLimit(
    principal: SessionPrincipal,
    id: string | number | null,
    requests = 1,
  ): Promise<GateRefusal | undefined> {
    // The budgets REST requests spend too (RateLimits): one count per message, per token and per tenant.
    const refused = await this.limits.consume(principal, requests);
    if (!refused) return undefined;
    return {
      status: 429,
      headers: { 'Retry-After': String(refused.retryAfterSeconds) },
      body: jsonRpcError(id, GATEWAY_ERROR.rateLimited, refused.message, {
        scope: refused.scope,
        retryAfterSeconds: refused.retryAfterSeconds,
      }),
    };
  }

  /**
   * A `tools/call` of a tool the token's toolsets include but its role does not grant is a
   * 403 with an `insufficient_scope` challenge (MCP authorization, step-up), not a tool error.
   */
  checkToolPermission(
    principal: SessionPrincipal,
    message: unknown,
    id: string | number | null,
    metadataUrl: string | undefined,
  ): GateRefusal | undefined {
    if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== 'tools/call') {
      return undefined;
    }
    const name = (message as { params?: { name?: unknown } }).params?.name;
    const tool = typeof name === 'string' ? this.registry.get(name) : undefined;
    if (!tool || !principal.toolsets.includes(tool.spec.toolset) || roleGrants(principal.role, tool.spec.permission)) {
      return undefined;
    }
    const scope = tool.spec.permission;
    return {
      status: 403,
      headers: {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}",${metadataUrl ? ` resource_metadata="${metadataUrl}",` : ''} error_description="${PERMISSIONS[scope].description.replace(/"/g, "'")}"`,
      },
      body: jsonRpcError(
        id,
        GATEWAY_ERROR.forbidden,
        `Role "${principal.role}" may not call ${tool.spec.name} (needs ${scope})`,
      ),
    };
  }
}

function refusal(status: number, code: number, message: string): GateRefusal {
  return { status, headers: {}, body: jsonRpcError(null, code, message) };
}
