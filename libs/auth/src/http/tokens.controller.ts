import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { CurrentTenant, PageQueryDto, SlugParamDto, type TenantRef } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { TokensService } from '../tokens.service';
import { IssuedTokenDto, IssueTokenDto, TokenPageDto, TokenParamsDto, toIssuedTokenDto, toTokenDto } from './token.dto';

@ApiTags('tenant: tokens')
@Controller('v1/tenants/:slug/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @RequirePermission('tenant.tokens.manage')
  @Audited('token.issue')
  @ApiOperation({ summary: 'Issue a session token; the secret is returned once' })
  @ZodResponse({ status: 201, type: IssuedTokenDto })
  async issue(
    @Param() _params: SlugParamDto,
    @Body() body: IssueTokenDto,
    @CurrentTenant() tenant: TenantRef,
    @CurrentPrincipal() principal: Principal,
  ) {
    const { token, record } = await this.tokens.issue(tenant, principal, body);
    return toIssuedTokenDto(record, token, tenant.slug);
  }

  @Get()
  @RequirePermission('tenant.tokens.manage')
  @ApiOperation({ summary: "List the tenant's tokens, newest first (never the secrets)" })
  @ZodResponse({ status: 200, type: TokenPageDto })
  async list(@Param() _params: SlugParamDto, @Query() query: PageQueryDto, @CurrentTenant() tenant: TenantRef) {
    const page = await this.tokens.list(tenant, query.limit, query.cursor);
    return { items: page.items.map((token) => toTokenDto(token)), nextCursor: page.nextCursor };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('tenant.tokens.manage')
  @Audited('token.revoke')
  @ApiOperation({ summary: 'Revoke a token; effective on every replica at the next request' })
  async revoke(
    @Param() params: TokenParamsDto,
    @CurrentTenant() tenant: TenantRef,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.tokens.revoke(tenant, principal, params.id);
  }
}
