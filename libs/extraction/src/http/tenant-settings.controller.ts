import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { actorOf, Audited, CurrentPrincipal, type Principal, RequirePermission } from '@cairn/access';
import { SlugParamDto } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { TenantSettingsAdmin } from '../tenant-settings-admin.service';
import { TenantSettingsService } from '../tenant-settings.service';
import { TenantSettingsDto, UpdateTenantSettingsDto } from './extraction.dto';

/** The access guard resolves the tenant from `:slug` and runs the handler in its context. */
@ApiTags('tenant: settings')
@Controller('v1/tenants/:slug/settings')
export class TenantSettingsController {
  constructor(
    private readonly settings: TenantSettingsService,
    private readonly admin: TenantSettingsAdmin,
  ) {}

  @Get()
  @RequirePermission('tenant.settings.manage')
  @ApiOperation({ summary: "The tenant's settings" })
  @ZodResponse({ status: 200, type: TenantSettingsDto })
  get(@Param() _params: SlugParamDto) {
    return this.settings.get();
  }

  @Patch()
  @RequirePermission('tenant.settings.manage')
  @Audited('tenant.settings.update')
  @ApiOperation({
    summary: "Change the tenant's settings",
    description:
      '`extractionMode`: proposals or memories; `secrets`: redact, reject or allow; `fetchAllowHosts`, `fetchDenyHosts`: kb_fetch host lists; ' +
      '`agentDefaultScope`: project or private, the scope of a memory an agent stores without naming one; ' +
      '`retention`: days the audit log (`auditLogDays`, 0 keeps it forever) and each knowledge-base tier (`knowledgeBaseDays`) are kept, ' +
      "null for the installation's default; a change is audited as tenant.settings.retention and queues the tenant's retention purge",
  })
  @ZodResponse({ status: 200, type: TenantSettingsDto })
  update(
    @Param() _params: SlugParamDto,
    @Body() body: UpdateTenantSettingsDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.admin.update(body, actorOf(principal));
  }
}
