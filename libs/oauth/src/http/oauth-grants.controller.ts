import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';
import { CurrentTenant, SlugParamDto, type TenantRef } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { GrantListDto, type GrantView, OwnGrantParamsDto, TenantGrantParamsDto } from '../contract/oauth.dto';
import { type StoredOAuthGrant } from '../oauth-grants.repository';
import { OAuthGrants } from '../oauth-grants.service';

/** The applications a person has authorized, as they see them: "Connected applications". */
@ApiTags('oauth')
@Controller('v1/session/oauth-grants')
export class OwnOAuthGrantsController {
  constructor(private readonly grants: OAuthGrants) {}

  @Get()
  @RequirePermission('account.session')
  @ApiOperation({ summary: 'The OAuth applications the caller authorized (revoked ones for 30 days), newest first' })
  @ZodResponse({ status: 200, type: GrantListDto })
  async list(@CurrentPrincipal() principal: Principal) {
    const { tenant, userId } = personOf(principal);
    const items = await this.grants.listOfUser(tenant, userId);
    return { items: items.map(toGrantDto) };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('account.session')
  @Audited('oauth.grant.revoke')
  @ApiOperation({ summary: 'Revoke one of the caller’s grants: its tokens stop working at their next use' })
  async revoke(@Param() params: OwnGrantParamsDto, @CurrentPrincipal() principal: Principal): Promise<void> {
    const { tenant, userId } = personOf(principal);
    await this.grants.revokeOwn(tenant, userId, params.id);
  }
}

/** A tenant's OAuth grants, for its admins: every person's, revocable like tokens. */
@ApiTags('tenant: tokens')
@Controller('v1/tenants/:slug/oauth-grants')
export class TenantOAuthGrantsController {
  constructor(private readonly grants: OAuthGrants) {}

  @Get()
  @RequirePermission('tenant.tokens.manage')
  @ApiOperation({ summary: "The tenant's OAuth grants (revoked ones for 30 days), newest first" })
  @ZodResponse({ status: 200, type: GrantListDto })
  async list(@Param() _params: SlugParamDto, @CurrentTenant() tenant: TenantRef) {
    const items = await this.grants.listOfTenant(tenant);
    return { items: items.map(toGrantDto) };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('tenant.tokens.manage')
  @Audited('oauth.grant.revoke')
  @ApiOperation({ summary: 'Revoke a grant: its tokens stop working at their next use, on every replica' })
  async revoke(
    @Param() params: TenantGrantParamsDto,
    @CurrentPrincipal() principal: Principal,
    @CurrentTenant() tenant: TenantRef,
  ): Promise<void> {
    await this.grants.revokeInTenant(tenant, principal, params.id);
  }
}

/** Grants belong to people of a tenant: a service token (no user) or the platform admin has none. */
function personOf(principal: Principal): { tenant: TenantRef; userId: string } {
  if (principal.kind === 'session' && principal.userId !== null) {
    return { tenant: principal.tenant, userId: principal.userId };
  }
  throw new ForbiddenError('OAuth grants belong to people of a tenant: this token names no user', 'person_required');
}

/** A stored grant as the API shows it (the contract has no access to the repository's types). */
function toGrantDto(grant: StoredOAuthGrant): GrantView {
  return {
    id: grant.id,
    clientId: grant.clientId,
    clientName: grant.clientName,
    clientUri: grant.clientUri,
    userId: grant.userId,
    role: grant.role as GrantView['role'],
    projects: grant.projects.includes('*') ? '*' : [...grant.projects],
    createdAt: grant.createdAt.toISOString(),
    expiresAt: grant.expiresAt.toISOString(),
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}
