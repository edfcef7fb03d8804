import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, RequirePermission } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { TenantsService } from '../tenants.service';
import {
  CreateTenantDto,
  PageQueryDto,
  SlugParamDto,
  TenantDto,
  TenantPageDto,
  TenantPurgeDto,
  toTenantDto,
  toTenantPurgeDto,
} from '../contract/tenant.dto';

@ApiTags('platform: tenants')
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @RequirePermission('platform.tenants.manage')
  @Audited('tenant.create')
  @ApiOperation({ summary: 'Create a tenant with its own migrated schema' })
  @ZodResponse({ status: 201, type: TenantDto })
  async create(@Body() body: CreateTenantDto) {
    return toTenantDto(await this.tenants.create(body));
  }

  @Get()
  @RequirePermission('platform.tenants.manage')
  @ApiOperation({ summary: 'List live tenants in creation order' })
  @ZodResponse({ status: 200, type: TenantPageDto })
  async list(@Query() query: PageQueryDto) {
    const page = await this.tenants.list(query.limit, query.cursor);
    return { items: page.items.map(toTenantDto), nextCursor: page.nextCursor };
  }

  @Get(':slug')
  @RequirePermission('platform.tenants.manage')
  @ApiOperation({ summary: 'Get one tenant' })
  @ZodResponse({ status: 200, type: TenantDto })
  async get(@Param() params: SlugParamDto) {
    return toTenantDto(await this.tenants.getBySlug(params.slug));
  }

  @Post(':slug/suspend')
  @HttpCode(200)
  @RequirePermission('platform.tenants.manage')
  @Audited('tenant.suspend')
  @ApiOperation({
    summary: 'Suspend a tenant: its tokens and sessions are refused (403 tenant_suspended) until it is resumed',
    description: 'Nothing is deleted or revoked; suspending a suspended tenant changes nothing.',
  })
  @ZodResponse({ status: 200, type: TenantDto })
  async suspend(@Param() params: SlugParamDto) {
    return toTenantDto(await this.tenants.setSuspended(params.slug, true));
  }

  @Post(':slug/resume')
  @HttpCode(200)
  @RequirePermission('platform.tenants.manage')
  @Audited('tenant.resume')
  @ApiOperation({ summary: 'Resume a suspended tenant: its tokens and sessions work again at once' })
  @ZodResponse({ status: 200, type: TenantDto })
  async resume(@Param() params: SlugParamDto) {
    return toTenantDto(await this.tenants.setSuspended(params.slug, false));
  }

  @Delete(':slug')
  @HttpCode(200)
  @RequirePermission('platform.tenants.manage')
  @Audited('tenant.delete')
  @ApiOperation({
    summary: 'Delete a tenant: drops its schema, revokes its tokens, disables its users',
    description:
      'Answers the purge report: the rows of every table dropped with the schema, the tokens and users revoked.',
  })
  @ZodResponse({ status: 200, type: TenantPurgeDto })
  async remove(@Param() params: SlugParamDto) {
    const { tenant, purge } = await this.tenants.delete(params.slug);
    return toTenantPurgeDto(tenant, purge);
  }
}
