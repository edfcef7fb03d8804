import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, RequirePermission } from '@cairn/access';
import { SlugParamDto } from '@cairn/tenancy';
import { ZodResponse } from 'nestjs-zod';
import { DataKeyRotationDto, DataKeyStatusDto } from '../contract/data-key.dto';
import { DataKeyRotation } from '../data-key-rotation.service';

/**
 * A tenant's data key, for the platform admin (no tenant role holds `tenant.keys.rotate`). The
 * access guard resolves the tenant from `:slug` (404 when unknown) and runs the handler in its
 * context; the rotation is audited in the platform log and the tenant's own.
 */
@ApiTags('platform: tenants')
@Controller('v1/tenants/:slug/data-key')
export class DataKeyController {
  constructor(private readonly rotation: DataKeyRotation) {}

  @Get()
  @RequirePermission('tenant.keys.rotate')
  @ApiOperation({ summary: "The tenant's data-key version and how many sealed values are still on older ones" })
  @ZodResponse({ status: 200, type: DataKeyStatusDto })
  status(@Param() _params: SlugParamDto) {
    return this.rotation.status();
  }

  @Post('rotate')
  @HttpCode(200)
  @RequirePermission('tenant.keys.rotate')
  @Audited('tenant.data_key.rotate')
  @ApiOperation({
    summary: "Rotate the tenant's data key",
    description:
      'New values are sealed with the new version at once (on other replicas within a minute); older ones stay ' +
      'readable and are re-sealed when read and by the maintenance sweep. Old versions are kept.',
  })
  @ZodResponse({ status: 200, type: DataKeyRotationDto })
  rotate(@Param() _params: SlugParamDto) {
    return this.rotation.rotate();
  }
}
