import { Inject, Injectable, Logger } from '@nestjs/common';
import { PERMISSIONS, type Principal, roleGrants, type SessionPrincipal } from '@cairn/access';
import { type TokenIds, TokenVerifier } from '@cairn/auth';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type FastifyRequest } from 'fastify';
import { GATEWAY_ERROR, jsonRpcError, type JsonRpcErrorBody } from '../json-rpc-errors';
import { ToolRegistry } from '../tool.registry';
import { McpRateLimits, type RateLimitRefusal } from './mcp-rate-limits.service';

/** An HTTP-level refusal: status, headers and a JSON-RPC error body. */
export interface GateRefusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: JsonRpcErrorBody;
}

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const QUERY_TOKEN_PARAMETERS = ['access_token', 'token', 'api_key'];

/** An authenticated caller, and the budget that ran out if this request is over its rate limit. */
export interface Admission {
  readonly principal: SessionPrincipal;
  readonly limited: RateLimitRefusal | undefined;
}

/** How the rate-limit spend started before the token lookup ended. */
type EarlySpend = { readonly limited: RateLimitRefusal | undefined } | { readonly error: unknown };

/** Every check a request passes before the MCP server sees it (DESIGN §7). */
@Injectable()
export class McpRequestGate {
  private readonly logger = new Logger('McpRequestGate');

  /** Scopes in the `insufficient_scope` challenge are the permission names tools declare. */
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly verifier: TokenVerifier,
    private readonly limits: McpRateLimits,
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

  /**
   * Authenticates the request and spends one request of its rate budgets (the refusal is
   * built by `tooManyRequests` once the JSON-RPC id is known). The budgets are keyed by the
   * token's and its tenant's ids, which never change: for a token this replica has seen
   * before they are known up front, so the Redis round trip runs during the token lookup
   * instead of after it. If the token then fails, the spend is given back, so an invalid
   * token still costs no budget.
   */
  async admit(request: FastifyRequest, metadataUrl: string): Promise<Admission | { refusal: GateRefusal }> {
    const known = this.verifier.knownIds(request.headers.authorization);
    const early = known ? { ids: known, spent: this.spend(known) } : undefined;
    let auth: Awaited<ReturnType<McpRequestGate['authenticate']>>;
    try {
      auth = await this.authenticate(request, metadataUrl);
    } catch (error) {
      if (early) this.refund(early);
      throw error;
    }
    if ('refusal' in auth) {
      if (early) this.refund(early);
      return auth;
    }
    const { principal } = auth;
    const ids: TokenIds = { tokenId: principal.tokenId, tenantId: principal.tenant.id };
    if (early && early.ids.tokenId === ids.tokenId && early.ids.tenantId === ids.tenantId) {
      const spent = await early.spent;
      if ('error' in spent) throw spent.error;
      return { principal, limited: spent.limited };
    }
    // Not seen before (or, in theory only, other ids than remembered): spend now.
    if (early) this.refund(early);
    return { principal, limited: await this.limits.consume(ids) };
  }

  /** The 429 for a request `admit` found over its budget. */
  tooManyRequests(refused: RateLimitRefusal, id: string | number | null): GateRefusal {
    const message = `Rate limit exceeded: ${refused.limit} requests per minute per ${refused.scope}; retry in ${refused.retryAfterSeconds} s`;
    return {
      status: 429,
      headers: { 'Retry-After': String(refused.retryAfterSeconds) },
      body: jsonRpcError(id, GATEWAY_ERROR.rateLimited, message, {
        scope: refused.scope,
        retryAfterSeconds: refused.retryAfterSeconds,
      }),
    };
  }

  /** Settled into a value at once: a rejection must not go unhandled while the lookup runs. */
  private spend(ids: TokenIds): Promise<EarlySpend> {
    return this.limits.consume(ids).then(
      (limited) => ({ limited }),
      (error: unknown) => ({ error }),
    );
  }

  /** Gives back an early spend once it has settled; never throws (a lost refund costs one request of budget). */
  private refund({ ids, spent }: { ids: TokenIds; spent: Promise<EarlySpend> }): void {
    spent
      .then((outcome) => ('error' in outcome ? undefined : this.limits.refund(ids)))
      .catch((error: unknown) => this.logger.warn({ msg: 'could not refund a rate-limit spend', err: error }));
  }

  private async authenticate(
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
