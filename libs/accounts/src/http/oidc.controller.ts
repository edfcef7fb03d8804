import { Controller, Get, HttpCode, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Audited } from '@cairn/access';
import { Public, RedirectsErrors } from '@cairn/observability';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { OidcProviderParamsDto } from '../contract/session.dto';
import { OidcAttempts } from '../oidc-attempts.service';
import { OidcSignIn } from '../oidc-sign-in.service';
import { OidcRedirectFilter, SIGN_IN_PAGE } from './oidc-redirect.filter';

const REFUSED = `or to ${SIGN_IN_PAGE}?error=<code> when refused (docs/sign-in.md lists the codes)`;
const location = (to: string) => ({ Location: { description: to, schema: { type: 'string' } } });

/**
 * Sign-in through an identity provider (docs/sign-in.md, "OIDC federation"). Both routes are
 * where a browser goes, so both answer with redirects, refusals included (OidcRedirectFilter).
 */
@ApiTags('session')
@Controller('v1/session/oidc')
@UseFilters(OidcRedirectFilter)
export class OidcController {
  constructor(
    private readonly oidc: OidcSignIn,
    private readonly attempts: OidcAttempts,
  ) {}

  @Get(':provider/start')
  @HttpCode(303)
  @Public()
  @RedirectsErrors()
  @ApiOperation({
    summary: 'Sign in through an identity provider: sends the browser to it (authorization code flow with PKCE)',
    description: 'Sets a short-lived HttpOnly cookie that binds the sign-in to this browser until it comes back.',
  })
  @ApiResponse({
    status: 303,
    description: 'To the identity provider',
    headers: location(`its authorization URL, ${REFUSED}`),
  })
  async start(@Param() params: OidcProviderParamsDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const next = await this.oidc.start(params.provider);
    redirect(reply, next.location, [next.setCookie]);
  }

  @Get(':provider/callback')
  @HttpCode(303)
  @Public()
  @RedirectsErrors()
  @Audited('session.login.oidc')
  @ApiOperation({
    summary: 'Where the identity provider sends the browser back; starts the browser session',
    description:
      'The query is the authorization response (code, state, iss). Failed callbacks are throttled per client ' +
      'address like failed sign-ins (LOGIN_IP_ATTEMPTS).',
  })
  @ApiResponse({
    status: 303,
    description: 'Signed in, with the session cookie',
    headers: location(`/console/, ${REFUSED}`),
  })
  async callback(
    @Param() params: OidcProviderParamsDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const client = { userAgent: request.headers['user-agent'], ip: request.ip };
    const started = await this.oidc.finish(params.provider, query, request.cookies, client);
    // The audit entry names who signed in, in the tenant's own log.
    request.tenant = started.tenant;
    request.principal = started.principal;
    request.browserSession = started.session;
    redirect(reply, '/console/', [started.setCookie, this.attempts.clearCookie()]);
  }
}

function redirect(reply: FastifyReply, to: string, cookies: string[]): void {
  void reply.header('location', to).header('set-cookie', cookies).header('cache-control', 'no-store');
}
