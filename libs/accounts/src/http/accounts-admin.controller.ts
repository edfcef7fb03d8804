import { Controller, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { actorOf, Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { CurrentTenant, type TenantRef } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { PasswordLinkDto, PasswordLinkParamsDto } from '../contract/session.dto';
import { PasswordLinks } from '../password-links.service';

/** Password links for a tenant's users (platform-operator accounts: PlatformAccountsController). */
@ApiTags('accounts')
@Controller('v1')
export class AccountsAdminController {
  constructor(private readonly links: PasswordLinks) {}

  @Post('tenants/:slug/users/:id/password-link')
  @RequirePermission('tenant.users.manage')
  @Audited('account.password_link.issue')
  @ApiOperation({
    summary: "A one-time link (24 h) that sets the user's password; a newer link voids older ones",
    description: 'Hand the URL to the person out of band; it is shown only in this answer.',
  })
  @ZodResponse({ status: 201, type: PasswordLinkDto })
  async passwordLink(
    @Param() params: PasswordLinkParamsDto,
    @CurrentTenant() tenant: TenantRef,
    @CurrentPrincipal() principal: Principal,
  ) {
    const link = await this.links.issue(tenant, params.id, actorOf(principal));
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  }
}
