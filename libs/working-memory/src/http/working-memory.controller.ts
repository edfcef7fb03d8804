import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { WorkingMemoryService } from '../working-memory.service';
import {
  WorkingMemoryListDto,
  WorkingMemoryKeyParamsDto,
  ProjectParamDto,
  RememberDto,
  RememberResultDto,
  toEntryView,
  toEvictedView,
} from '../contract/working-memory.dto';

@ApiTags('working memory')
@Controller('v1/projects/:project/working-memory')
export class WorkingMemoryController {
  constructor(private readonly workingMemory: WorkingMemoryService) {}

  @Get()
  @RequirePermission('working_memory.use')
  @ApiOperation({ summary: "The calling agent's working memory in this project (private to that agent)" })
  @ZodResponse({ status: 200, type: WorkingMemoryListDto })
  async list(@Param() params: ProjectParamDto, @CurrentPrincipal() principal: SessionPrincipal) {
    const entries = await this.workingMemory.list(params.project, principal);
    return { items: entries.map(toEntryView), cap: this.workingMemory.cap };
  }

  @Put(':key')
  @RequirePermission('working_memory.use')
  @ApiOperation({
    summary: 'Remember: create or replace an entry',
    description:
      'At the cap, the least important, least recently written entries move into long-term memory; ' +
      '`evicted` lists them with the memory now holding each. Keys with "/" are URL-encoded (%2F).',
  })
  @ZodResponse({ status: 200, type: RememberResultDto })
  async remember(
    @Param() params: WorkingMemoryKeyParamsDto,
    @Body() body: RememberDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const result = await this.workingMemory.remember(params.project, principal, { key: params.key, ...body });
    return { entry: toEntryView(result.entry), evicted: toEvictedView(result.evicted), redacted: [...result.redacted] };
  }

  @Delete(':key')
  @HttpCode(204)
  @RequirePermission('working_memory.use')
  @ApiOperation({ summary: 'Forget an entry (404 if there is none)' })
  async forget(
    @Param() params: WorkingMemoryKeyParamsDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ): Promise<void> {
    await this.workingMemory.forget(params.project, principal, params.key);
  }
}
