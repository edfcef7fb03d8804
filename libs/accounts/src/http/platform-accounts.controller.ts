import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  actorOf,
  AllowedBeforeAccount,
  Audited,
  CurrentPrincipal,
  type Principal,
  RequirePermission,
} from '@cairn/access';
import { PageQueryDto } from '@cairn/tenancy';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { BrowserSessions } from '../browser-sessions.service';
import {
  PlatformAccountDto,
  PlatformAccountPageDto,
  PlatformAccountParamsDto,
  toPlatformAccountDto,
} from '../contract/platform-account.dto';
import { CreatedPlatformAccountDto, CreatePlatformAccountDto, PasswordLinkDto } from '../contract/session.dto';
import { PlatformAccounts } from '../platform-accounts.service';

/** Platform-operator accounts, managed by platform operators (and the platform admin token). */
@ApiTags('platform: accounts')
@Controller('v1/platform/accounts')
export class PlatformAccountsController {
  constructor(
    private readonly platformAccounts: PlatformAccounts,
    private readonly sessions: BrowserSessions,
  ) {}

  @Post()
  @RequirePermission('platform.accounts.manage')
  @AllowedBeforeAccount()
  @Audited('platform.account.create')
  @ApiOperation({
    summary: 'Create a platform-operator account',
    description: 'Called from a bootstrap session, it also ends that session: sign in with the new account.',
  })
  @ZodResponse({ status: 201, type: CreatedPlatformAccountDto })
  async create(
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

  @Get()
  @RequirePermission('platform.accounts.manage')
  @ApiOperation({ summary: 'List the platform-operator accounts in creation order' })
  @ZodResponse({ status: 200, type: PlatformAccountPageDto })
  async list(@Query() query: PageQueryDto) {
    const page = await this.platformAccounts.list(query.limit, query.cursor);
    return { items: page.items.map(toPlatformAccountDto), nextCursor: page.nextCursor };
  }

  @Post(':id/disable')
  @HttpCode(200)
  @RequirePermission('platform.accounts.manage')
  @Audited('platform.account.disable')
  @ApiOperation({
    summary: "Disable an operator's account: it cannot sign in, and every browser session of it ends at once",
    description:
      '400 cannot_disable_self for your own account; 409 last_operator for the last enabled one. ' +
      'Disabling a disabled account changes nothing.',
  })
  @ZodResponse({ status: 200, type: PlatformAccountDto })
  async disable(@Param() params: PlatformAccountParamsDto, @CurrentPrincipal() principal: Principal) {
    const by = principal.kind === 'platform' ? principal.accountId : undefined;
    return toPlatformAccountDto(await this.platformAccounts.disable(params.id, by));
  }

  @Post(':id/enable')
  @HttpCode(200)
  @RequirePermission('platform.accounts.manage')
  @Audited('platform.account.enable')
  @ApiOperation({ summary: "Enable an operator's account again: it can sign in (its ended sessions stay ended)" })
  @ZodResponse({ status: 200, type: PlatformAccountDto })
  async enable(@Param() params: PlatformAccountParamsDto) {
    return toPlatformAccountDto(await this.platformAccounts.enable(params.id));
  }

  @Post(':id/password-link')
  @RequirePermission('platform.accounts.manage')
  @Audited('platform.account.password_link.issue')
  @ApiOperation({
    summary: "A one-time link (24 h) that sets the operator's password; a newer link voids older ones",
    description: 'Hand the URL to the person out of band; it is shown only in this answer. 400 account_disabled.',
  })
  @ZodResponse({ status: 201, type: PasswordLinkDto })
  async passwordLink(@Param() params: PlatformAccountParamsDto, @CurrentPrincipal() principal: Principal) {
    const link = await this.platformAccounts.passwordLink(params.id, actorOf(principal));
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  }
}
