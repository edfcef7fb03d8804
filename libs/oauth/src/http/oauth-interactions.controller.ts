import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { Public } from '@cairn/observability';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { ConsentDetailsDto, ConsentDto, ConsentOutcomeDto, InteractionParamsDto } from '../contract/oauth.dto';
import { OAuthConsent } from '../oauth-consent.service';
import { OAuthProvider } from '../oauth-provider.service';

/** The console's consent page, a client route of the single-page app. */
export const CONSENT_PAGE = '/console/oauth/consent';

/**
 * The consent step of Cairn's authorization server (docs/oauth.md). The server sends the browser
 * to the first route, which hands it to the console's consent page; the page (signed in, with
 * the CSRF header like every console call) reads the details and posts the person's decision.
 * All of them live under the interaction's own path, the only place its cookie is sent to.
 */
@ApiTags('oauth')
@Controller('v1/oauth/interactions')
export class OAuthInteractionsController {
  constructor(
    private readonly provider: OAuthProvider,
    private readonly consent: OAuthConsent,
  ) {}

  @Get(':uid')
  @HttpCode(303)
  @Public()
  @ApiOperation({
    summary: "Where the authorization server sends a person's browser to decide: on to the console's consent page",
  })
  @ApiResponse({
    status: 303,
    description: 'To the consent page',
    headers: { Location: { description: `${CONSENT_PAGE}/<uid>`, schema: { type: 'string' } } },
  })
  start(@Param() params: InteractionParamsDto, @Res({ passthrough: true }) reply: FastifyReply): void {
    if (!this.provider.enabled) throw new NotFoundError('Authorization request');
    void reply.header('location', `${CONSENT_PAGE}/${params.uid}`).header('cache-control', 'no-store');
  }

  @Get(':uid/details')
  @RequirePermission('account.session')
  @ApiOperation({
    summary: 'What an application asks for, and what the signed-in person may give it (role, projects)',
    description:
      'Only for the browser that started the authorization request (its interaction cookie), signed in to the console.',
  })
  @ZodResponse({ status: 200, type: ConsentDetailsDto })
  details(
    @Param() params: InteractionParamsDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    void reply.header('cache-control', 'no-store');
    return this.consent.details(params.uid, principal, request, reply);
  }

  @Post(':uid/consent')
  @HttpCode(200)
  @RequirePermission('account.session')
  @Audited('oauth.consent.allow')
  @ApiOperation({
    summary:
      'Authorize the application with a role and projects within the person’s own; answers where the browser goes',
  })
  @ZodResponse({ status: 200, type: ConsentOutcomeDto })
  async allow(
    @Param() params: InteractionParamsDto,
    @Body() body: ConsentDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.consent.consent(params.uid, principal, body, request, reply);
    return { redirectTo: outcome.redirectTo };
  }

  @Post(':uid/deny')
  @HttpCode(200)
  @RequirePermission('account.session')
  @Audited('oauth.consent.deny')
  @ApiOperation({ summary: 'Decline: the application hears access_denied; answers where the browser goes' })
  @ZodResponse({ status: 200, type: ConsentOutcomeDto })
  deny(
    @Param() params: InteractionParamsDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.consent.deny(params.uid, principal, request, reply);
  }
}
