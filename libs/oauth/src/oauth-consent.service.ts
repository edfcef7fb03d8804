import { Inject, Injectable } from '@nestjs/common';
import { actorOf, type Principal, type Role, ROLES, roleWithin, type SessionPrincipal } from '@cairn/access';
import { AuditTrail } from '@cairn/audit';
import { TokensService, UsersService } from '@cairn/auth';
import { CairnError, ForbiddenError, NotFoundError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ProjectsService } from '@cairn/projects';
import { type TenantRef } from '@cairn/tenancy';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type InteractionResults } from 'oidc-provider';
import { OAuthGrantsRepository } from './oauth-grants.repository';
import { MCP_SCOPE, OAuthProvider } from './oauth-provider.service';

/** What the consent page shows: who asks, for what, and what the person may give. */
export interface ConsentDetails {
  readonly uid: string;
  readonly client: {
    readonly id: string;
    readonly name: string | null;
    readonly uri: string | null;
    readonly logoUri: string | null;
    /** Described by the document at its https client_id (else registered with this server). */
    readonly metadataDocument: boolean;
    readonly redirectUri: string;
  };
  readonly resource: string;
  readonly scopes: string[];
  readonly tenant: { readonly slug: string; readonly name: string };
  readonly user: { readonly id: string; readonly email: string; readonly name: string };
  /** The person's own role: the most a grant may carry; `roles` lists every role within it. */
  readonly maxRole: Role;
  readonly roles: Role[];
  readonly projects: { readonly slug: string; readonly name: string }[];
}

export interface ConsentChoice {
  readonly role: Role;
  readonly projects: '*' | readonly string[];
}

const OIDC_SCOPES = new Set(['openid', 'offline_access']);

/**
 * The consent step of an authorization request: the console's page asks for the details and
 * posts the person's choice. The interaction is the one whose cookie the browser holds
 * (oidc-provider binds it to the browser that started it), the person is the console session's,
 * and the choice can only narrow what the person has: a role within theirs, some or all of the
 * tenant's projects. Consenting makes a session token for the grant (never handed out) and the
 * grant itself; the client then gets tokens that act through that token.
 */
