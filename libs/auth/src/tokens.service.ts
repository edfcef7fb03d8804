import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  actorOf,
  assertScopeWithin,
  type Principal,
  type Role,
  roleWithin,
  type SessionPrincipal,
  type Toolset,
} from '@cairn/access';
import { BadRequestError, NotFoundError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ProjectsService } from '@cairn/projects';
import { type TenantRef } from '@cairn/tenancy';
import { AuthChangeListener } from './auth-change-listener.service';
import { type SessionTokenEntity } from './session-token.entity';
import { evaluateToken } from './token-evaluation';
import { generateSessionToken, hashToken, isWellFormedSessionToken } from './token-format';
import { TokenLookups } from './token-lookups.service';
import { TokensRepository } from './tokens.repository';
import { UsersRepository } from './users.repository';

export interface IssueTokenInput {
  readonly userId?: string;
  readonly agentId?: string;
  readonly role: Role;
  readonly projects: '*' | readonly string[];
  readonly defaultProject?: string;
  readonly toolsets?: readonly Toolset[];
  readonly ttlSeconds?: number;
  readonly label?: string;
}

export type Introspection =
  { readonly active: false } | { readonly active: true; readonly principal: SessionPrincipal; readonly issuedAt: Date };

/** Issuing, listing, revoking and introspecting session tokens (DESIGN §3). */
@Injectable()
export class TokensService {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tokens: TokensRepository,
    private readonly lookups: TokenLookups,
    private readonly users: UsersRepository,
    private readonly projects: ProjectsService,
    private readonly changes: AuthChangeListener,
  ) {}

  /** Must run inside the tenant's context: project scopes are checked against its schema. */
  async issue(
    tenant: TenantRef,
    issuer: Principal,
    input: IssueTokenInput,
  ): Promise<{ token: string; record: SessionTokenEntity }> {
    const ttlSeconds = input.ttlSeconds ?? this.config.tokens.defaultTtlSeconds;
    if (ttlSeconds > this.config.tokens.maxTtlSeconds) {
      throw new BadRequestError(
        `ttlSeconds must be at most ${this.config.tokens.maxTtlSeconds}`,
        undefined,
        'ttl_too_long',
      );
    }
    if (input.userId !== undefined) await this.assertUserMayHold(tenant, input.userId, input.role);
    const projects = input.projects === '*' ? ['*'] : [...new Set(input.projects)];
    // An admin token scoped to some projects administers the tenant, but cannot mint itself a
    // way into the others.
    assertScopeWithin(issuer, projects);
    if (input.projects !== '*') await this.projects.assertExist(projects);
    if (input.defaultProject !== undefined) {
      if (input.projects !== '*' && !projects.includes(input.defaultProject)) {
        throw new BadRequestError(
          "defaultProject must be one of the token's projects",
          undefined,
          'default_project_out_of_scope',
        );
      }
      await this.projects.assertExist([input.defaultProject]);
    }

    const secret = generateSessionToken();
    const record = await this.tokens.insert({
      id: randomUUID(),
      tenantId: tenant.id,
      userId: input.userId ?? null,
      agentId: input.agentId ?? null,
      role: input.role,
      projects,
      defaultProject: input.defaultProject ?? null,
      toolsets: input.toolsets ? [...new Set(input.toolsets)] : null,
      label: input.label ?? null,
      tokenHash: secret.hash,
      hint: secret.hint,
      createdBy: actorOf(issuer),
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    });
    return { token: secret.token, record };
  }

  /**
   * The token behind a browser session (@cairn/accounts): for the signed-in user, with the user's
   * current role, every project (a user's role is tenant-wide), expiring with the session. Made
   * here so a person in the console acts through an ordinary token, under every check tokens get.
   */
  async issueForSignIn(
    tenant: TenantRef,
    input: { userId: string; expiresAt: Date; label: string; createdBy: string },
  ): Promise<SessionTokenEntity> {
    const user = await this.users.findInTenant(tenant.id, input.userId);
    if (!user || user.disabledAt) throw new BadRequestError('The user is disabled', undefined, 'user_disabled');
    const secret = generateSessionToken();
    // The secret is dropped: the session cookie, not this token, is what the browser holds.
    return this.tokens.insert({
      id: randomUUID(),
      tenantId: tenant.id,
      userId: user.id,
      agentId: null,
      role: user.role,
      projects: ['*'],
      defaultProject: null,
      toolsets: null,
      label: input.label,
      tokenHash: secret.hash,
      hint: secret.hint,
      createdBy: input.createdBy,
      expiresAt: input.expiresAt,
    });
  }

  /** Revokes a token its owner made for itself (a browser session's, at sign-out): no scope check to pass. */
  async revokeIssued(tenantId: string, id: string): Promise<void> {
    await this.tokens.revoke(tenantId, id);
    this.changes.cache.forget({ kind: 'token', id });
    await this.changes.settle();
  }

  async list(tenant: TenantRef, limit: number, cursor?: string) {
    const rows = await this.tokens.listInTenant(tenant.id, limit, cursor);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? last.id : null };
  }

  async revoke(tenant: TenantRef, revoker: Principal, id: string): Promise<void> {
    const token = await this.tokens.findInTenant(tenant.id, id);
    if (!token) throw new NotFoundError('Token');
    assertScopeWithin(revoker, token.projects);
    await this.tokens.revoke(tenant.id, id);
    // Every replica hears of it from the database's notice; this one forgets at once as well.
    this.changes.cache.forget({ kind: 'token', id });
    await this.changes.settle();
  }

  /**
   * RFC 7662 semantics: anything the caller may not see about is simply inactive, so a
   * tenant admin learns nothing about another tenant's tokens.
   */
  async introspect(caller: Principal, token: string): Promise<Introspection> {
    if (!isWellFormedSessionToken(token)) return { active: false };
    const lookup = await this.lookups.find(hashToken(token));
    const evaluation = evaluateToken(lookup, new Date());
    if (!evaluation.active || !lookup) return { active: false };
    if (caller.kind === 'session' && caller.tenant.id !== evaluation.principal.tenant.id) return { active: false };
    return { active: true, principal: evaluation.principal, issuedAt: lookup.createdAt };
  }

  private async assertUserMayHold(tenant: TenantRef, userId: string, role: Role): Promise<void> {
    const user = await this.users.findInTenant(tenant.id, userId);
    if (!user) throw new BadRequestError('userId does not name a user of this tenant', undefined, 'unknown_user');
    if (user.disabledAt) throw new BadRequestError('The user is disabled', undefined, 'user_disabled');
    if (!roleWithin(role, user.role)) {
      throw new BadRequestError(
        `A token for this user may not have role "${role}": the user's role is "${user.role}"`,
        undefined,
        'role_exceeds_user',
      );
    }
  }
}
