import { Body, Controller, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  actorOf,
  AllowedBeforeAccount,
  Audited,
  CurrentPrincipal,
  type Principal,
  RequirePermission,
} from '@cairn/access';
import { CurrentTenant, type TenantRef } from '@cairn/tenancy';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { BrowserSessions } from '../browser-sessions.service';
import {
  CreatedPlatformAccountDto,
  CreatePlatformAccountDto,
  PasswordLinkDto,
  PasswordLinkParamsDto,
} from '../contract/session.dto';
import { PasswordLinks } from '../password-links.service';
import { PlatformAccounts } from '../platform-accounts.service';

/** Administration of accounts: platform-operator accounts, and password links for a tenant's users. */
@ApiTags('accounts')
@Controller('v1')
export class AccountsAdminController {
  constructor(
    private readonly platformAccounts: PlatformAccounts,
    private readonly links: PasswordLinks,
    private readonly sessions: BrowserSessions,
  ) {}

  @Post('platform/accounts')
  @RequirePermission('platform.accounts.manage')
  @AllowedBeforeAccount()
  @Audited('platform.account.create')
  @ApiOperation({
    summary: 'Create a platform-operator account',
    description: 'Called from a bootstrap session, it also ends that session: sign in with the new account.',
  })
  @ZodResponse({ status: 201, type: CreatedPlatformAccountDto })
  async createPlatformAccount(
    @Body() body: CreatePlatformAccountDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const account = await this.platformAccounts.create(body);
    const bootstrap = request.browserSession?.mustCreateAccount === true;
    if (bootstrap && request.browserSession) {
      await this.sessions.end(request.browserSession.id);
      void reply.header('set-cookie', this.sessions.clearCookie());
    }
    return {
      account: { id: account.id, email: account.email ?? '', name: account.name ?? '' },
      signedOut: bootstrap,
      notice: bootstrap
        ? 'The bootstrap session has ended: sign in with the new account'
        : 'The account can sign in now',
    };
  }

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
