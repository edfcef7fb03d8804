import { Body, Controller, Delete, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { type FastifyRequest } from 'fastify';
import { ZodResponse } from 'nestjs-zod';
import { TotpCodeDto, TotpEnrolmentDto } from '../contract/session.dto';
import { SessionViews } from '../session-views.service';
import { TotpFactor } from '../totp.service';

/** A signed-in account's second factor (time-based one-time codes): a tenant's or a platform operator's. */
@ApiTags('session')
@Controller('v1/session/totp')
export class TotpController {
  constructor(
    private readonly views: SessionViews,
    private readonly totp: TotpFactor,
  ) {}

  @Post()
  @HttpCode(200)
  @RequirePermission('account.session')
  @Audited('account.totp.enrol')
  @ApiOperation({ summary: 'Start enrolling an authenticator app: a secret to scan, pending until confirmed' })
  @ZodResponse({ status: 200, type: TotpEnrolmentDto })
  async enrol(@Req() request: FastifyRequest, @CurrentPrincipal() principal: Principal) {
    const account = await this.views.accountOf(request.browserSession);
    const view = await this.views.describe(principal, request.browserSession);
    return this.totp.enrol(account, view.account?.email ?? account.id);
  }

  @Post('confirm')
  @HttpCode(204)
  @RequirePermission('account.session')
  @Audited('account.totp.enable')
  @ApiOperation({ summary: 'Confirm the enrolment with a code from the app; sign-in asks for a code from then on' })
  async confirm(@Req() request: FastifyRequest, @Body() body: TotpCodeDto): Promise<void> {
    await this.totp.confirm(await this.views.accountOf(request.browserSession), body.code);
  }

  @Delete()
  @HttpCode(204)
  @RequirePermission('account.session')
  @Audited('account.totp.disable')
  @ApiOperation({ summary: 'Turn the second factor off; needs a fresh code from the app' })
  async disable(@Req() request: FastifyRequest, @Body() body: TotpCodeDto): Promise<void> {
    await this.totp.disable(await this.views.accountOf(request.browserSession), body.code);
  }
}
