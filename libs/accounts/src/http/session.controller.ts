import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowedBeforeAccount, Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { BrowserSessions } from '../browser-sessions.service';
import { SessionIdParamsDto, SessionListDto, SessionViewDto } from '../contract/session.dto';
import { SessionViews } from '../session-views.service';

/** The caller's own session: what it is, signing out, and the account's other browser sessions. */
@ApiTags('session')
@Controller('v1/session')
export class SessionController {
  constructor(
    private readonly sessions: BrowserSessions,
    private readonly views: SessionViews,
  ) {}

  @Get()
  @RequirePermission('account.session')
  @AllowedBeforeAccount()
  @ApiOperation({ summary: 'Who is signed in, with what role, until when; the CSRF token of a browser session' })
  @ZodResponse({ status: 200, type: SessionViewDto })
  async current(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    return this.views.describe(principal, request.browserSession);
  }

  @Post('logout')
  @HttpCode(204)
  @RequirePermission('account.session')
  @AllowedBeforeAccount()
  @Audited('session.logout')
  @ApiOperation({ summary: 'Sign out: ends this browser session and revokes its token; clears the cookie' })
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    if (request.browserSession) await this.sessions.end(request.browserSession.id);
    void reply.header('set-cookie', this.sessions.clearCookie());
  }

  @Post('logout-everywhere')
  @HttpCode(204)
  @RequirePermission('account.session')
  @Audited('session.logout_everywhere')
  @ApiOperation({ summary: "Sign out everywhere: ends every browser session of the caller's account" })
  async logoutEverywhere(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const account = await this.views.accountOf(request.browserSession);
    await this.sessions.endAllOfAccount(account.id);
    void reply.header('set-cookie', this.sessions.clearCookie());
  }

  @Get('list')
  @RequirePermission('account.session')
  @ApiOperation({ summary: "The signed-in account's live browser sessions, newest first" })
  @ZodResponse({ status: 200, type: SessionListDto })
  async list(@Req() request: FastifyRequest) {
    const account = await this.views.accountOf(request.browserSession);
    const items = await this.sessions.list(account.id);
    return {
      items: items.map((session) => ({
        id: session.id,
        current: session.id === request.browserSession?.id,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
        userAgent: session.userAgent,
        ip: session.ip,
      })),
    };
  }

  @Delete('list/:id')
  @HttpCode(204)
  @RequirePermission('account.session')
  @Audited('session.end')
  @ApiOperation({ summary: 'End one of the account’s browser sessions (and revoke its token)' })
  async end(@Param() params: SessionIdParamsDto, @Req() request: FastifyRequest): Promise<void> {
    const account = await this.views.accountOf(request.browserSession);
    if (!(await this.sessions.endOfAccount(account.id, params.id))) throw new NotFoundError('Session');
  }
}
