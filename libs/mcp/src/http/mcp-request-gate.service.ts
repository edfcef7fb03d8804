import { Inject, Injectable } from '@nestjs/common';
import { PERMISSIONS, type Principal, roleGrants, type SessionPrincipal } from '@cairn/access';
import { RateLimits, TokenVerifier } from '@cairn/auth';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type FastifyRequest } from 'fastify';
import { GATEWAY_ERROR, jsonRpcError, type JsonRpcErrorBody } from '../json-rpc-errors';
import { ToolRegistry } from '../tool.registry';

/** An HTTP-level refusal: status, headers and a JSON-RPC error body. */
export interface GateRefusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: JsonRpcErrorBody;
}

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
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

  /** Origin and Host checks: cheap, and first, so a hostile page learns nothing else. */
  checkOrigin(request: FastifyRequest): GateRefusal | undefined {
    const origin = request.headers.origin;
    const allowed = this.config.mcp.allowedOrigins;
    if (origin !== undefined && allowed !== '*' && !allowed.includes(origin.toLowerCase())) {
      return refusal(403, GATEWAY_ERROR.forbidden, `Origin ${origin.slice(0, 100)} is not allowed`);
    }
    if (LOOPBACK_BINDS.has(this.config.http.host)) {
      // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host.
      const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      if (!LOOPBACK_HOSTS.has(host)) return refusal(403, GATEWAY_ERROR.forbidden, 'Host header not allowed');
    }
    return undefined;
  }

  async authenticate(
    request: FastifyRequest,
    metadataUrl: string,
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
      principal = await this.verifier.authenticate(request.headers.authorization, { resource_metadata: metadataUrl });
    } catch (error) {
      if (!(error instanceof CairnError) || error.status !== 401) throw error;
      return {
        refusal: {
          status: 401,
          headers: { ...error.headers },
          body: jsonRpcError(null, GATEWAY_ERROR.unauthorized, error.message),
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

  async rateLimit(principal: SessionPrincipal, id: string | number | null): Promise<GateRefusal | undefined> {
    // The budgets REST requests spend too (RateLimits): one count per token and per tenant.
    const refused = await this.limits.consume(principal);
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
    metadataUrl: string,
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
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadataUrl}", error_description="${PERMISSIONS[scope].description.replace(/"/g, "'")}"`,
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