@Injectable()
export class OAuthConsent {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly provider: OAuthProvider,
    private readonly grants: OAuthGrantsRepository,
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly audit: AuditTrail,
  ) {}

  async details(
    uid: string,
    principal: Principal,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<ConsentDetails> {
    const person = this.personOf(principal);
    const interaction = await this.interaction(uid, request, reply);
    const client = await this.clientOf(interaction.params.client_id);
    const user = await this.users.get(person.tenant, person.userId as string);
    const projects = await this.projects.list('*');
    return {
      uid,
      client: {
        id: client.clientId,
        name: client.clientName ?? null,
        uri: client.clientUri ?? null,
        logoUri: client.logoUri ?? null,
        metadataDocument: (client as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument === true,
        redirectUri: stringOf(interaction.params.redirect_uri) ?? client.redirectUris?.[0] ?? '',
      },
      resource: this.resourceOf(interaction.params),
      scopes: scopesOf(interaction.params),
      tenant: { slug: person.tenant.slug, name: person.tenant.name },
      user: { id: user.id, email: user.email, name: user.name },
      maxRole: person.role,
      roles: ROLES.filter((role) => roleWithin(role, person.role)),
      projects: projects.map((project) => ({ slug: project.slug, name: project.name })),
    };
  }

  /** Records the grant and answers where the browser goes next: back to the client, with a code. */
  async consent(
    uid: string,
    principal: Principal,
    choice: ConsentChoice,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ redirectTo: string; grantId: string }> {
    const person = this.personOf(principal);
    const interaction = await this.interaction(uid, request, reply);
    const client = await this.clientOf(interaction.params.client_id);
    const userId = person.userId as string;
    const { oauth } = this.config;
    // Checks the role against the user's and the projects against the tenant's, as for any token.
    const { record: token } = await this.tokens.issue(person.tenant, person, {
      userId,
      role: choice.role,
      projects: choice.projects,
      ttlSeconds: oauth.grantTtlSeconds,
      label: `OAuth: ${(client.clientName ?? client.clientId).slice(0, 80)}`,
    });
    try {
      const provider = this.provider.instance;
      const grant = new provider.Grant({ accountId: userId, clientId: client.clientId });
      const oidcScopes = scopesOf(interaction.params).filter((scope) => OIDC_SCOPES.has(scope));
      if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
      grant.addResourceScope(this.resourceOf(interaction.params), MCP_SCOPE);
      const grantId = await grant.save();
      await this.grants.insert({
        id: grantId,
        tenantId: person.tenant.id,
        userId,
        tokenId: token.id,
        clientId: client.clientId,
        clientName: client.clientName?.slice(0, 200) ?? null,
        clientUri: client.clientUri?.slice(0, 2048) ?? null,
        role: choice.role,
        projects: token.projects,
        expiresAt: token.expiresAt,
      });
      // The grant in the tenant's own log (the request's outcome is audited as oauth.consent.allow).
      await this.audit.record(
        {
          actor: actorOf(person),
          tenantId: person.tenant.id,
          action: 'oauth.grant.create',
          target: `oauth-grant:${grantId}`,
          outcome: 'success',
          status: 200,
          requestId: request.id,
          details: { clientId: client.clientId.slice(0, 300), role: choice.role, projects: token.projects },
        },
        person.tenant.schema,
      );
      const result: InteractionResults = { login: { accountId: userId }, consent: { grantId } };
      const redirectTo = await provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: false,
      });
      return { redirectTo, grantId };
    } catch (error) {
      await this.tokens.revokeIssued(person.tenant.id, token.id);
      throw error;
    }
  }

  /** The person declined: the client hears `access_denied`. */
  async deny(
    uid: string,
    principal: Principal,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ redirectTo: string }> {
    this.personOf(principal);
    await this.interaction(uid, request, reply);
    const redirectTo = await this.provider.instance.interactionResult(
      request.raw,
      reply.raw,
      { error: 'access_denied', error_description: 'The person declined to authorize the application' },
      { mergeWithLastSubmission: false },
    );
    return { redirectTo };
  }

  /** Only a person signed in to the console, with a tenant account, consents (not a bearer token). */
  private personOf(principal: Principal): SessionPrincipal & { tenant: TenantRef } {
    if (principal.kind !== 'session' || principal.via !== 'browser' || principal.userId === null) {
      throw new ForbiddenError(
        'Authorizing an application needs a person signed in to the console with a tenant account',
        'person_required',
      );
    }
    return principal;
  }

  /** The live interaction this browser started, by its cookie; 404 for any other, expired or unknown. */
  private async interaction(uid: string, request: FastifyRequest, reply: FastifyReply) {
    if (!this.provider.enabled) throw new NotFoundError('Authorization request');
    let found;
    try {
      found = await this.provider.instance.interactionDetails(request.raw, reply.raw);
    } catch {
      throw new NotFoundError('Authorization request');
    }
    if (found.uid !== uid) throw new NotFoundError('Authorization request');
    return found;
  }

  private async clientOf(clientId: unknown) {
    const client = typeof clientId === 'string' ? await this.provider.instance.Client.find(clientId) : undefined;
    if (!client) throw new CairnError(400, 'unknown_client', 'The application is no longer known to this server');
    return client;
  }

  private resourceOf(params: Record<string, unknown>): string {
    const resource = this.config.oauth.resource as string;
    const asked = params.resource;
    return typeof asked === 'string' ? asked : resource;
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function scopesOf(params: Record<string, unknown>): string[] {
  return typeof params.scope === 'string' ? params.scope.split(' ').filter((scope) => scope.length > 0) : [];
}
