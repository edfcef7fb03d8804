import { type CanActivate, type ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  actorOf,
  ALLOWED_BEFORE_ACCOUNT,
  assertProjectAccess,
  AUDIT_ACTION,
  type Permission,
  PERMISSIONS,
  PLATFORM_SESSION_PERMISSIONS,
  type Principal,
  REQUIRED_PERMISSION,
  type Role,
  roleGrants,
} from '@cairn/access';
import { AuditTrail } from '@cairn/audit';
import { BadRequestError, CairnError, ForbiddenError, NotFoundError, SLUG_PATTERN } from '@cairn/common';
import { PUBLIC_ROUTE } from '@cairn/observability';
import { type TenantRef, TenantsService, toTenantRef } from '@cairn/tenancy';
import { type FastifyRequest } from 'fastify';
import { BrowserSessionGate } from './browser-session-gate.service';
import { RateLimits } from './rate-limits.service';
import { TokenVerifier } from './token-verifier.service';

/**
 * The one global guard. Deny by default: a route must be `@Public()` or declare a
 * permission. It authenticates, spends the token's and tenant's request budgets (the same
 * ones MCP requests spend), checks the role table and the permission's scope, and resolves
 * the tenant the request acts on.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('AccessGuard');

  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
    private readonly tenants: TenantsService,
    private readonly audit: AuditTrail,
    private readonly limits: RateLimits,
    private readonly browserSessions: BrowserSessionGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return false;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const permission = this.reflector.get<Permission | undefined>(REQUIRED_PERMISSION, context.getHandler());
    if (!permission || !(permission in PERMISSIONS)) {
      this.logger.error({ msg: 'route declares no permission; denied', route: request.routeOptions?.url });
      throw new ForbiddenError('This route is not available', 'route_not_permitted');
    }
    refuseQueryStringTokens(request);
    const principal = await this.authenticate(request, context);
    request.principal = principal;
    // Counted before authorization: a token probing routes it may not use spends its budget too.
    if (principal.kind === 'session') await this.limits.enforce(principal);
    try {
      const tenant = await this.authorize(principal, permission, request);
      if (tenant) {
        request.tenant = tenant;
        request.tenantId = tenant.id;
      }
      return true;
    } catch (error) {
      const action = this.reflector.get<string | undefined>(AUDIT_ACTION, context.getHandler());
      if (action && error instanceof CairnError && error.status === 403)
        await this.recordDenial(request, action, error);
      throw error;
    }
  }

  /**
   * A bearer header when there is one (it wins over a cookie, and needs no CSRF token: a
   * browser never adds it on its own); else a browser session cookie, when the process serves
   * browser sessions. A cookie rides along with every request the browser makes, so a request
   * it authenticates that changes anything must prove it comes from our page (X-CSRF-Token).
   */
  private async authenticate(request: FastifyRequest, context: ExecutionContext): Promise<Principal> {
    const browser = request.headers.authorization ? undefined : this.browserSessions.current;
    const found = browser ? await browser.authenticate(request) : undefined;
    if (!browser || !found) return this.verifier.authenticate(request.headers.authorization);
    request.browserSession = found.session;
    if (!SAFE_METHODS.has(request.method) && !browser.csrfMatches(found.session, csrfHeader(request))) {
      throw new ForbiddenError('This request needs the X-CSRF-Token header of the session', 'csrf_failed');
    }
    if (found.session.mustCreateAccount && !this.reflector.get<boolean>(ALLOWED_BEFORE_ACCOUNT, context.getHandler())) {
      throw new ForbiddenError(
        'Signed in with the bootstrap token: create a platform account first (POST /v1/platform/accounts)',
        'account_required',
      );
    }
    return found.principal;
  }

  private async authorize(
    principal: Principal,
    permission: Permission,
    request: FastifyRequest,
  ): Promise<TenantRef | undefined> {
    const scope = PERMISSIONS[permission].scope;
    if (scope === 'platform') {
      if (principal.kind !== 'platform') {
        throw new ForbiddenError('This operation needs the platform admin token', 'platform_admin_required');
      }
      return undefined;
    }
    if (scope === 'session') {
      if (principal.kind === 'platform') {
        if (PLATFORM_SESSION_PERMISSIONS.includes(permission)) return undefined;
        throw new ForbiddenError('This operation needs a tenant session token', 'session_token_required');
      }
      this.assertRole(principal.role, permission);
      return principal.tenant;
    }
    if (scope === 'project') return this.authorizeProject(principal, permission, request);
    const slug = (request.params as Record<string, string | undefined>).slug;
    if (slug === undefined || !SLUG_PATTERN.test(slug)) {
      throw new BadRequestError('Invalid tenant slug in path', undefined, 'validation_failed');
    }
    if (principal.kind === 'platform') {
      const tenant = await this.tenants.findBySlug(slug);
      if (!tenant) throw new NotFoundError(`Tenant "${slug}"`);
      return toTenantRef(tenant);
    }
    // Same answer whether or not the other tenant exists: no tenant enumeration.
    if (principal.tenant.slug !== slug) {
      throw new ForbiddenError('This token belongs to another tenant', 'wrong_tenant');
    }
    this.assertRole(principal.role, permission);
    return principal.tenant;
  }

  /** Project routes name a project of the token's own tenant; the token's scope must include it. */
  private authorizeProject(principal: Principal, permission: Permission, request: FastifyRequest): TenantRef {
    if (principal.kind === 'platform') {
      throw new ForbiddenError('Project data needs a tenant session token', 'session_token_required');
    }
    const project = (request.params as Record<string, string | undefined>).project;
    if (project === undefined || !SLUG_PATTERN.test(project)) {
      throw new BadRequestError('Invalid project slug in path', undefined, 'validation_failed');
    }
    assertProjectAccess(principal, project);
    this.assertRole(principal.role, permission);
    return principal.tenant;
  }

  private assertRole(role: Role, permission: Permission): void {
    if (!roleGrants(role, permission)) {
      throw new ForbiddenError(`Role "${role}" does not have permission "${permission}"`, 'insufficient_role');
    }
  }

  private async recordDenial(request: FastifyRequest, action: string, error: CairnError): Promise<void> {
    const session = request.principal?.kind === 'session' ? request.principal : undefined;
    await this.audit
      .record(
        {
          actor: actorOf(request.principal),
          tenantId: session?.tenant.id ?? null,
          action,
          target: request.url.split('?')[0] ?? null,
          outcome: 'denied',
          status: error.status,
          requestId: request.id,
          details: { code: error.code },
        },
        // The caller's own tenant keeps the record of what its tokens tried.
        session?.tenant.schema,
      )
      .catch((auditError: unknown) => this.logger.error({ msg: 'audit write failed', err: auditError }));
  }
}

const QUERY_TOKEN_PARAMETERS = ['access_token', 'token', 'api_key'];
/** Methods that change nothing: a cookie-authenticated request with one needs no CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function csrfHeader(request: FastifyRequest): string | undefined {
  const value = request.headers['x-csrf-token'];
  return Array.isArray(value) ? undefined : value;
}

/** Tokens in URLs end up in proxy logs and browser history; refuse them outright. */
function refuseQueryStringTokens(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && QUERY_TOKEN_PARAMETERS.some((name) => name in query)) {
    throw new BadRequestError(
      'Tokens in the query string are refused; send Authorization: Bearer <token>',
      undefined,
      'token_in_query',
    );
  }
}
