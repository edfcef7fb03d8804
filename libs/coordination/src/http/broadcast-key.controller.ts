import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { ZodResponse } from 'nestjs-zod';
import { ChannelKeys } from '../channel-keys.service';
import { ChannelKeyDto, KeyStateDto, ProjectParamDto } from '../contract/broadcast.dto';

@ApiTags('coordination')
@Controller('v1/projects/:project/broadcasts/key')
export class BroadcastKeyController {
  constructor(private readonly keys: ChannelKeys) {}

  @Get()
  @RequirePermission('broadcast.read')
  @ApiOperation({ summary: "Whether the project's channel needs a posting key (never the key)" })
  @ZodResponse({ status: 200, type: KeyStateDto })
  async state(@Param() params: ProjectParamDto, @CurrentPrincipal() principal: SessionPrincipal) {
    const state = await this.keys.state(params.project, principal);
    return { keySet: state.keySet, keySetAt: state.keySetAt?.toISOString() ?? null };
  }

  @Put()
  @Audited('broadcasts.key.set')
  @RequirePermission('broadcast.key.manage')
  @ApiOperation({
    summary: "Set or replace the channel's posting key (orchestrators and admins)",
    description:
      'At least 16 characters. Stored only as an scrypt hash (N=32768, r=8, p=1, 32-byte salt, 64-byte output); ' +
      'from now on posting needs it in the X-Channel-Key header (the broadcast_post tool: `channelKey`).',
  })
  @ZodResponse({ status: 200, type: KeyStateDto })
  async set(
    @Param() params: ProjectParamDto,
    @Body() body: ChannelKeyDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const state = await this.keys.set(params.project, principal, body);
    return { keySet: state.keySet, keySetAt: state.keySetAt?.toISOString() ?? null };
  }

  @Delete()
  @HttpCode(204)
  @Audited('broadcasts.key.clear')
  @RequirePermission('broadcast.key.manage')
  @ApiOperation({ summary: "Clear the channel's posting key (404 when none is set)" })
  async clear(@Param() params: ProjectParamDto, @CurrentPrincipal() principal: SessionPrincipal): Promise<void> {
    if (!(await this.keys.clear(params.project, principal))) throw new NotFoundError('Channel key');
  }
}
