import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '@cairn/access';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ChecksCredentials, Public } from '@cairn/observability';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { type StartedSession } from '../browser-sessions.service';
import { BootstrapDto, LoginDto, ProvidersDto, SessionViewDto, SetPasswordDto } from '../contract/session.dto';
import { OidcProviders } from '../oidc-providers.service';
import { PasswordLinks } from '../password-links.service';
import { SessionViews } from '../session-views.service';
import { SignIn } from '../sign-in.service';

const clientOf = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ip: request.ip });

/** The ways in that need no credentials yet: the sign-in options, sign-in, bootstrap, a password link. */
@ApiTags('session')
@Controller('v1/session')
export class SignInController {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly signIn: SignIn,
    private readonly views: SessionViews,
    private readonly links: PasswordLinks,
    private readonly oidc: OidcProviders,
  ) {}

  @Get('providers')
  @Public()
  @ApiOperation({ summary: 'How people may sign in here: email and password, and identity providers' })
  @ZodResponse({ status: 200, type: ProvidersDto })
  providers() {
    return { local: this.config.accounts.localLoginEnabled, oidc: this.oidc.list() };
  }

  @Post('login')
  @HttpCode(200)
  @Public()
  @ChecksCredentials()
  @Audited('session.login')
  @ApiOperation({
    summary: 'Sign in with email and password (and a TOTP code if enabled); sets the session cookie',
    description:
      'Omit `tenant` for a platform-operator account. 401 invalid_credentials (the same for an unknown email), ' +
      'totp_required, totp_invalid; 429 with Retry-After after too many failures.',
  })
  @ZodResponse({ status: 200, type: SessionViewDto })
  async login(@Body() body: LoginDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const started = await this.signIn.login(body, clientOf(request));
    // The audit entry names who signed in, in the tenant's own log for a tenant account.
    if (started.tenant) request.tenant = started.tenant;
    return this.answer(started, request, reply);
  }

  @Post('bootstrap')
  @HttpCode(200)
  @Public()
  @ChecksCredentials()
  @Audited('session.bootstrap')
  @ApiOperation({
    summary: 'Sign in with the platform admin token, only to create the first platform-operator account',
    description: 'The session may only read itself, sign out and POST /v1/platform/accounts (403 account_required).',
  })
  @ZodResponse({ status: 200, type: SessionViewDto })
  async bootstrap(
    @Body() body: BootstrapDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.answer(await this.signIn.bootstrap(body.token, clientOf(request)), request, reply);
  }

  @Post('password')
  @HttpCode(204)
  @Public()
  @Audited('account.password.set')
  @ApiOperation({
    summary: "Set a password with a one-time password link; ends every browser session of the link's account",
  })
  async setPassword(@Body() body: SetPasswordDto): Promise<void> {
    await this.links.use(body.token, body.password);
  }

  private async answer(started: StartedSession, request: FastifyRequest, reply: FastifyReply) {
    request.principal = started.principal;
    request.browserSession = started.session;
    void reply.header('set-cookie', started.setCookie);
    void reply.header('cache-control', 'no-store');
    return this.views.describe(started.principal, started.session);
  }
}
