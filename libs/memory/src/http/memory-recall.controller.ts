import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequirePermission, type SessionPrincipal } from '@cairn/access';
import { ZodResponse } from 'nestjs-zod';
import { MemoryRecall, type RecallResult } from '../memory-recall.service';
import { viewerOf } from '../memory-access';
import { RecallAcrossDto, RecallDto, RecallResultDto, toListFilter } from '../contract/memory-query.dto';
import { ProjectParamDto, toMemoryView } from '../contract/memory.dto';

const toRecallView = (result: RecallResult) => ({
  results: result.results.map((hit) => ({ ...hit, memory: toMemoryView(hit.memory) })),
  report: { ...result.report, notes: [...result.report.notes] },
});

@ApiTags('memories')
@Controller('v1')
export class MemoryRecallController {
  constructor(private readonly recall: MemoryRecall) {}

  @Post('projects/:project/memories/search')
  @HttpCode(200)
  @RequirePermission('memory.read')
  @ApiOperation({ summary: 'Recall memories: hybrid (default), keyword or semantic, with optional explain' })
  @ZodResponse({ status: 200, type: RecallResultDto })
  async search(
    @Param() params: ProjectParamDto,
    @Body() body: RecallDto,
    @CurrentPrincipal() principal: SessionPrincipal,
  ) {
    const input = { ...body, filter: toListFilter(body.filters) };
    return toRecallView(await this.recall.recall(params.project, viewerOf(principal), input));
  }

  @Post('memories/search')
  @HttpCode(200)
  @RequirePermission('search.global')
  @ApiOperation({ summary: 'Recall memories across every project the token may read' })
  @ZodResponse({ status: 200, type: RecallResultDto })
  async searchAcross(@Body() body: RecallAcrossDto, @CurrentPrincipal() principal: SessionPrincipal) {
    const result = await this.recall.recallAcross(principal, body.projects, {
      ...body,
      filter: toListFilter(body.filters),
    });
    return toRecallView(result);
  }
}
