import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { compactBriefing } from '../briefing-compact';
import { BriefingService } from '../briefing.service';
import { BriefingDto, BriefingRequestDto } from '../contract/briefing.dto';
import { ProjectParamDto } from '../contract/working-memory.dto';

@ApiTags('session')
@Controller('v1/projects/:project/context')
export class BriefingController {
  constructor(private readonly briefings: BriefingService) {}

  @Post()
  @HttpCode(200)
  @RequirePermission('context.read')
  @ApiOperation({
    summary: 'Session briefing (recall_context)',
    description:
      'Working memory by importance, a time anchor (now in the given time zone, time since the last ' +
      'briefing and what was added since), recent events, the last session summary and system status, ' +
      'within a token budget, most important first. Records the visit.',
  })
  @ZodResponse({ status: 200, type: BriefingDto })
  async context(
    @Param() params: ProjectParamDto,
    @Body() body: BriefingRequestDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const { format, ...options } = body;
    const briefing = await this.briefings.context(params.project, principal, options);
    return format === 'compact' ? { ...briefing, text: compactBriefing(briefing) } : briefing;
  }
}
