import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, RequirePermission } from '@cairn/access';
import { CurrentTenant, PageQueryDto, SlugParamDto, type TenantRef } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { UsersService } from '../users.service';
import { CreateUserDto, toUserDto, UpdateUserDto, UserDto, UserPageDto, UserParamsDto } from './user.dto';

@ApiTags('tenant: users')
@Controller('v1/tenants/:slug/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @RequirePermission('tenant.users.manage')
  @Audited('user.create')
  @ApiOperation({ summary: 'Create a user in the tenant' })
  @ZodResponse({ status: 201, type: UserDto })
  async create(@Param() _params: SlugParamDto, @Body() body: CreateUserDto, @CurrentTenant() tenant: TenantRef) {
    return toUserDto(await this.users.create(tenant, body));
  }

  @Get()
  @RequirePermission('tenant.users.manage')
  @ApiOperation({ summary: "List the tenant's users" })
  @ZodResponse({ status: 200, type: UserPageDto })
  async list(@Param() _params: SlugParamDto, @Query() query: PageQueryDto, @CurrentTenant() tenant: TenantRef) {
    const page = await this.users.list(tenant, query.limit, query.cursor);
    return { items: page.items.map(toUserDto), nextCursor: page.nextCursor };
  }

  @Patch(':id')
  @RequirePermission('tenant.users.manage')
  @Audited('user.update')
  @ApiOperation({ summary: "Change a user's name or role, or disable it (effective at once)" })
  @ZodResponse({ status: 200, type: UserDto })
  async update(@Param() params: UserParamsDto, @Body() body: UpdateUserDto, @CurrentTenant() tenant: TenantRef) {
    return toUserDto(await this.users.update(tenant, params.id, body));
  }
}
